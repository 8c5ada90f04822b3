#include "sysc/system/vc_plan.h"

#include <stdexcept>

namespace hxemu::sysc {

VcPlan make_vc_plan(int vcs, int classes, int per_class, VcPolicy policy) {
  if (classes < 1 || classes > 4) throw std::invalid_argument("VC classes must be 1..4");
  if (per_class < 1 || per_class * classes > vcs) {
    throw std::invalid_argument("vcs: " + std::to_string(per_class) + " per class x " +
                                std::to_string(classes) + " classes do not fit in " +
                                std::to_string(vcs) + " VCs per port");
  }
  VcPlan p;
  p.vcs = vcs;
  p.classes = classes;
  p.per_class = per_class;
  p.policy = policy;
  p.vc_class.assign(vcs, 3);
  for (int c = 0; c < classes; ++c) {
    for (int k = 0; k < per_class; ++k) {
      p.vc_class[c * per_class + k] = c;
      p.class_vcs[c] |= 1u << (c * per_class + k);
    }
  }
  const std::uint32_t all = vcs >= 32 ? ~0u : ((1u << vcs) - 1);
  p.vc_allow.assign(vcs, all);
  if (policy == VcPolicy::kLane) {
    for (int v = 0; v < vcs; ++v) {
      std::uint32_t m = 0;
      for (int c = 0; c < classes; ++c) m |= 1u << (c * per_class + v % per_class);
      p.vc_allow[v] = m;
    }
  }
  return p;
}

const char* vc_policy_name(VcPolicy p) { return p == VcPolicy::kLane ? "lane" : "dynamic"; }

}  // namespace hxemu::sysc
