#include "sw/runtime/program.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hxemu::sw {

namespace {
// Grows a vector by a quarter instead of doubling: schedules of large systems hold tens of millions
// of ops in all, and doubling leaves up to half of that memory unused.
template <class T>
void grow(std::vector<T>& v, std::size_t extra) {
  if (v.size() + extra > v.capacity()) v.reserve(v.size() + extra + v.size() / 4 + 16);
}
}  // namespace

const Program::Run& Program::run_of(int i) const {
  if (i < 0 || i >= size_) throw std::out_of_range("Program: no op " + std::to_string(i));
  // The last run holds the highest ids; most lookups of a program being built land there.
  if (runs_.back().first <= i) return runs_.back();
  auto it = std::upper_bound(runs_.begin(), runs_.end(), i,
                             [](int id, const Run& r) { return id < r.first; });
  return *(it - 1);
}

Op Program::op(int i) const {
  const Run& r = run_of(i);
  if (r.phase >= 0) return phases_[static_cast<std::size_t>(r.phase)].op(static_cast<std::uint32_t>(i - r.first));
  return ops_[static_cast<std::size_t>(r.first_stored + (i - r.first))];
}

std::uint32_t Program::deps_of(int i) const {
  const Run& r = run_of(i);
  if (r.phase >= 0) return phases_[static_cast<std::size_t>(r.phase)].deps_of(static_cast<std::uint32_t>(i - r.first));
  return stored_deps_of(static_cast<std::size_t>(r.first_stored + (i - r.first)));
}

const RingPhase* Program::phase_of(int i, int* base) const {
  const Run& r = run_of(i);
  if (r.phase < 0) return nullptr;
  if (base) *base = r.first;
  return &phases_[static_cast<std::size_t>(r.phase)];
}

int Program::ring_phase(RingPhase phase) {
  if (phase.n < 2 || phase.pos < 0 || phase.pos >= phase.n || !phase.shape ||
      phase.shape->chunks < 1 || static_cast<int>(phase.shape->segments.size()) != phase.n ||
      static_cast<int>(phase.shape->owner.size()) != phase.n ||
      (phase.kind == RingPhase::Kind::kAllgather &&
       static_cast<int>(phase.ready.size()) != phase.shape->chunks)) {
    throw std::logic_error("Program::ring_phase: inconsistent ring phase");
  }
  for (int d : {phase.start, gate_}) {
    if (d >= size_) throw std::logic_error("Program: an op may only depend on earlier ops");
  }
  for (int d : phase.ready) {
    if (d >= size_) throw std::logic_error("Program: an op may only depend on earlier ops");
  }
  phase.gate = gate_;
  const int first = size_;
  runs_.push_back({first, static_cast<int>(phases_.size()), -1});
  phase_base_.push_back(first);
  size_ += static_cast<int>(phase.size());
  phases_.push_back(std::move(phase));
  return size_ - 1;
}

template <class Deps>
int Program::add(Op op, const Deps& deps) {
  const int id = size_;
  grow(ops_, 1);
  grow(deps_, deps.size() + 1);
  for (int d : deps) {
    if (d >= id) throw std::logic_error("Program: an op may only depend on earlier ops");
  }
  op.first_dep = static_cast<std::uint32_t>(deps_.size());
  for (int d : deps) {
    if (d >= 0) deps_.push_back(d);   // d < 0: a "no dependency" placeholder
  }
  if (gate_ >= 0) deps_.push_back(gate_);
  if (runs_.empty() || runs_.back().phase >= 0) {
    runs_.push_back({id, -1, static_cast<int>(ops_.size())});
  }
  ops_.push_back(op);
  ++size_;
  return id;
}

int Program::put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len,
                 std::uint16_t tag, std::initializer_list<int> deps) {
  Op op;
  op.kind = OpKind::kPut;
  op.rail = static_cast<std::uint8_t>(rail);
  op.peer = peer;
  op.src = src;
  op.dst = dst;
  op.len = len;
  op.tag = tag;
  return add(op, deps);
}

int Program::recv(int rail, int peer, std::uint16_t tag, std::initializer_list<int> deps) {
  Op op;
  op.kind = OpKind::kRecv;
  op.rail = static_cast<std::uint8_t>(rail);
  op.peer = peer;
  op.tag = tag;
  return add(op, deps);
}

int Program::engine_op(OpKind kind, int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
                       std::initializer_list<int> deps) {
  Op op;
  op.kind = kind;
  op.rail = static_cast<std::uint8_t>(rail);
  op.dst = dst;
  op.src = src;
  op.len = len;
  return add(op, deps);
}

int Program::reduce(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
                    std::initializer_list<int> deps) {
  return engine_op(OpKind::kReduce, rail, dst, src, len, deps);
}

int Program::copy(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
                  std::initializer_list<int> deps) {
  return engine_op(OpKind::kCopy, rail, dst, src, len, deps);
}

int Program::join(const std::vector<int>& deps) {
  Op op;
  op.kind = OpKind::kJoin;
  return add(op, deps);
}

void Program::depend_last_on(int dep) {
  if (size_ == 0 || dep < 0) return;
  if (runs_.back().phase >= 0) throw std::logic_error("Program: depend_last_on after a ring phase");
  // The last op's dependencies run to the end of deps_: appending one adds it to them.
  if (dep >= size_ - 1) throw std::logic_error("Program: forward dependency");
  deps_.push_back(dep);
}

}  // namespace hxemu::sw
