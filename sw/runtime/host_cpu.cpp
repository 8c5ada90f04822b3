#include "sw/runtime/host_cpu.h"

namespace hxemu::sw {

HostCpu::HostCpu(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
                 const std::vector<std::uint32_t>& routes, const std::uint64_t* clock,
                 const HostCpuConfig& cfg)
    : node_(node), clock_(clock), cfg_(cfg),
      engine_(std::move(rails), memory, routes, cfg.reduce_cycles_per_byte), state_(node) {}

void HostCpu::load(Program p) {
  engine_.clear_jobs();
  state_.load(std::move(p), engine_.rails(), *clock_);
}

void HostCpu::job_done(int, const EngineJob& job, bool ok) {
  if (!ok) state_.error("reduce/copy outside host memory");
  state_.engine_done(static_cast<int>(job.token), *clock_);
}

void HostCpu::tick() {
  const std::uint64_t now = *clock_;
  // Completions delivered before this cycle, then jobs finished by now.
  engine_.collect(now, *this);
  // Start whatever is ready (finishing ops may make more ready at once).
  state_.start_ready(now, [this](int id, const Op& op) {
    if (op.kind == OpKind::kPut) {
      engine_.put(op.rail, op.peer, op.src, op.dst, op.len, op.tag);
    } else {
      EngineJob j;
      j.kind = op.kind;
      j.type = cfg_.type;
      j.dst = op.dst;
      j.src = op.src;
      j.len = op.len;
      j.token = static_cast<std::uint64_t>(id);
      engine_.submit(op.rail, j);
    }
  });
  engine_.start_engines(now);
}

bool HostCpu::idle() const {
  return !state_.has_ready() && !engine_.engines_busy() && !engine_.completions_visible();
}

}  // namespace hxemu::sw
