// Chakra traces as a training plan, with the command line's sizes applied.
#include <stdexcept>

#include "app/cli/train_input.h"
#include "sw/workload/chakra_trace.h"

namespace hxemu::cli {

sw::TrainingPlan load_chakra_plan(const std::string& path, const TrainInput& in) {
  sw::TrainingPlan plan = sw::read_chakra(path, 0);
  // A trace names each collective's group (pg_name) and holds its own pipeline sends, so the
  // kind, the stage count and the send size are the trace's; group sizes may be set.
  if (!in.kind.empty()) {
    throw std::invalid_argument("--parallelism applies to text workloads; a Chakra trace names each collective's "
                                "group itself (pg_name)");
  }
  if (in.pp && in.pp != plan.par.pp) {
    throw std::invalid_argument("--pp " + std::to_string(in.pp) + ": the trace '" + path + "' has " +
                                std::to_string(plan.par.pp) + " pipeline stage(s)");
  }
  if (in.pp_bytes) {
    throw std::invalid_argument("--pp-bytes applies to text workloads; a Chakra trace gives each send's size");
  }
  if (in.tp) plan.par.tp = in.tp;
  if (in.dp) plan.par.dp = in.dp;
  return plan;
}

}  // namespace hxemu::cli
