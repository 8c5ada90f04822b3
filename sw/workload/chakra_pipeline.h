// The pipeline stages of a Chakra trace merged into one ordered list of steps (docs/chakra.md).
//
// Stage representatives: NPU 0, then, in order of discovery, the comm_dst of every send of a
// representative (stage index = discovery order). Merge: repeatedly take the lowest stage whose
// next node is not a receive still waiting for its send, and run it until it blocks or ends. A send
// becomes its stage's pipeline step (backward when it goes to a lower stage); a receive, once its
// send was taken, nothing. For the traces hxemu's generator writes this gives the text reader's
// order: each stage's forward steps and send in stage order, then each stage's backward steps and
// send in reverse stage order.
#pragma once

#include <vector>

#include "sw/workload/chakra_trace_file.h"
#include "sw/workload/training_plan.h"

namespace hxemu::sw {

// `traces[k]` is NPU k's. Throws std::invalid_argument naming file and node when the sends reach
// other than `pp` stages or skip a stage, a receive waits for a send no stage makes (or two stages
// wait on each other), or a send is never received.
std::vector<PlanStep> merge_pipeline_stages(const std::vector<ChakraNpuTrace>& traces, int pp);

}  // namespace hxemu::sw
