// The channel-load bound of a synthetic traffic pattern on a system: every node offers the same
// load, each packet's flits are routed as the routers route them (sysc/system/route_model.h,
// spread_path_links: an adaptive choice splits the traffic evenly over its alternatives, the
// balanced ideal), and the bound is the offered load at which the busiest link -- injection and
// ejection links included -- would carry one flit per cycle, capped at the endpoint's one port
// (1 flit/node/cycle). Under deterministic routing no run can accept more; on an 8x8 mesh under
// uniform traffic it is the bisection bound 4/k = 0.5 (docs/metrics-and-bounds.md).
#pragma once

#include <cstdint>
#include <string>

#include "sysc/system/system.h"

namespace hxemu::tb {

struct PatternBound {
  bool known = false;          // false: the pattern has no fixed destination distribution
  std::string why;             // when !known
  double max_link_load = 0;    // flits/cycle on the busiest link per flit/node/cycle offered
  double throughput = 0;       // min(1, 1 / max_link_load), flits/node/cycle
  std::string busiest_link;    // "from.port -> to.port"
};

// `pattern` as tb/traffic/pattern.h parses it, on the system synthetic traffic runs on (one
// terminal per node, rail 0); `seed` fixes randperm's permutation as the run's. Throws
// std::invalid_argument for a pattern the system cannot take (as TrafficPattern does) and
// std::logic_error for a broken route.
PatternBound pattern_bound(const sysc::System& sys, const std::string& pattern, std::uint64_t seed);

}  // namespace hxemu::tb
