#include "tb/traffic_system.h"

namespace hxemu::tb {

std::unique_ptr<sysc::LinkBlock> EndpointFactory::make_terminal(const sysc::TerminalSpec& spec) {
  EndpointConfig ec;
  ec.node = spec.node;
  ec.vcs = spec.vc.vcs;
  ec.inject_vcs = spec.vc.inject_vcs();
  ec.inject_credits = spec.inject_credits;
  ec.eject_depth = spec.eject_depth;
  ec.flit_bits = spec.flit_bits;
  auto ep = std::make_unique<PacketEndpoint>(ec, spec.clock, &events_->log(spec.partition, spec.clock));
  if (static_cast<int>(endpoints_.size()) <= spec.node) endpoints_.resize(spec.node + 1, nullptr);
  endpoints_[spec.node] = ep.get();
  return ep;
}

TrafficSystem::TrafficSystem(const sysc::SystemConfig& cfg, sysc::HarnessFactory harness) {
  factory_ = std::make_unique<EndpointFactory>(&events_);
  sys_ = std::make_unique<sysc::System>(cfg, *factory_);
  events_.map_blocks(*sys_);
  harness_ = harness(*sys_);
}

std::uint64_t TrafficSystem::send(int src, int dst, int flits) {
  PacketSpec p;
  p.id = sb_.created();
  p.src = src;
  p.dst = dst;
  p.route = sys_->route_of(dst);
  p.flits = flits;
  p.created = now();
  sb_.expect(p);
  endpoint(src).enqueue(p);
  return p.id;
}

bool TrafficSystem::drain(std::uint64_t max_cycles, const WatchdogConfig& wd,
                          std::uint64_t check_every) {
  watchdog_ = std::make_unique<Watchdog>(wd);
  const std::uint64_t end = now() + max_cycles;
  while (now() < end) {
    run(check_every);
    if (sb_.outstanding() == 0 && sys_->quiet()) return true;
    if (watchdog_->check(*sys_, sb_)) return false;
  }
  return false;
}

}  // namespace hxemu::tb
