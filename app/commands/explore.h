// What `hxemu explore` runs (docs/explore.md): every split of a lane budget over a multidim
// platform's dimensions ranked by LIBRA's analytical iteration time for a workload, the top k and
// a few others emulated cycle-accurately, and one table: split, cost, area, analytical and
// emulated iteration time, performance per cost, the rank by each, the Pareto front of emulated
// time against cost, and the rank correlation of the analytical and the emulated order.
//
// Resumable: the output JSON holds every finished point and is rewritten after each one; a rerun
// with the same workload, base configuration, budget and source revision skips the points it
// holds that passed their checks (failed ones run again).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/explore/design_space.h"
#include "sw/training/trainer.h"
#include "sw/workload/training_plan.h"
#include "sysc/harness/harness.h"
#include "sysc/system/system_config.h"

namespace hxemu::app {

struct ExploreOptions {
  std::string config;
  std::vector<std::string> sets;
  int lanes = 0;               // lanes per NPU over all dimensions, at most
  double budget_usd = 0;       // 0: no limit
  int top = 5, others = 3;     // emulated: the analytical top k and `others` spread over the rest
  std::uint64_t seed = 1;
  sw::TrainOptions train;
  sysc::HarnessFactory harness = sysc::make_plain_harness;
  std::string json;            // the resumable result file ("" : none)
  // Cells of a split's network blocks (the system's total, `hxemu area`); -1 when they could not be
  // synthesized. Empty: the area column stays "-" (explore --area sets it).
  std::function<long long(const sysc::SystemConfig&)> area;
};

struct ExplorePoint {
  sw::SplitPoint split;
  bool emulate = false;        // chosen for emulation
  bool done = false;           // emulated (now or in an earlier run)
  bool from_file = false;      // taken from the JSON of an earlier run
  std::uint64_t emulated_cycles = 0;
  bool ok = false;
  std::uint64_t wrong = 0;
  double wall_seconds = 0;
  std::vector<std::string> errors;   // the training run's (a failed data check, a stall)
  long long area_cells = -1;   // -1: not synthesized (no --area, or Yosys failed on a block)
  double emulated_rank = 0, perf_per_cost_rank = 0;
  bool pareto = false;
};

struct ExploreResult {
  std::string workload;
  double clock_ghz = 1;                 // the platform's (cycles to time)
  std::vector<ExplorePoint> points;     // analytical order
  std::vector<std::string> refused;
  double spearman = 0;                  // over the emulated points
  int emulated_now = 0, resumed = 0;
  nlohmann::json json(const std::string& key) const;
};

// Called before each emulation with the split's label, its index among those emulated, and how
// many will be.
using ExploreHook = std::function<void(const std::string& label, int index, int count)>;
// Called after each emulated point with the result so far (to write the resumable file).
using ExploreSave = std::function<void(const ExploreResult&)>;

ExploreResult run_explore(const ExploreOptions& opt, const sw::TrainingPlan& plan, const std::string& key,
                          const nlohmann::json& previous, const ExploreHook& hook, const ExploreSave& save);

// Identifies what an exploration computed (workload steps, parallelism, base configuration and
// overrides, budget, seed, train options): a rerun resumes only from a file with the same key.
std::string explore_key(const ExploreOptions& opt, const sw::TrainingPlan& plan);

std::string explore_table(const ExploreResult& r);
std::string explore_svg(const ExploreResult& r);

}  // namespace hxemu::app
