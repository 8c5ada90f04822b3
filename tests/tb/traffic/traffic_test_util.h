// Helpers shared by the traffic tests: shipped configurations with --set overrides, and the
// channel-load bound of a traffic pattern computed from the routing model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sysc/system/route_model.h"
#include "sysc/system/system_config.h"
#include "tests/util/system_test_util.h"
#include "tb/traffic/traffic_run.h"
#include "tb/traffic_system.h"

namespace hxemu::test {

inline sysc::SystemConfig shipped_with(const std::string& name,
                                       const std::vector<std::string>& overrides) {
  return sysc::load_system_config(config_path(name), overrides);
}

// One traffic point: pattern, offered load, warm-up and measured cycles, seed; the rest default.
inline tb::TrafficRunConfig traffic_point(const std::string& pattern, double load, std::uint64_t warmup,
                                          std::uint64_t measure, std::uint64_t seed) {
  tb::TrafficRunConfig c;
  c.pattern = pattern;
  c.load = load;
  c.warmup = warmup;
  c.measure = measure;
  c.seed = seed;
  return c;
}

struct ChannelLoad {
  double max_load = 0;       // flits per cycle on the busiest directed link, every node injecting 1
  std::string link;          // that link, "from -> to"
  int links_at_max = 0;      // how many links carry max_load
  double bound() const { return max_load > 0 ? 1.0 / max_load : 0; }
};

// Every node sends 1 flit/cycle to dest(node); the flows follow the routing model (trace_path,
// every link of the path: injection, network and ejection links). The bound on the uniform
// per-node injection rate is 1 / the busiest link's load.
inline ChannelLoad max_channel_load(const sysc::SystemConfig& cfg,
                                    const std::function<int(int)>& dest) {
  tb::TrafficSystem ts(cfg);
  const sysc::System& sys = ts.sys();
  const sysc::Network& net = sys.net();
  std::vector<double> load(static_cast<std::size_t>(net.links()), 0.0);
  for (int src = 0; src < sys.nodes(); ++src) {
    const int dst = dest(src);
    const sysc::Path path = sysc::trace_path(sys, src, dst);
    if (!path.ok) throw std::runtime_error(path.error);
    load[static_cast<std::size_t>(net.link_out({sys.terminal_block(src), 0}))] += 1.0;
    for (const auto& hop : path.hops) load[static_cast<std::size_t>(hop.link_out)] += 1.0;
  }
  ChannelLoad out;
  for (int l = 0; l < net.links(); ++l) {
    if (load[l] > out.max_load) {
      out.max_load = load[l];
      out.links_at_max = 0;
      const auto& info = net.link_info(l);
      out.link = net.block_name(info.from.block) + "." + std::to_string(info.from.port) + " -> " +
                 net.block_name(info.to.block) + "." + std::to_string(info.to.port);
    }
    if (load[l] == out.max_load) ++out.links_at_max;
  }
  return out;
}

}  // namespace hxemu::test
