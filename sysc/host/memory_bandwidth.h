// MemoryBandwidth: the bytes per cycle one accelerator's host memory can move, shared by everything
// that uses it -- the DMA ports of its NICs (a word read or written) and its reduction engines --
// so a run shows when memory, not the network, limits a collective.
//
// A token bucket refilled at `bytes_per_cycle`, banking at most one cycle's worth. A DMA word may
// start in a cycle when the bucket is not in debt and then costs its bytes (the bucket may go into
// debt by one access, so a rate below a word per cycle still moves words, at that rate). An engine
// job takes a steady share of the rate for its whole duration (reserve/release): the rate left for
// DMA shrinks while it runs, and a job that wants more than is left runs longer.
//
// Deterministic whatever order a node's NICs and host are stepped in within a cycle: refills are
// computed from cycle numbers, a reservation changes the rate only from its cycle on, and whether a
// DMA word may start depends on the bucket alone. Cycles may be skipped (lazy refill).
#pragma once

#include <cstdint>

namespace hxemu::sysc {

class MemoryBandwidth {
 public:
  explicit MemoryBandwidth(double bytes_per_cycle);
  double bytes_per_cycle() const { return rate_; }

  // DMA side.
  bool can_start(std::uint64_t now);
  void spend(std::uint64_t now, std::uint32_t bytes);

  // Engine side: reserves up to `wanted` bytes per cycle (at least a sixteenth of the rate, so a
  // job always progresses) from `now`; returns the rate reserved. release() gives it back.
  double reserve(std::uint64_t now, double wanted);
  void release(std::uint64_t now, double rate);

  // Cycles in which a DMA word wanted to start and the bucket was in debt.
  std::uint64_t dma_stalls() const { return stalls_; }

 private:
  void settle(std::uint64_t now);
  double rate_;
  double reserved_ = 0;
  double tokens_;
  std::uint64_t last_ = 0;
  std::uint64_t stalls_ = 0;
};

}  // namespace hxemu::sysc
