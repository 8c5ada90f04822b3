#include "sw/training/analytic.h"

#include <cmath>
#include <stdexcept>

#include "sw/collectives/libra_estimate.h"

namespace hxemu::sw {

std::uint64_t compute_cycles(const sysc::SystemConfig& cfg, std::uint64_t ns) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(ns) * cfg.clock_ghz));
}

AnalyticIteration libra_iteration(const sysc::SystemConfig& cfg, const TrainingPlan& plan, const Placement& placement) {
  if (cfg.topology != sysc::Topology::kMultidim) {
    throw std::invalid_argument("LIBRA's iteration estimate needs a multidim platform");
  }
  AnalyticIteration a;
  const double injection = cfg.md_nics * cfg.flit_bits / 8.0;   // bytes per cycle out of one NPU
  for (const auto& s : plan.steps) {
    double c = 0;
    if (s.kind == PlanStep::Kind::kCompute) {
      c = static_cast<double>(compute_cycles(cfg, s.compute_ns));
      a.compute_cycles += c;
    } else {
      const auto& groups = placement.groups(s.group, s.stage, s.backward);
      if (groups.empty()) {
        c = 0;   // groups of one accelerator
      } else if (s.op == CollectiveOp::kSendRecv || s.op == CollectiveOp::kBroadcast) {
        c = static_cast<double>(s.bytes) / injection;
      } else {
        c = libra_estimate(cfg, s.op, s.bytes, placement.dims(s.group)).cycles;
      }
      a.comm_cycles += c;
    }
    a.step_cycles.push_back(c);
  }
  a.total_cycles = a.compute_cycles + a.comm_cycles;
  return a;
}

}  // namespace hxemu::sw
