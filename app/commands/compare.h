// What `hxemu compare` runs: one experiment over a list of configurations, one row per
// configuration. The experiment is
//   OP:SIZE             a collective with real data (sw/collectives/session.h, CollectiveSession::run)
//                       of SIZE bytes per accelerator, e.g. alltoall:1M, allreduce:4M; the algorithm
//                       is --algo, by default the op's first algorithm (sw::algorithm_table)
//   traffic:PATTERN:sat the saturation throughput of a synthetic pattern (tb/traffic/sweep.h,
//                       run_sweep: what the network accepts at the first saturated load)
//   train:WORKLOAD      one training iteration of a text workload (sw/training/trainer.h, as
//                       `hxemu train`), beside the network's cost (sysc/system/network_cost.h):
//                       cost x iteration time, the HammingMesh paper's question
// Nothing here measures anything itself: the figures are those of CollectiveSession::run and
// run_sweep, the same as `hxemu collective` and `hxemu sweep` report.
//
// Everything that can be checked is checked before the first row runs (plan_comparison): every
// configuration loads, the experiment parses, the algorithm fits every configuration's
// communicator, the pattern fits every system, the memory of the largest run fits.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/algorithms.h"
#include "sw/workload/training_plan.h"
#include "sysc/harness/harness.h"
#include "sysc/system/system_config.h"
#include "tb/progress.h"

namespace hxemu::app {

struct Experiment {
  enum class Kind { kCollective, kTrafficSaturation, kTrain };
  Kind kind = Kind::kCollective;
  std::string spec;                   // as given
  // kCollective
  sw::CollectiveOp op = sw::CollectiveOp::kAllreduce;
  std::uint64_t bytes = 0;            // per accelerator
  // kTrafficSaturation
  std::string pattern;
  // kTrain
  std::string workload;               // the text workload's path
};

// "alltoall:1M", "allreduce:4M", "traffic:uniform:sat", "traffic:hotspot:0.2:0:sat". Throws
// std::invalid_argument naming --experiment, the bad part and the allowed values.
Experiment parse_experiment(const std::string& spec);

struct CompareOptions {
  Experiment experiment;
  std::string algo;                   // collectives: "" = the op's first algorithm
  std::uint64_t seed = 1;
  sysc::HarnessFactory harness = sysc::make_plain_harness;
  // traffic:PATTERN:sat (the sweep's settings, as `hxemu sweep`)
  std::string packet_flits = "4";
  std::string loads = "0.05:1:0.05";
  std::uint64_t warmup = 2000, measure = 10000, drain = 40000;
};

// One configuration's result.
struct CompareRow {
  std::string config_file, name, topology;
  int accelerators = 0;
  int nics = 0;                       // network ports (NICs) per accelerator the run used
  bool ok = false;                    // data check / traffic checks passed
  double wall_seconds = 0;
  // collectives (CollectiveResult)
  std::string algo;
  std::uint64_t cycles = 0, wrong = 0, checked = 0;
  double busbw = 0, bound_busbw = 0, bound_fraction = 0, injection = 0, injection_fraction = 0;
  double cost_usd = 0;                // the network's (sysc/system/network_cost.h), every experiment
  // train:WORKLOAD (TrainResult)
  std::uint64_t iteration_cycles = 0;
  double iteration_us = 0, exposed_fraction = 0, cost_time = 0;   // cost_time: cost x iteration, $ x s
  std::string placement;
  // traffic:PATTERN:sat (SweepResult); injection is one endpoint port, 1 flit/node/cycle
  double saturation = 0;              // flits/node/cycle
  double saturation_gbps = 0;         // Gb/s per node
  bool reached_saturation = false;
  nlohmann::json detail;              // CollectiveResult::json() or the sweep's JSON
  nlohmann::json stamp;               // tb::reproducibility_stamp of this configuration
};

// The checked plan of a comparison.
struct ComparePlan {
  CompareOptions opt;
  std::vector<sysc::SystemConfig> configs;
  std::string algo;                   // collectives: the canonical name of the algorithm
  std::shared_ptr<sw::TrainingPlan> workload;   // train:WORKLOAD, read and checked
};

// `paths`: the configuration files (--configs), each with `sets` applied. Throws
// std::invalid_argument (or sysc::ConfigError) naming the option and what is allowed.
ComparePlan plan_comparison(const std::vector<std::string>& paths, const std::vector<std::string>& sets,
                            const CompareOptions& opt);

// The memory (bytes) the largest collective session of the plan needs, and what it is made of
// (0 for traffic experiments, which need little).
struct PlanMemory {
  std::uint64_t bytes = 0;
  std::string detail;
};
PlanMemory plan_memory(const ComparePlan& plan);

// Runs the experiment on configuration i. `progress` (optional) is told the cycles.
CompareRow run_row(const ComparePlan& plan, std::size_t i, tb::Progress* progress = nullptr);

// The table as printed (header, one line per row, the caveats).
std::string table_header(const ComparePlan& plan);
std::string table_row(const ComparePlan& plan, const CompareRow& r);
std::string table_footer(const ComparePlan& plan, const std::vector<CompareRow>& rows);

nlohmann::json compare_json(const ComparePlan& plan, const std::vector<CompareRow>& rows,
                            const std::string& command_line);
std::string compare_csv(const ComparePlan& plan, const std::vector<CompareRow>& rows);
// One bar per configuration: busbw (collectives), saturation throughput (traffic), or cost x
// iteration time (train).
std::string compare_svg(const ComparePlan& plan, const std::vector<CompareRow>& rows);

}  // namespace hxemu::app
