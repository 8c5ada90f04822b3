// LIBRA's analytical time of a training iteration on a multidim platform (the model hxemu checks
// cycle-accurately): compute from the workload, every collective at LIBRA's estimate for its
// groups' shape on the platform's dimensions (sw/collectives/libra_estimate.h), and -- LIBRA has
// no pipeline sends -- a pipeline send at its accelerator's injection rate (bytes / (NICs x flit
// bytes per cycle)). No overlap, so the iteration is the sum.
#pragma once

#include <vector>

#include "sw/training/placement.h"
#include "sw/workload/training_plan.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw {

struct AnalyticIteration {
  std::vector<double> step_cycles;   // per plan step (compute steps: their converted time)
  double compute_cycles = 0, comm_cycles = 0, total_cycles = 0;
};

// Compute steps: ns x clock, rounded to whole cycles (as the emulation takes them).
std::uint64_t compute_cycles(const sysc::SystemConfig& cfg, std::uint64_t ns);

// Throws std::invalid_argument when `cfg` is not multidim.
AnalyticIteration libra_iteration(const sysc::SystemConfig& cfg, const TrainingPlan& plan, const Placement& placement);

}  // namespace hxemu::sw
