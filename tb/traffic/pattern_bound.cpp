#include "tb/traffic/pattern_bound.h"

#include <random>
#include <stdexcept>
#include <vector>

#include "sysc/system/route_model.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/pattern.h"

namespace hxemu::tb {

PatternBound pattern_bound(const sysc::System& sys, const std::string& pattern, std::uint64_t seed) {
  const LogicalGrid grid(sys);
  const TrafficPattern p(pattern, grid, seed);
  PatternBound b;
  // Uniform patterns are spread over their destinations by weight; hotspot mixes a random choice
  // with fixed nodes, and is left without a bound; every other pattern sends each source to one
  // destination whatever the random generator says.
  const bool uniform = p.name() == "uniform" || p.name() == "uniform-noself";
  if (p.name() == "hotspot") {
    b.why = "hotspot traffic has no fixed destination distribution here";
    return b;
  }
  const sysc::Network& net = sys.net();
  std::vector<double> load(static_cast<std::size_t>(net.links()), 0.0);
  const int n = sys.nodes();
  std::string error;
  auto route = [&](int src, int dst, double weight) {
    if (!sysc::spread_path_links(sys, src, dst, 0, [&](int link, double share) { load[link] += weight * share; },
                                 error)) {
      throw std::logic_error("pattern bound: " + error);
    }
  };
  std::mt19937_64 unused(seed);
  for (int s = 0; s < n; ++s) {
    if (uniform) {
      const double w = 1.0 / (p.includes_self() ? n : n - 1);
      for (int d = 0; d < n; ++d) {
        if (d != s || p.includes_self()) route(s, d, w);
      }
    } else {
      route(s, p.destination(s, unused), 1.0);
    }
  }
  int busiest = 0;
  for (int l = 0; l < net.links(); ++l) {
    if (load[l] > load[busiest]) busiest = l;
  }
  const auto& info = net.link_info(busiest);
  b.known = true;
  b.max_link_load = load[busiest];
  b.throughput = b.max_link_load > 1.0 ? 1.0 / b.max_link_load : 1.0;
  b.busiest_link = net.block_name(info.from.block) + "." + std::to_string(info.from.port) + " -> " +
                   net.block_name(info.to.block) + "." + std::to_string(info.to.port);
  return b;
}

}  // namespace hxemu::tb
