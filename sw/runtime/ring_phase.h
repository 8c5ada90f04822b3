// RingPhase: the ops one node performs in one phase of a pipelined ring (reduce-scatter or
// allgather), held as a rule instead of a list. On a ring of n nodes with c chunks per segment a
// node does 3c(n-1) + 1 ops in a reduce-scatter and 2c(n-1) + 1 in an allgather; stored, the four
// rings of a 1,024-node Hamiltonian allreduce were 21 million ops, about 1 GB with their
// dependencies and run-time state. A RingPhase is ~100 bytes per node and phase.
//
// The ops it stands for are exactly the ones sw/collectives/rings.cpp would create one by one, in
// the same order, with the same fields and dependencies (tests/sw/collectives/ring_phase_test.cpp
// builds both and compares them op by op), so a program runs to the same cycle either way.
//
// Layout of the phase's ops, ids relative to its first op; per step s = 0 .. n-2, chunks j = 0..c-1:
//   position 0:      put_0 .. put_{c-1}, then the receive side
//   other positions: the receive side, then put_0 .. put_{c-1}
//   receive side: reduce-scatter recv_0, reduce_0, recv_1, reduce_1, ...; allgather recv_0 .. recv_{c-1}
// and last a join of every put and of the last step's reduces (receives, for an allgather).
// Dependencies:
//   reduce-scatter put(s, j): s = 0 ? start : reduce(s-1, j);  reduce(s, j): recv(s, j), start
//   allgather      put(t, j): t = 0 ? ready[j] : recv(t-1, j)
//   recvs none; and every op also waits for `gate` (Program::set_gate) when it is set.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sw/runtime/op.h"

namespace hxemu::sw {

// What every position of one ring shares: the segments of the buffers, which one each position
// owns, and the chunks per segment.
struct RingShape {
  std::vector<Span> segments;      // one per position (lengths a multiple of 4 bytes)
  std::vector<int> owner;          // segment owned by each position
  int chunks = 1;
};

class RingPhase {
 public:
  enum class Kind : std::uint8_t { kReduceScatter, kAllgather };

  Kind kind = Kind::kReduceScatter;
  std::shared_ptr<const RingShape> shape;
  int n = 2;                 // ring size, at least 2
  int pos = 0;               // this node's position
  int rail = 0;
  int pred = -1, succ = -1;  // nodes at positions pos - 1 and pos + 1
  std::uint16_t tag_out = 0; // tag of the first message to succ (then one more per message)
  std::uint16_t tag_in = 0;  // tag of the first message from pred
  std::uint32_t data = 0;    // the data buffer
  std::uint32_t scratch = 0; // reduce-scatter: where partial sums are received (scratch + bank)
  int start = -1;            // reduce-scatter: op the position's puts and reductions wait for
  std::vector<int> ready;    // allgather: per chunk, op the first put of that chunk waits for
  int gate = -1;             // op every op of the phase waits for (-1: none)

  int chunks() const { return shape->chunks; }
  // Messages each way: one per step and chunk.
  std::uint32_t messages() const { return static_cast<std::uint32_t>((n - 1) * chunks()); }
  std::uint32_t size() const { return static_cast<std::uint32_t>((n - 1) * per_step()) + 1; }

  // The k-th op (0 <= k < size()); `base` is the id of the phase's first op.
  Op op(std::uint32_t k) const;
  // Calls f(id) for each dependency of op k (with multiplicity, skipping -1).
  template <class F>
  void for_each_dep(std::uint32_t k, int base, F&& f) const;
  std::uint32_t deps_of(std::uint32_t k) const;
  // Calls f(id) for each op of the phase that depends on op k of the phase, ascending.
  template <class F>
  void for_each_internal_dependent(std::uint32_t k, int base, F&& f) const;
  // The ops outside the phase that some op of it waits for (start, ready, gate; no -1, no repeats).
  std::vector<int> external_deps() const;
  // Appends to `out` every op of the phase that depends on op `x` from outside the phase, once per
  // dependency (an op waiting for x twice is listed twice).
  void external_dependents(int x, int base, std::vector<int>& out) const;
  // Id of the recv that takes message (rail, from, tag), or -1 if none of this phase does.
  int recv_for(int rail, int from, std::uint16_t tag, int base) const;

  // Positions inside the phase.
  std::uint32_t put_index(int s, int j) const {
    return static_cast<std::uint32_t>(s * per_step() + (pos == 0 ? j : rx_block() + j));
  }
  std::uint32_t recv_index(int s, int j) const {
    return static_cast<std::uint32_t>(s * per_step() + (pos == 0 ? chunks() : 0) +
                                      (kind == Kind::kReduceScatter ? 2 * j : j));
  }
  std::uint32_t reduce_index(int s, int j) const { return recv_index(s, j) + 1; }
  std::uint32_t join_index() const { return size() - 1; }

 private:
  enum class Role : std::uint8_t { kPut, kRecv, kReduce, kJoin };
  struct Decoded {
    Role role;
    int s, j;
  };
  int per_step() const { return (kind == Kind::kReduceScatter ? 3 : 2) * chunks(); }
  int rx_block() const { return (kind == Kind::kReduceScatter ? 2 : 1) * chunks(); }
  Decoded decode(std::uint32_t k) const;
  // Byte span of chunk j of segment `seg`.
  Span chunk(int seg, int j) const;
  static int mod(int a, int n) { return ((a % n) + n) % n; }
};

template <class F>
void RingPhase::for_each_dep(std::uint32_t k, int base, F&& f) const {
  const Decoded d = decode(k);
  const bool rs = kind == Kind::kReduceScatter;
  auto give = [&f](int id) {
    if (id >= 0) f(id);
  };
  switch (d.role) {
    case Role::kPut:
      if (d.s == 0) {
        give(rs ? start : ready[static_cast<std::size_t>(d.j)]);
      } else {
        give(base + static_cast<int>(rs ? reduce_index(d.s - 1, d.j) : recv_index(d.s - 1, d.j)));
      }
      break;
    case Role::kRecv:
      break;
    case Role::kReduce:
      give(base + static_cast<int>(recv_index(d.s, d.j)));
      give(start);
      break;
    case Role::kJoin:
      // In the order rings.cpp lists them: by step, and within a step as the ops were created.
      for (int s = 0; s < n - 1; ++s) {
        const bool last = s == n - 2;
        if (pos == 0) {
          for (int j = 0; j < chunks(); ++j) give(base + static_cast<int>(put_index(s, j)));
        }
        if (last) {
          for (int j = 0; j < chunks(); ++j) {
            give(base + static_cast<int>(rs ? reduce_index(s, j) : recv_index(s, j)));
          }
        }
        if (pos != 0) {
          for (int j = 0; j < chunks(); ++j) give(base + static_cast<int>(put_index(s, j)));
        }
      }
      break;
  }
  give(gate);
}

template <class F>
void RingPhase::for_each_internal_dependent(std::uint32_t k, int base, F&& f) const {
  const Decoded d = decode(k);
  const bool rs = kind == Kind::kReduceScatter;
  const int last = n - 2;
  switch (d.role) {
    case Role::kPut:
      f(base + static_cast<int>(join_index()));
      break;
    case Role::kRecv:
      if (rs) {
        f(base + static_cast<int>(reduce_index(d.s, d.j)));
      } else {
        if (d.s < last) f(base + static_cast<int>(put_index(d.s + 1, d.j)));
        if (d.s == last) f(base + static_cast<int>(join_index()));
      }
      break;
    case Role::kReduce:
      if (d.s < last) f(base + static_cast<int>(put_index(d.s + 1, d.j)));
      if (d.s == last) f(base + static_cast<int>(join_index()));
      break;
    case Role::kJoin:
      break;
  }
}

}  // namespace hxemu::sw
