// Where a workload's parallelism lands on the machine (docs/training.md).
//
// The machine's accelerators are numbered by logical rank, innermost dimension first: on a
// multidim platform its own dimensions (rank = node id), elsewhere the global accelerator grid's
// columns then rows (rank = row x columns + column). Tensor groups take the innermost factor of
// the rank (tp consecutive ranks), data-parallel groups the next (dp ranks tp apart), pipeline
// stages the outermost: rank = stage x (tp x dp) + replica x tp + shard. So on a multidim platform
// tensor parallelism lives in the inner (fast, short) dimensions and data parallelism in the outer
// ones, as in LIBRA's communicator files, and on a HammingMesh tensor groups are along the rows.
// A group may cover part of a dimension (LIBRA's GPT-3 4D: tensor 4 x 4 on [4, 8, 4, 32], data
// 2 x 4 x 32): every group size must split the dimensions it crosses, otherwise the error lists
// the sizes that do.
#pragma once

#include <string>
#include <vector>

#include "sw/collectives/communicator.h"
#include "sw/collectives/libra_estimate.h"
#include "sw/workload/training_plan.h"
#include "sysc/system/system.h"

namespace hxemu::sw {

struct Placement {
  Parallelism par;                 // tp, dp, pp resolved (dp = 0 and MODEL's tp become numbers)
  int used = 0;                    // tp x dp x pp accelerators; the rest idle
  // Per stage: every tensor group, every data-parallel group, the whole stage; per stage boundary
  // s (s -> s + 1): one 2-member communicator per accelerator, sender first (forward) and the
  // reverse (backward). A group kind of size 1 has no communicators.
  std::vector<std::vector<Communicator>> tensor, data, all, to_next, to_previous;
  // The shape of each kind's groups on the platform's dimensions, for LIBRA's estimate (multidim).
  std::vector<CommDim> tensor_dims, data_dims, all_dims;
  std::string describe() const;    // "tensor 4 (dims 4) x data 16 (4 x 4) x pipeline 1"
  const std::vector<Communicator>& groups(GroupKind g, int stage, bool backward) const;
  const std::vector<CommDim>& dims(GroupKind g) const;
};

// Throws std::invalid_argument naming the parallelism field and the sizes allowed.
Placement place(const sysc::System& sys, const Parallelism& par);
// The same from a multidim platform's configuration alone (node id = logical rank), for
// analytical estimates of design points that are not built.
Placement place(const sysc::SystemConfig& cfg, const Parallelism& par);

}  // namespace hxemu::sw
