#include "sw/collectives/ring_stages.h"

#include <algorithm>

#include "sw/collectives/rings.h"

namespace hxemu::sw {

// Automatic pipelining chunk: an eighth of the largest segment, at least 1 KiB (so per-message
// costs stay small against the payload) and at most 64 KiB. Measured on hx2mesh-64 at 1 MiB when
// it was chosen (% of the bound): Hamiltonian cycles (4 KiB segments) 85 with 2 KiB chunks, 91 with
// 1 KiB, 89 with 512 B; ring (16 KiB segments) 94 with 2 KiB, 91 with 1 KiB; torus2d (32 KiB) 95
// with 4 KiB, 94 with 2 KiB. (A NIC that interleaved messages to one destination later cut the two
// rings to 34% and 65%; since it sends them in posted order, 94% and 95%: rtl/nic/hx_nic_tx.sv.)
std::uint32_t auto_chunk(const BuildOptions& opt, std::uint32_t max_seg) {
  if (opt.chunk_bytes) return opt.chunk_bytes;
  const std::uint32_t c = (max_seg / 8 + 255) / 256 * 256;
  return std::clamp<std::uint32_t>(c, 1024, 65536);
}

std::uint32_t max_len(const std::vector<Span>& v) {
  std::uint32_t m = 0;
  for (const auto& s : v) m = std::max(m, s.len);
  return m;
}

std::vector<int> reversed(std::vector<int> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

std::vector<int> starts_for(const std::vector<int>& order, const std::map<int, int>& start_of_node) {
  std::vector<int> s;
  for (int node : order) {
    auto it = start_of_node.find(node);
    s.push_back(it == start_of_node.end() ? -1 : it->second);
  }
  return s;
}

std::map<int, int> rs_or_ag_ring(ScheduleBuilder& b, bool reduce_scatter, const std::vector<int>& order,
                                 const std::vector<Span>& owned, int rail_fwd, int rail_bwd,
                                 bool both_ways, std::uint32_t bank, const std::map<int, int>& start,
                                 const BuildOptions& opt) {
  const int n = static_cast<int>(order.size());
  std::map<int, int> done;
  const int dirs = both_ways ? 2 : 1;
  std::vector<std::vector<int>> per_node(n);
  for (int dir = 0; dir < dirs; ++dir) {
    RingPlan r;
    r.order = dir == 0 ? order : reversed(order);
    r.rail = dir == 0 ? rail_fwd : rail_bwd;
    for (int p = 0; p < n; ++p) {
      const int src_pos = dir == 0 ? p : n - 1 - p;
      const Span& o = owned[src_pos];
      const auto halves = split_elems(o.offset / 4, o.len / 4, dirs);
      r.segments.push_back(halves[dir]);
      r.owner.push_back(p);
    }
    r.chunks = chunks_for(max_len(r.segments), auto_chunk(opt, max_len(r.segments)));
    const auto st = starts_for(r.order, start);
    if (reduce_scatter) {
      const auto res = ring_reduce_scatter(b, r, bank, st);
      for (int p = 0; p < n; ++p) per_node[dir == 0 ? p : n - 1 - p].push_back(res.done[p]);
    } else {
      std::vector<std::vector<int>> ready(n, std::vector<int>(r.chunks, -1));
      for (int p = 0; p < n; ++p) std::fill(ready[p].begin(), ready[p].end(), st[p]);
      const auto res = ring_allgather(b, r, ready);
      for (int p = 0; p < n; ++p) per_node[dir == 0 ? p : n - 1 - p].push_back(res.done[p]);
    }
  }
  for (int p = 0; p < n; ++p) done[order[p]] = b.at(order[p]).join(per_node[p]);
  return done;
}

}  // namespace hxemu::sw
