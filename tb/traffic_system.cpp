#include "tb/traffic_system.h"

#include <algorithm>
#include <cstring>

#include "sysc/dist/ranks.h"
#include "tb/stats/link_windows.h"

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
  events_.cover_partitions(*sys_);
  harness_ = harness(*sys_);
}

void TrafficSystem::run_windowed(std::uint64_t cycles) {
  windows_->run(now(), cycles, [this](std::uint64_t k) { harness_->run(k); });
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
  if (sys_->owns_node(src)) endpoint(src).enqueue(p);   // under mpirun: the rank stepping src
  return p.id;
}

std::vector<std::uint64_t> TrafficSystem::flits_received() const {
  std::vector<std::uint64_t> v(static_cast<std::size_t>(nodes()), 0);
  for (int n = 0; n < nodes(); ++n) {
    if (sys_->owns_node(n)) v[n] = factory_->endpoints()[n]->flits_received();
  }
  if (sys_->ranks() > 1) sysc::Ranks::sum(v);
  return v;
}

std::vector<std::uint64_t> TrafficSystem::withdraw_pending() {
  std::vector<std::uint64_t> ids;
  for (int n = 0; n < nodes(); ++n) {
    if (sys_->owns_node(n)) factory_->endpoints()[n]->withdraw_pending(ids);
  }
  if (sys_->ranks() > 1) {
    std::string mine(reinterpret_cast<const char*>(ids.data()), ids.size() * sizeof(std::uint64_t));
    ids.clear();
    for (const std::string& s : sysc::Ranks::all_gather(mine)) {
      const std::size_t k = s.size() / sizeof(std::uint64_t);
      const std::size_t at = ids.size();
      ids.resize(at + k);
      std::memcpy(ids.data() + at, s.data(), k * sizeof(std::uint64_t));
    }
    std::sort(ids.begin(), ids.end());
  }
  for (std::uint64_t id : ids) sb_.withdraw(id);
  return ids;
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
