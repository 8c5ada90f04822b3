// What `hxemu signoff` runs (docs/signoff.md): one report on a configuration, every figure from the
// library code of the command that measures it --
//   structure and cost    tb::describe_system (hxemu describe), sysc::network_cost
//   area                  app::measure_area (hxemu area), Yosys with its cache; may fail or be skipped
//   deadlock freedom      sysc::check_deadlock (hxemu describe --check-deadlock) per routing mode
//   zero-load latency     tb::run_pairs (hxemu pairs): measured beside the pipeline model
//   saturation            tb::run_sweep (hxemu sweep) per pattern, beside tb::pattern_bound
//   collectives           sw::CollectiveSession::run (hxemu collective): busbw against the bound
//   workload              sw::run_training (hxemu train), when a workload is given
// -- and the thresholds of signoff_thresholds.h judged on them.
//
// plan_signoff checks everything that can be checked before the first run (configuration, every
// routing mode's configuration, patterns, sizes, workload, thresholds); run_signoff runs the
// sections in order of cost, the cheap ones first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands/area.h"
#include "app/commands/pairs.h"
#include "app/commands/signoff_thresholds.h"
#include "sw/collectives/session.h"
#include "sw/training/trainer.h"
#include "sw/workload/training_plan.h"
#include "sysc/harness/harness.h"
#include "sysc/system/deadlock_check.h"
#include "sysc/system/network_cost.h"
#include "sysc/system/system_config.h"
#include "tb/progress.h"
#include "tb/traffic/pattern_bound.h"
#include "tb/traffic/sweep.h"

namespace hxemu::app {

struct SignoffOptions {
  std::string config;                  // configuration file
  std::vector<std::string> sets;       // --set overrides
  std::string workload;                // text workload ("" none)
  std::string thresholds;              // threshold file ("" none)
  std::uint64_t seed = 1;
  sysc::HarnessFactory harness = sysc::make_plain_harness;
  std::string harness_label = "plain C++";
  // area
  bool area = true;
  int area_timeout_s = 120;            // per Yosys run
  double area_max_memory_gib = 0;      // per Yosys run; 0 none
  std::string area_cache;              // "" default (default_area_cache_dir)
  bool area_retry = false;             // try blocks that failed before within the same limits again
  // zero-load latency (hxemu pairs)
  int pair_flits = 4;
  std::size_t pairs_sample = 0;        // 0: every pair up to 256 nodes, 4096 random pairs above
  // saturation (hxemu sweep)
  std::vector<std::string> patterns = {"uniform", "transpose", "bitcomp", "randperm"};
  std::string packet_flits = "4";
  std::string loads = "0.1:1:0.1";
  std::uint64_t warmup = 1000, measure = 4000, drain = 20000;
  // collectives (hxemu collective), bytes per accelerator
  std::vector<std::uint64_t> sizes = {1ull << 20, 16ull << 20};
  std::string command_line;            // for the stamp
};

// Everything checked, ready to run.
struct SignoffPlan {
  SignoffOptions opt;
  sysc::SystemConfig cfg;
  std::vector<double> loads;
  std::vector<std::string> patterns;               // the ones the system takes
  std::vector<std::pair<std::string, std::string>> patterns_skipped;   // pattern, why
  // Routing modes: each (name, --set override, configuration or why it does not apply).
  struct Mode {
    std::string name, setting;
    bool configured = false;                       // the configuration's own mode
    bool applies = true;
    std::string why_not;
    sysc::SystemConfig cfg;
  };
  std::vector<Mode> modes;
  std::string allreduce_algo, alltoall_algo;       // sw::default_algorithm on the whole machine
  std::shared_ptr<sw::TrainingPlan> workload;
  std::vector<Threshold> thresholds;
  std::uint64_t memory_bytes = 0;                  // the largest session's estimate
  std::string memory_detail;
};

// Throws std::invalid_argument, sysc::ConfigError or sw errors naming the option and what is allowed.
SignoffPlan plan_signoff(const SignoffOptions& o);

struct StructureSection {
  nlohmann::json describe;             // tb::describe_system's JSON
  std::string text;                    // and its text, as hxemu describe prints it
  sysc::NetworkCost cost;
  double seconds = 0;
};

struct AreaSection {
  bool ran = false;
  std::string not_run;                 // why not (--no-area, Yosys missing)
  AreaReport report;
  std::string yosys, rtl_digest, cache_dir;
  int timeout_s = 0;
  double max_memory_gib = 0;
  double seconds = 0;
};

struct DeadlockSection {
  struct Mode {
    SignoffPlan::Mode mode;
    sysc::DeadlockReport report;       // when mode.applies
    std::vector<std::string> cycle;    // channel names, when a cycle was found
  };
  std::vector<Mode> modes;
  bool deadlock_free() const;          // every mode that applies: routing well formed, graph acyclic
  double seconds = 0;
};

struct ZeroLoadSection {
  tb::PairsResult pairs;
  int flits = 0;
  std::size_t sample = 0;              // 0: every ordered pair
  int not_delivered = 0;               // pairs whose packet did not arrive intact
  struct Length {                      // pairs by measured route length (links)
    int links = 0, pairs = 0;
    double head_mean = 0, model_mean = 0;
    std::uint64_t head_max = 0;
    int model_max = 0, mismatches = 0;
  };
  std::vector<Length> by_length;
  double seconds = 0;
};

struct SaturationRow {
  std::string pattern;
  tb::SweepResult sweep;
  tb::PatternBound bound;
};

struct CollectiveRow {
  std::string op;
  sw::CollectiveResult r;
};

struct WorkloadSection {
  bool ran = false;
  std::string name, source, parallelism, placement;
  sw::TrainResult r;
  double seconds = 0;
};

struct SignoffResult {
  StructureSection structure;
  AreaSection area;
  DeadlockSection deadlock;
  ZeroLoadSection zero_load;
  std::vector<SaturationRow> saturation;
  double saturation_seconds = 0;
  std::vector<CollectiveRow> collectives;
  double collectives_seconds = 0;
  WorkloadSection workload;
  Metrics metrics;
  std::vector<ThresholdVerdict> verdicts;
  std::vector<std::string> problems;   // what the runs found wrong (wrong data, a deadlock cycle, ...)
  double wall_seconds = 0;
  int thresholds_failed() const;
  // 0 every threshold met and no problem; 1 otherwise (2, bad input, never gets this far).
  int exit_status() const;
};

// Called as each section starts ("saturation uniform") and ends (its one-line summary).
struct SignoffHooks {
  std::function<void(const std::string& section)> start;
  std::function<void(const std::string& section, const std::string& summary, double seconds)> done;
};

SignoffResult run_signoff(const SignoffPlan& plan, const SignoffHooks& hooks, tb::Progress* progress = nullptr);

// The flat metrics thresholds judge (names as signoff_thresholds.h writes them).
Metrics signoff_metrics(const SignoffPlan& plan, const SignoffResult& r);

}  // namespace hxemu::app
