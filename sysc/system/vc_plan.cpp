#include "sysc/system/vc_plan.h"

#include <stdexcept>

namespace hxemu::sysc {

VcPlan make_vc_plan(int vcs, int classes, int per_class, VcPolicy policy) {
  if (classes < 1 || classes > 4) throw std::invalid_argument("VC classes must be 1..4");
  return make_vc_plan(vcs, std::vector<int>(static_cast<std::size_t>(classes), per_class), policy);
}

bool even_split(const std::vector<int>& counts) {
  for (int n : counts) {
    if (n != counts.front()) return false;
  }
  return true;
}

VcPlan make_vc_plan(int vcs, const std::vector<int>& counts, VcPolicy policy) {
  const int classes = static_cast<int>(counts.size());
  if (classes < 1 || classes > 4) throw std::invalid_argument("VC classes must be 1..4");
  int total = 0;
  for (int n : counts) {
    if (n < 1) throw std::invalid_argument("every VC class needs at least one VC");
    total += n;
  }
  const bool even = even_split(counts);
  if (total > vcs) {
    throw std::invalid_argument("vcs: " + std::to_string(total) + " VCs in " + std::to_string(classes) +
                                " classes do not fit in " + std::to_string(vcs) + " VCs per port");
  }
  if (policy == VcPolicy::kLane && !even) {
    throw std::invalid_argument("the lane VC policy needs the same number of VCs in every class");
  }
  VcPlan p;
  p.vcs = vcs;
  p.classes = classes;
  p.per_class = even ? counts[0] : 0;
  p.class_counts = counts;
  p.policy = policy;
  p.vc_class.assign(vcs, 3);
  int v = 0;
  for (int c = 0; c < classes; ++c) {
    for (int k = 0; k < counts[c]; ++k, ++v) {
      p.vc_class[v] = c;
      p.class_vcs[c] |= 1u << v;
    }
  }
  const std::uint32_t all = vcs >= 32 ? ~0u : ((1u << vcs) - 1);
  p.vc_allow.assign(vcs, all);
  if (policy == VcPolicy::kLane) {
    const int per_class = counts[0];
    for (int u = 0; u < vcs; ++u) {
      std::uint32_t m = 0;
      for (int c = 0; c < classes; ++c) m |= 1u << (c * per_class + u % per_class);
      p.vc_allow[u] = m;
    }
  }
  return p;
}

const char* vc_policy_name(VcPolicy p) { return p == VcPolicy::kLane ? "lane" : "dynamic"; }

}  // namespace hxemu::sysc
