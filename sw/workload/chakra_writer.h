// hxemu's Chakra generator: a TrainingPlan written as one Chakra trace file per NPU, which
// read_chakra (chakra_trace.h) reads back as the same plan (docs/chakra.md).
#pragma once

#include <string>
#include <vector>

#include "sw/workload/training_plan.h"

namespace hxemu::sw {

// The bytes of NPU k's file, k = 0..npus-1. Pipeline stage s holds NPUs s*n .. s*n+n-1, with n =
// `npus_per_stage_hint`, or npus / pp when 0 (n x pp must be npus). Each NPU's nodes are its
// stage's steps in plan order, chained by ctrl_deps; a pipeline send becomes a COMM_SEND_NODE to
// the NPU at the same position in the next (previous) stage and a COMM_RECV_NODE there, at the same
// place in plan order. Throws std::invalid_argument for a plan it cannot write (naming the step).
std::vector<std::string> chakra_traces(const TrainingPlan& plan, int npus, int npus_per_stage_hint);

// Writes `<prefix>.<k>.et` for k = 0..npus-1 (creating the folder), each through a temporary file
// renamed into place: a failed write leaves no partial file. Files `<prefix>.<k>.et` of an earlier,
// larger trace (k >= npus) are removed, so the prefix names one trace. std::runtime_error on an I/O
// failure.
void write_chakra(const TrainingPlan& plan, int npus, int npus_per_stage_hint, const std::string& prefix);

}  // namespace hxemu::sw
