// The ASTRA-sim 1.0 / LIBRA text workload format (docs/training.md), expanded into a TrainingPlan
// by LIBRA's no-overlap loop (sw/workload/training_plan.h).
//
//   [header]   KIND [key: value ...]        optional; KIND = DATA, MODEL, HYBRID_DATA_MODEL,
//                                           HYBRID_MODEL_DATA or HYBRID_TRANSFORMER; keys
//                                           model_parallel_NPU_group (tensor group size),
//                                           data_parallel_NPU_group, pipeline_stages (alias pp),
//                                           pipeline_bytes
//   [count]    the number of layer lines    present exactly when the header is
//   layers     one line per layer, exactly 12 whitespace-separated fields:
//              name reserved(-1) fwd_ns fwd_type fwd_bytes ig_ns ig_type ig_bytes wg_ns wg_type
//              wg_bytes update_ns
//
// A file whose first line already has 12 fields is LIBRA's headerless form (its parallelism then
// comes from the command line, default HYBRID_DATA_MODEL with tensor groups of 1). Collective
// types are NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL (any case). Blank lines and lines
// starting with '#' are skipped. Which group a pass's collective runs on follows the kind: DATA
// puts every collective on the data-parallel groups, MODEL on the tensor groups, the hybrids the
// forward and input-gradient collectives on the tensor groups and the weight-gradient ones on the
// data-parallel groups (LIBRA's communicator files say the same for its GPT-3 and ResNet-50).
// The update time is read but, as in LIBRA's loop, not part of the iteration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/workload/training_plan.h"

namespace hxemu::sw {

// One parsed layer line, before the loop is applied.
struct LayerSpec {
  struct Pass {
    std::uint64_t compute_ns = 0;
    bool has_comm = false;
    CollectiveOp op = CollectiveOp::kAllreduce;
    std::uint64_t bytes = 0;
  };
  std::string name;
  Pass fwd, ig, wg;
  std::uint64_t update_ns = 0;
  int line = 0;
};

// The largest collective the trainer emulates (the emulated host memory holds it); the reader
// accepts larger ones (LIBRA's own workloads ask for hundreds of MB) and the trainer refuses them.
constexpr std::uint64_t kMaxWorkloadCollectiveBytes = 1ull << 28;

// What the command line may set over the file's header: any field left at its "unset" value
// (empty kind, 0 sizes) keeps the file's.
struct ParallelismOverride {
  std::string kind;
  int tp = 0, pp = 0, dp = 0;
  std::uint64_t pp_bytes = 0;
};

// Throws std::invalid_argument naming the source, the line and the field, with the allowed values.
TrainingPlan parse_text_workload(const std::string& text, const std::string& source,
                                 const ParallelismOverride& over = {});
TrainingPlan read_text_workload(const std::string& path, const ParallelismOverride& over = {});

// The layers of a file as written (for tools that convert workloads).
std::vector<LayerSpec> parse_layers(const std::string& text, const std::string& source, Parallelism* header);

// LIBRA's no-overlap loop over `layers` with `par` (stages get contiguous runs of layers).
TrainingPlan expand_no_overlap(const std::vector<LayerSpec>& layers, const Parallelism& par);

// The kinds the header accepts, for messages: "DATA, MODEL, ...".
std::string parallelism_kinds();

}  // namespace hxemu::sw
