// Design-space exploration of a multidim platform's bandwidth split (hxemu explore,
// docs/explore.md): the candidate splits of a lane budget over the platform's dimensions, each
// with its network cost and LIBRA's analytical iteration time for a workload, and the statistics
// that compare the analytical order with the emulated one.
#pragma once

#include <string>
#include <vector>

#include "sw/workload/training_plan.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw {

struct SplitPoint {
  std::vector<int> lanes;          // per dimension, innermost first
  std::string label;               // "1-1-2"
  std::vector<std::string> sets;   // the --set overrides that make it from the base
  sysc::SystemConfig cfg;
  double cost_usd = 0;             // sysc::network_cost
  double analytic_cycles = 0;      // sw::libra_iteration
  int analytic_rank = 0;           // 1 = fastest by the analytical model
};

struct SplitSpace {
  std::vector<SplitPoint> points;  // in analytical order (fastest first; ties by label)
  std::vector<std::string> refused;   // "4-1-1: <why>" (over the budget, router radix, ...)
};

// Every split of at most `lanes_total` lanes per NPU over the base platform's dimensions (at least
// one lane each) that the configuration accepts (the NPU router's ports fit its radix) and whose
// cost is at most `budget_usd` (0: no limit). `sets` are the user's overrides of the base. Throws
// std::invalid_argument when the base is not multidim or no split is left.
SplitSpace multidim_splits(const std::string& config_path, const std::vector<std::string>& sets, int lanes_total,
                           double budget_usd, const TrainingPlan& plan);

// Ranks 1..n of `v` ascending, ties sharing their average rank.
std::vector<double> ranks(const std::vector<double>& v);
// Spearman's rank correlation of a and b (same length >= 2): Pearson's correlation of their ranks.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
// The points no other point beats in both cost and time (lower or equal in both, lower in one).
std::vector<bool> pareto_front(const std::vector<double>& cost, const std::vector<double>& time);

}  // namespace hxemu::sw
