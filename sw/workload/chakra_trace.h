// Chakra execution traces (one protobuf file per NPU, docs/chakra.md) read into a TrainingPlan, the
// input the trainer runs (sw/workload/training_plan.h). The text reader (text_workload.h) is the
// other way in; a trace written by hxemu's generator (chakra_writer.h) from a text workload reads
// back as the plan the text reader makes of it.
#pragma once

#include <string>

#include "sw/workload/training_plan.h"

namespace hxemu::sw {

// `prefix_or_dir` is either a folder holding one set of files `<name>.<k>.et`, or the prefix
// `<dir>/<name>` of such a set; k runs over 0..N-1 without gaps. `npus_hint` > 0 requires N to be
// that; 0 takes every file found.
//
// The plan: with one pipeline stage every NPU must hold the same steps (SPMD; the first NPU and
// node that differ from NPU 0 are an error). With pp > 1 (metadata "hxemu.pp") the stages are NPU 0
// and, in order of discovery, the NPUs its sends reach, transitively; their nodes are merged by
// running them against each other's sends and receives (docs/chakra.md). Throws
// std::invalid_argument naming the file and the node to blame.
TrainingPlan read_chakra(const std::string& prefix_or_dir, int npus_hint = 0);

}  // namespace hxemu::sw
