// ScheduleBuilder: where a collective's schedule is built -- one Program per node -- with the
// buffer layout every algorithm shares and message helpers that create the put at the sender and
// the matching recv at the receiver together (one tag, unique per rail and ordered pair).
//
// Host-memory layout of every node (bytes):
//   [data, data + bytes)        the data buffer: input, and the result in place (allreduce, RS, AG,
//                               broadcast); the send buffer for alltoall
//   [scratch, scratch + bytes)  where reductions receive partial results; alltoall's receive buffer
//   [scratch + scratch_bank, ...)  a second scratch bank, for the second phase of two-phase
//                               algorithms (a neighbour may start phase 2 while this node still
//                               reduces phase 1 out of the first bank)
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "sw/runtime/program.h"

namespace hxemu::sw {

struct BufferLayout {
  std::uint32_t data = 0;
  std::uint32_t scratch = 0;
  std::uint32_t scratch_bank = 0;   // offset of the second scratch bank from `scratch`
  std::uint32_t bytes = 0;          // of each buffer
  std::uint32_t memory_bytes = 0;   // host memory a node needs
  std::uint32_t banks = 2;          // scratch banks, each scratch_bank bytes from the previous
  static BufferLayout for_bytes(std::uint64_t bytes);
  // `banks` scratch banks of at least `bank_bytes` each (the hierarchical algorithms give every
  // reduction stage its own, sw/collectives/hierarchical.h).
  static BufferLayout with_banks(std::uint64_t bytes, int banks, std::uint64_t bank_bytes);
};

// Splits `count_elems` 4-byte elements into `parts` nearly equal consecutive spans (the first
// count % parts get one more), starting at element `first`.
std::vector<Span> split_elems(std::uint64_t first, std::uint64_t count_elems, int parts);
// Splits a span into chunks of at most `chunk` bytes (element aligned); an empty span is one
// empty chunk.
std::vector<Span> chunk_span(const Span& s, std::uint32_t chunk);

class ScheduleBuilder {
 public:
  ScheduleBuilder(int nodes, BufferLayout layout) : programs_(nodes), layout_(layout) {}

  Program& at(int node) { return programs_[node]; }
  const BufferLayout& layout() const { return layout_; }
  std::vector<Program>& programs() { return programs_; }

  struct Message {
    int put = -1;    // op id at the sender
    int recv = -1;   // op id at the receiver
  };
  // A put of `len` bytes from src's address `from` to dst's address `to` on `rail`, after
  // `put_deps` at the sender; the receiver's recv has `recv_deps`.
  Message send(int rail, int src, int dst, std::uint32_t from, std::uint32_t to, std::uint32_t len,
               std::initializer_list<int> put_deps = {}, std::initializer_list<int> recv_deps = {});
  // The tags of the next `count` messages from src to dst on `rail`, as `count` sends would take
  // them: returns the first (they wrap at 2^16 like send's).
  std::uint16_t reserve_tags(int rail, int src, int dst, std::uint32_t count);

  // Ring phases as rules (sw/runtime/ring_phase.h, the default) or as stored ops: both give the
  // same ops; stored ones are for tests that compare the two.
  void set_compact_rings(bool on) { compact_rings_ = on; }
  bool compact_rings() const { return compact_rings_; }

 private:
  std::uint16_t next_tag(int rail, int src, int dst);
  std::vector<Program> programs_;
  BufferLayout layout_;
  std::map<std::tuple<int, int, int>, std::uint16_t> tags_;
  bool compact_rings_ = true;
};

}  // namespace hxemu::sw
