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

namespace hxemu::sw {

enum class OpKind : std::uint8_t { kPut, kRecv, kReduce, kCopy, kJoin };
enum class DataType : std::uint8_t { kInt32, kFloat32 };

// 24 bytes: a 1,024-node ring collective holds ~20,000 of these per node. An op's dependencies are
// dep_list()[first_dep, next op's first_dep) (the last op's run to the end): Program::deps_of.
struct Op {
  OpKind kind = OpKind::kJoin;
  std::uint8_t rail = 0;
  std::uint16_t tag = 0;
  int peer = -1;                 // put: destination node; recv: source node
  std::uint32_t src = 0, dst = 0, len = 0;   // byte addresses / length
  std::uint32_t first_dep = 0;   // start of its range in Program::dep_list
};
static_assert(sizeof(Op) == 24, "Op layout");

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
  // Adds a dependency to the last created op (for dependency lists built in a loop).
  void depend_last_on(int dep);
  // Every op created from now on also depends on `gate` (-1: none): sequences phases built by code
  // that does not know about each other (e.g. the collectives of a training step).
  void set_gate(int gate) { gate_ = gate; }
  int gate() const { return gate_; }

  const std::vector<Op>& ops() const { return ops_; }
  const std::vector<int>& dep_list() const { return deps_; }
  // How many dependencies op i has (its range of dep_list() starts at ops()[i].first_dep).
  std::uint32_t deps_of(std::size_t i) const {
    const std::size_t end = i + 1 < ops_.size() ? ops_[i + 1].first_dep : deps_.size();
    return static_cast<std::uint32_t>(end) - ops_[i].first_dep;
  }
  int size() const { return static_cast<int>(ops_.size()); }
  bool empty() const { return ops_.empty(); }
  // Index of the last op (-1 when empty): what a following phase waits for.
  int last() const { return static_cast<int>(ops_.size()) - 1; }
  // Releases spare capacity (the op and dependency lists grow by a quarter at a time while built).
  void shrink_to_fit() {
    ops_.shrink_to_fit();
    deps_.shrink_to_fit();
  }

 private:
  template <class Deps>
  int add(Op op, const Deps& deps);
  int engine_op(OpKind kind, int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len,
                std::initializer_list<int> deps);
  std::vector<Op> ops_;
  std::vector<int> deps_;
  int gate_ = -1;
};

}  // namespace hxemu::sw
