// Program: what one node's host does during a collective -- a dependency graph of operations on
// its NICs and memory. An operation starts when every operation it depends on has finished:
//   put     post a put on a rail's NIC (len bytes from local src to dst at node peer); finishes at
//           its local (TX) completion, when its last flit has left the NIC
//   recv    finishes when the rail's NIC reports message (peer, tag) landed in local memory
//   reduce  dst[i] += src[i] over len bytes of elements, on the rail's reduction engine (one per
//           NIC, serial), taking ceil(len * cycles_per_byte) cycles; the data is combined for real
//   copy    dst = src (len bytes), on the reduction engine likewise
//   join    finishes at once (groups dependencies)
// Operations are numbered in creation order and may only depend on earlier ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/runtime/op.h"
#include "sw/runtime/ring_phase.h"

namespace hxemu::sw {

// Ops are either stored one by one (put, recv, reduce, copy, join) or stand for themselves as a rule
// (ring_phase: the thousands of ops of one phase of a pipelined ring, sw/runtime/ring_phase.h).
// Both kinds number in one sequence and read the same through op(i) and for_each_dep(i).
class Program {
 public:
  int put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len,
          std::uint16_t tag, std::initializer_list<int> deps = {});
  int recv(int rail, int peer, std::uint16_t tag, std::initializer_list<int> deps = {});
  int reduce(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
             std::initializer_list<int> deps = {});
  int copy(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
           std::initializer_list<int> deps = {});
  int join(const std::vector<int>& deps);
  // Appends the ops of one ring phase (its gate is set to the program's); returns the id of its
  // last op, the join of the phase.
  int ring_phase(RingPhase phase);
  // Adds a dependency to the last created op (for dependency lists built in a loop); the last op
  // must be a stored one.
  void depend_last_on(int dep);
  // Every op created from now on also depends on `gate` (-1: none): sequences phases built by code
  // that does not know about each other (e.g. the collectives of a training step).
  void set_gate(int gate) { gate_ = gate; }
  int gate() const { return gate_; }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Index of the last op (-1 when empty): what a following phase waits for.
  int last() const { return size_ - 1; }

  // Op i, stored or computed.
  Op op(int i) const;
  // Calls f(id) for each dependency of op i, with multiplicity.
  template <class F>
  void for_each_dep(int i, F&& f) const;
  // How many dependencies op i has.
  std::uint32_t deps_of(int i) const;
  // The ring phase op i belongs to and that phase's first op id, or nullptr for a stored op.
  const RingPhase* phase_of(int i, int* base) const;
  // The ring phases, with the id of each one's first op.
  const std::vector<RingPhase>& phases() const { return phases_; }
  int phase_base(std::size_t k) const { return phase_base_[k]; }

  // The stored ops and their dependency lists (an op's run starts at its first_dep and ends at the
  // next stored op's), for tests of the compact representation.
  const std::vector<Op>& stored_ops() const { return ops_; }
  const std::vector<int>& dep_list() const { return deps_; }

  // Releases spare capacity (the op and dependency lists grow by a quarter at a time while built).
  void shrink_to_fit() {
    ops_.shrink_to_fit();
    deps_.shrink_to_fit();
    runs_.shrink_to_fit();
  }

 private:
  // A run of consecutive ids: stored ops from ops_[first_stored], or one ring phase.
  struct Run {
    int first;          // id of its first op
    int phase;          // index into phases_, or -1: stored ops
    int first_stored;   // index into ops_ of the run's first op (stored runs)
  };
  template <class Deps>
  int add(Op op, const Deps& deps);
  int engine_op(OpKind kind, int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
                std::initializer_list<int> deps);
  const Run& run_of(int i) const;
  std::uint32_t stored_deps_of(std::size_t e) const {
    const std::size_t end = e + 1 < ops_.size() ? ops_[e + 1].first_dep : deps_.size();
    return static_cast<std::uint32_t>(end) - ops_[e].first_dep;
  }
  std::vector<Op> ops_;
  std::vector<int> deps_;
  std::vector<Run> runs_;
  std::vector<RingPhase> phases_;
  std::vector<int> phase_base_;
  int size_ = 0;
  int gate_ = -1;
};

template <class F>
void Program::for_each_dep(int i, F&& f) const {
  const Run& r = run_of(i);
  if (r.phase >= 0) {
    phases_[static_cast<std::size_t>(r.phase)].for_each_dep(static_cast<std::uint32_t>(i - r.first), r.first, f);
    return;
  }
  const std::size_t e = static_cast<std::size_t>(r.first_stored + (i - r.first));
  const std::uint32_t first = ops_[e].first_dep, n = stored_deps_of(e);
  for (std::uint32_t k = 0; k < n; ++k) f(deps_[first + k]);
}

}  // namespace hxemu::sw
