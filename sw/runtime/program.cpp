#include "sw/runtime/program.h"

#include <stdexcept>

namespace hxemu::sw {

namespace {
// Grows a vector by a quarter instead of doubling: schedules of large systems hold tens of millions
// of ops in all, and doubling leaves up to half of that memory unused.
template <class T>
void grow(std::vector<T>& v, std::size_t extra) {
  if (v.size() + extra > v.capacity()) v.reserve(v.size() + extra + v.size() / 4 + 16);
}
}  // namespace

template <class Deps>
int Program::add(Op op, const Deps& deps) {
  const int id = static_cast<int>(ops_.size());
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
  ops_.push_back(op);
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
  if (ops_.empty() || dep < 0) return;
  // The last op's dependencies run to the end of deps_: appending one adds it to them.
  if (dep >= static_cast<int>(ops_.size()) - 1) throw std::logic_error("Program: forward dependency");
  deps_.push_back(dep);
}

}  // namespace hxemu::sw
