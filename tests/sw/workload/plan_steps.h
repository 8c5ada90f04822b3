// Training-plan steps written out in tests (sw/workload/training_plan.h): one call per step.
#pragma once

#include <cstdint>
#include <string>

#include "sw/workload/training_plan.h"

namespace hxemu::sw::test_steps {

inline PlanStep compute(int stage, const std::string& layer, const std::string& pass, std::uint64_t ns) {
  PlanStep s;
  s.kind = PlanStep::Kind::kCompute;
  s.stage = stage;
  s.layer = layer;
  s.pass = pass;
  s.compute_ns = ns;
  return s;
}

inline PlanStep collective(int stage, const std::string& layer, const std::string& pass, CollectiveOp op,
                           std::uint64_t bytes, GroupKind group) {
  PlanStep s;
  s.kind = PlanStep::Kind::kCommunication;
  s.stage = stage;
  s.layer = layer;
  s.pass = pass;
  s.op = op;
  s.bytes = bytes;
  s.group = group;
  return s;
}

}  // namespace hxemu::sw::test_steps
