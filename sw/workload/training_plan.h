// A training iteration as hxemu runs it: an ordered list of steps, each a compute time or a
// communication on one kind of group (docs/training.md). Both workload readers produce it -- the
// ASTRA-sim 1.0 / LIBRA text format (text_workload.h) and Chakra execution traces (chakra_trace.h)
// -- and the trainer (sw/training/trainer.h) executes it, so two inputs describing the same model
// can be compared step by step (operator==).
//
// The no-overlap loop (LIBRA's; ASTRA-sim's "no overlap" mode) that the text reader expands:
//   for layer in layers:            forward compute, then the forward collective
//   for layer in reversed(layers):  input-gradient compute + collective, then weight-gradient
//                                   compute + collective
// with pipeline stages (pp > 1) holding contiguous runs of layers: a stage's forward ends with a
// send of its activations to the next stage, and its backward with a send of the gradients to
// the previous one (one micro-batch: stages run one after another).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/algorithms.h"

namespace hxemu::sw {

// Which accelerators take part in a communication step (sw/training/placement.h maps them onto the
// machine):
//   kAll       every accelerator of the stage in one communicator
//   kTensor    each tensor-parallel (model-parallel) group, all groups at once
//   kData      each data-parallel group (the replicas of one model shard), all at once
//   kPipeline  each accelerator with its counterpart in the next stage (forward) or the previous
//              one (backward): sendrecv
enum class GroupKind { kAll, kTensor, kData, kPipeline };
const char* group_kind_name(GroupKind g);

// The parallelism of a workload. tp x dp x pp = the accelerators used; dp = 0 means "the rest":
// machine size / (tp x pp).
struct Parallelism {
  std::string kind = "DATA";      // the header's keyword (DATA, MODEL, HYBRID_DATA_MODEL, ...)
  int tp = 1;                     // tensor-parallel group size
  int pp = 1;                     // pipeline stages
  int dp = 0;                     // data-parallel group size (0: the rest)
  std::uint64_t pp_bytes = 0;     // activation bytes each accelerator sends to the next stage
  bool operator==(const Parallelism& o) const {
    return kind == o.kind && tp == o.tp && pp == o.pp && dp == o.dp && pp_bytes == o.pp_bytes;
  }
};

struct PlanStep {
  enum class Kind { kCompute, kCommunication };
  Kind kind = Kind::kCompute;
  std::string layer;              // the layer it belongs to ("" for pipeline sends)
  std::string pass;               // "forward", "input-gradient", "weight-gradient", "update"
  int stage = 0;                  // pipeline stage whose accelerators run it
  std::uint64_t compute_ns = 0;   // kCompute: the time from the workload, nanoseconds
  CollectiveOp op = CollectiveOp::kAllreduce;   // kCommunication
  std::uint64_t bytes = 0;        // kCommunication: the buffer per accelerator
  GroupKind group = GroupKind::kAll;
  bool backward = false;          // kPipeline sends: towards the previous stage
  bool operator==(const PlanStep& o) const {
    return kind == o.kind && layer == o.layer && pass == o.pass && stage == o.stage &&
           compute_ns == o.compute_ns && (kind == Kind::kCompute ||
           (op == o.op && bytes == o.bytes && group == o.group && backward == o.backward));
  }
};

struct TrainingPlan {
  std::string name;               // the workload's name (its file name without extension)
  std::string source;             // where it was read from
  Parallelism par;
  std::vector<PlanStep> steps;
  bool operator==(const TrainingPlan& o) const { return par == o.par && steps == o.steps; }
};

// One line per step ("stage 0 forward Q1: compute 9375 ns" / "... allreduce 65536 B on tensor
// groups"), for messages and the test that compares two plans.
std::string describe_step(const PlanStep& s);

}  // namespace hxemu::sw
