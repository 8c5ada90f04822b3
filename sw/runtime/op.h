// Op: one operation of a node's Program (sw/runtime/program.h), as the host runs it; Span: the
// byte range of a buffer an operation or a schedule works on.
#pragma once

#include <cstdint>

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

// An element range [first, first + count) of a node's buffers, in bytes.
struct Span {
  std::uint32_t offset = 0;   // bytes from the start of a buffer
  std::uint32_t len = 0;      // bytes
};

}  // namespace hxemu::sw
