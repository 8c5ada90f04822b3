#include "sw/collectives/rings.h"

#include <algorithm>
#include <memory>

#include "sw/runtime/ring_phase.h"

namespace hxemu::sw {

namespace {
int mod(int a, int n) { return ((a % n) + n) % n; }

// Every segment split into `chunks` near-equal element runs.
std::vector<std::vector<Span>> chunked(const RingPlan& r) {
  std::vector<std::vector<Span>> out;
  for (const Span& seg : r.segments) out.push_back(split_elems(seg.offset / 4, seg.len / 4, r.chunks));
  return out;
}

// The phase at every position as a RingPhase rule (sw/runtime/ring_phase.h), when the builder
// wants compact rings and a phase's recvs have distinct tags (at most 2^16 messages per pair).
bool compact(const ScheduleBuilder& b, const RingPlan& r) {
  const std::uint64_t messages = static_cast<std::uint64_t>(r.order.size() - 1) * r.chunks;
  return b.compact_rings() && r.order.size() >= 2 && messages <= 65536;
}

std::shared_ptr<const RingShape> shape_of(const RingPlan& r) {
  auto shape = std::make_shared<RingShape>();
  shape->segments = r.segments;
  shape->owner = r.owner;
  shape->chunks = r.chunks;
  return shape;
}

// Adds phase `proto` (kind, shape and addresses filled in) at every position of the ring, with
// the ring's tags; `setup(p, phase)` sets a position's external dependencies (start or ready).
// Returns per position the phase's join and, per chunk, the op of the last step that leaves that
// chunk in place (its reduction, or for an allgather its receive).
template <class Setup>
RingProgress add_phases(ScheduleBuilder& b, const RingPlan& r, const RingPhase& proto, Setup&& setup) {
  const int n = static_cast<int>(r.order.size());
  const std::uint32_t messages = static_cast<std::uint32_t>((n - 1) * r.chunks);
  std::vector<std::uint16_t> tag_out(n);
  for (int p = 0; p < n; ++p) tag_out[p] = b.reserve_tags(r.rail, r.order[p], r.order[(p + 1) % n], messages);
  RingProgress out;
  out.chunk_ready.assign(n, std::vector<int>(r.chunks, -1));
  out.done.assign(n, -1);
  for (int p = 0; p < n; ++p) {
    RingPhase ph = proto;
    ph.n = n;
    ph.pos = p;
    ph.rail = r.rail;
    ph.pred = r.order[mod(p - 1, n)];
    ph.succ = r.order[(p + 1) % n];
    ph.tag_out = tag_out[p];
    ph.tag_in = tag_out[mod(p - 1, n)];
    setup(p, ph);
    std::vector<std::uint32_t> last(r.chunks);
    for (int j = 0; j < r.chunks; ++j) {
      last[j] = ph.kind == RingPhase::Kind::kReduceScatter ? ph.reduce_index(n - 2, j) : ph.recv_index(n - 2, j);
    }
    const std::uint32_t size = ph.size();
    out.done[p] = b.at(r.order[p]).ring_phase(std::move(ph));
    const int base = out.done[p] - static_cast<int>(size) + 1;
    for (int j = 0; j < r.chunks; ++j) out.chunk_ready[p][j] = base + static_cast<int>(last[j]);
  }
  return out;
}

}  // namespace

int chunks_for(std::uint32_t max_seg_bytes, std::uint32_t chunk_bytes) {
  if (chunk_bytes == 0) return 1;
  return std::max(1, static_cast<int>((max_seg_bytes + chunk_bytes - 1) / chunk_bytes));
}

RingProgress ring_reduce_scatter(ScheduleBuilder& b, const RingPlan& r, std::uint32_t bank,
                                 const std::vector<int>& start) {
  const int n = static_cast<int>(r.order.size());
  const auto& L = b.layout();
  RingProgress out;
  out.chunk_ready.assign(n, std::vector<int>(r.chunks, -1));
  // The ops of each position in this phase that no later op of the phase at that position waits
  // for: every put, and the last step's reductions. The others (receives, earlier reductions) are
  // dependencies of one of these, so the phase's join finishes at the same cycle without them --
  // and a 1,024-node ring does not list ~3,000 ops per node and ring twice.
  std::vector<std::vector<int>> mine(n);
  if (n == 1) {
    for (int j = 0; j < r.chunks; ++j) out.chunk_ready[0][j] = start[0];
    out.done.push_back(b.at(r.order[0]).join({start[0]}));
    return out;
  }
  if (compact(b, r)) {
    RingPhase proto;
    proto.kind = RingPhase::Kind::kReduceScatter;
    proto.shape = shape_of(r);
    proto.data = L.data;
    proto.scratch = L.scratch + bank;
    return add_phases(b, r, proto, [&start](int p, RingPhase& ph) { ph.start = start[p]; });
  }
  const auto chunks = chunked(r);
  // last[p][j]: the op at position p that made chunk j of what p sends next ready.
  std::vector<std::vector<int>> last(n, std::vector<int>(r.chunks, -1));
  for (int p = 0; p < n; ++p) std::fill(last[p].begin(), last[p].end(), start[p]);
  for (int s = 0; s < n - 1; ++s) {
    std::vector<std::vector<int>> next(n, std::vector<int>(r.chunks, -1));
    for (int q = 0; q < n; ++q) {
      const int succ = (q + 1) % n;
      const auto& seg = chunks[r.owner[mod(q - s - 1, n)]];
      for (int j = 0; j < r.chunks; ++j) {
        const Span c = seg[j];
        const auto m = b.send(r.rail, r.order[q], r.order[succ], L.data + c.offset,
                              L.scratch + bank + c.offset, c.len, {last[q][j]});
        mine[q].push_back(m.put);
        // Reducing into the data buffer waits for the node's previous phase too (start).
        const int red = b.at(r.order[succ]).reduce(r.rail, L.data + c.offset,
                                                    L.scratch + bank + c.offset, c.len,
                                                    {m.recv, start[succ]});
        if (s == n - 2) mine[succ].push_back(red);   // else the next step's put waits for it
        next[succ][j] = red;
      }
    }
    last = std::move(next);
  }
  out.chunk_ready = last;
  for (int p = 0; p < n; ++p) out.done.push_back(b.at(r.order[p]).join(mine[p]));
  return out;
}

RingProgress ring_allgather(ScheduleBuilder& b, const RingPlan& r,
                            const std::vector<std::vector<int>>& ready) {
  const int n = static_cast<int>(r.order.size());
  const auto& L = b.layout();
  RingProgress out;
  std::vector<std::vector<int>> mine(n);   // puts and the last step's receives (as above)
  if (compact(b, r)) {
    RingPhase proto;
    proto.kind = RingPhase::Kind::kAllgather;
    proto.shape = shape_of(r);
    proto.data = L.data;
    return add_phases(b, r, proto, [&ready](int p, RingPhase& ph) { ph.ready = ready[p]; });
  }
  const auto chunks = chunked(r);
  std::vector<std::vector<int>> have = ready;   // per position: chunk j of what it sends next
  if (n == 1) {
    out.chunk_ready = ready;
    std::vector<int> deps;
    for (int d : ready[0]) deps.push_back(d);
    out.done.push_back(b.at(r.order[0]).join(deps));
    return out;
  }
  for (int t = 0; t < n - 1; ++t) {
    std::vector<std::vector<int>> next(n, std::vector<int>(r.chunks, -1));
    for (int q = 0; q < n; ++q) {
      const int succ = (q + 1) % n;
      const auto& seg = chunks[r.owner[mod(q - t, n)]];
      for (int j = 0; j < r.chunks; ++j) {
        const Span c = seg[j];
        const auto m = b.send(r.rail, r.order[q], r.order[succ], L.data + c.offset,
                              L.data + c.offset, c.len, {have[q][j]});
        mine[q].push_back(m.put);
        if (t == n - 2) mine[succ].push_back(m.recv);   // else the next step's put waits for it
        next[succ][j] = m.recv;
      }
    }
    have = std::move(next);
  }
  out.chunk_ready = have;
  for (int p = 0; p < n; ++p) out.done.push_back(b.at(r.order[p]).join(mine[p]));
  return out;
}

}  // namespace hxemu::sw
