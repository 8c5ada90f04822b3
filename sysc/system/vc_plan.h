// VcPlan: how the VCs of every port are split into VC classes and lanes -- the tables the RTL takes
// as inputs (vc_class_i, class_vcs_i, vc_allow_i).
//
// Classes exist for deadlock freedom (HammingMesh escalates one class per tree entered: 3 classes;
// the torus dateline needs 2; mesh and fat tree 1). By default the VCs are split evenly: class c
// owns VCs [c*per_class, (c+1)*per_class). A configuration may split them unevenly
// (router.class_vcs): class c then owns the next counts[c] VCs after those of classes 0..c-1. The
// classes stay disjoint, so the deadlock argument is the same; only how many packets of each class
// can wait side by side changes. Within a class, VC index k is lane k.
// Policy kDynamic lets a head take any free VC of its class at each hop (most throughput);
// kLane keeps it on its lane, so each (source, destination, lane) stream stays in order when the
// route is deterministic.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::sysc {

enum class VcPolicy : int { kDynamic = 0, kLane = 1 };

struct VcPlan {
  int vcs = 2;              // VCs per port (the model variant)
  int classes = 1;
  int per_class = 2;        // VCs per class in use (lanes); 0 when the classes have different counts
  std::vector<int> class_counts;             // VCs of each class, in class order
  VcPolicy policy = VcPolicy::kDynamic;
  std::vector<int> vc_class;                 // class of each VC (unused VCs: class 3)
  std::array<std::uint32_t, 4> class_vcs{};  // VCs of each class
  std::vector<std::uint32_t> vc_allow;       // per input VC: output VCs it may take

  std::uint32_t inject_vcs() const { return class_vcs[0]; }
  int lane_of(int vc) const { return vc % per_class; }
};

// `vcs` physical VCs per port, `per_class` of them for each of `classes` classes (per_class *
// classes <= vcs; the rest stay unused). Throws std::invalid_argument when they do not fit.
VcPlan make_vc_plan(int vcs, int classes, int per_class, VcPolicy policy);
// `counts[c]` VCs for class c (1..4 classes, each count >= 1, their sum <= vcs). The lane policy
// needs the same count in every class. Throws std::invalid_argument otherwise.
VcPlan make_vc_plan(int vcs, const std::vector<int>& counts, VcPolicy policy);
// Every class has the same number of VCs (what the lane policy needs).
bool even_split(const std::vector<int>& counts);

const char* vc_policy_name(VcPolicy p);

}  // namespace hxemu::sysc
