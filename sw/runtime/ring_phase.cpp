#include "sw/runtime/ring_phase.h"

#include <algorithm>

namespace hxemu::sw {

RingPhase::Decoded RingPhase::decode(std::uint32_t k) const {
  if (k == join_index()) return {Role::kJoin, 0, 0};
  const int per = per_step();
  const int s = static_cast<int>(k) / per;
  int w = static_cast<int>(k) % per;
  const int c = chunks();
  if (pos == 0) {
    if (w < c) return {Role::kPut, s, w};
    w -= c;
  } else if (w >= rx_block()) {
    return {Role::kPut, s, w - rx_block()};
  }
  if (kind == Kind::kAllgather) return {Role::kRecv, s, w};
  return {w % 2 == 0 ? Role::kRecv : Role::kReduce, s, w / 2};
}

Span RingPhase::chunk(int seg, int j) const {
  // As split_elems (sw/collectives/schedule_builder.h) splits a segment's elements: the first
  // count % chunks runs get one element more.
  const Span& sg = shape->segments[static_cast<std::size_t>(seg)];
  const std::uint32_t count = sg.len / 4;
  const std::uint32_t c = static_cast<std::uint32_t>(chunks());
  const std::uint32_t base = count / c, extra = count % c;
  const std::uint32_t uj = static_cast<std::uint32_t>(j);
  Span out;
  out.offset = sg.offset + 4 * (uj * base + std::min(uj, extra));
  out.len = 4 * (base + (uj < extra ? 1 : 0));
  return out;
}

Op RingPhase::op(std::uint32_t k) const {
  const Decoded d = decode(k);
  const bool rs = kind == Kind::kReduceScatter;
  const int c = chunks();
  Op o;
  o.rail = static_cast<std::uint8_t>(rail);
  switch (d.role) {
    case Role::kPut: {
      const int seg = shape->owner[static_cast<std::size_t>(rs ? mod(pos - d.s - 1, n) : mod(pos - d.s, n))];
      const Span ch = chunk(seg, d.j);
      o.kind = OpKind::kPut;
      o.peer = succ;
      o.src = data + ch.offset;
      o.dst = (rs ? scratch : data) + ch.offset;
      o.len = ch.len;
      o.tag = static_cast<std::uint16_t>(tag_out + d.s * c + d.j);
      break;
    }
    case Role::kRecv:
      o.kind = OpKind::kRecv;
      o.peer = pred;
      o.tag = static_cast<std::uint16_t>(tag_in + d.s * c + d.j);
      break;
    case Role::kReduce: {
      // What pred sent in step s: its segment owner[pred_pos - s - 1].
      const int seg = shape->owner[static_cast<std::size_t>(mod(pos - 1 - d.s - 1, n))];
      const Span ch = chunk(seg, d.j);
      o.kind = OpKind::kReduce;
      o.dst = data + ch.offset;
      o.src = scratch + ch.offset;
      o.len = ch.len;
      break;
    }
    case Role::kJoin:
      o.kind = OpKind::kJoin;
      o.rail = 0;
      break;
  }
  return o;
}

std::uint32_t RingPhase::deps_of(std::uint32_t k) const {
  std::uint32_t n_deps = 0;
  for_each_dep(k, 0, [&n_deps](int) { ++n_deps; });
  return n_deps;
}

std::vector<int> RingPhase::external_deps() const {
  std::vector<int> out;
  if (kind == Kind::kReduceScatter) {
    out.push_back(start);
  } else {
    out.insert(out.end(), ready.begin(), ready.end());
  }
  out.push_back(gate);
  out.erase(std::remove_if(out.begin(), out.end(), [](int x) { return x < 0; }), out.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void RingPhase::external_dependents(int x, int base, std::vector<int>& out) const {
  if (x < 0) return;
  const bool rs = kind == Kind::kReduceScatter;
  const int c = chunks();
  if (rs && x == start) {
    for (int s = 0; s < n - 1; ++s) {
      for (int j = 0; j < c; ++j) {
        if (s == 0) out.push_back(base + static_cast<int>(put_index(s, j)));
        out.push_back(base + static_cast<int>(reduce_index(s, j)));
      }
    }
  }
  if (!rs) {
    for (int j = 0; j < c; ++j) {
      if (ready[static_cast<std::size_t>(j)] == x) out.push_back(base + static_cast<int>(put_index(0, j)));
    }
  }
  if (x == gate) {
    for (std::uint32_t k = 0; k < size(); ++k) out.push_back(base + static_cast<int>(k));
  }
}

int RingPhase::recv_for(int r, int from, std::uint16_t tag, int base) const {
  if (r != rail || from != pred) return -1;
  const std::uint32_t k = static_cast<std::uint16_t>(tag - tag_in);
  if (k >= messages()) return -1;
  const int c = chunks();
  return base + static_cast<int>(recv_index(static_cast<int>(k) / c, static_cast<int>(k) % c));
}

}  // namespace hxemu::sw
