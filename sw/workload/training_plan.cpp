#include "sw/workload/training_plan.h"

#include <sstream>

namespace hxemu::sw {

const char* group_kind_name(GroupKind g) {
  switch (g) {
    case GroupKind::kAll: return "all";
    case GroupKind::kTensor: return "tensor";
    case GroupKind::kData: return "data";
    case GroupKind::kPipeline: return "pipeline";
  }
  return "?";
}

std::string describe_step(const PlanStep& s) {
  std::ostringstream os;
  os << "stage " << s.stage << " " << s.pass << " " << (s.layer.empty() ? "(stage boundary)" : s.layer) << ": ";
  if (s.kind == PlanStep::Kind::kCompute) {
    os << "compute " << s.compute_ns << " ns";
  } else if (s.group == GroupKind::kPipeline) {
    os << "send " << s.bytes << " B to stage " << (s.backward ? s.stage - 1 : s.stage + 1);
  } else {
    os << op_name(s.op) << " " << s.bytes << " B on " << group_kind_name(s.group) << " groups";
  }
  return os.str();
}

}  // namespace hxemu::sw
