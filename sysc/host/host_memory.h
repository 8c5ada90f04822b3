// HostMemory: the C++ model of an accelerator's host memory behind a NIC's DMA ports
// (docs/nic-and-host-memory.md). A byte-addressable memory of a fixed size, allocated on demand in
// pages of kPageBytes: a page is allocated when a byte of it is first written (a nonzero fill or a
// DMA write with at least one byte enabled counts); reads of never-written bytes return zeros. The
// page table is one pointer per page of the memory's size, so it is bounded by that size (8 bytes per
// 4 KiB). The DMA side moves one W-bit word per
// port per cycle: it accepts one read request and one write per cycle and returns read data in request
// order, one word per cycle, `read_latency` cycles after the request was accepted.
//
// Byte order is little-endian: byte k of a word is bits [8k+7:8k], i.e. byte k of 32-bit word k/4.
// Addresses on the DMA side are word aligned (multiples of word_bits/8); an unaligned or
// out-of-range DMA access throws (it is a NIC bug, not a condition to model).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sysc/fabric/flit.h"
#include "sysc/fabric/grow_ring.h"
#include "sysc/host/memory_bandwidth.h"

namespace hxemu::sysc {

// What a NIC drives toward host memory in one cycle (its registered DMA outputs).
struct DmaOut {
  bool rd_valid = false;
  std::uint32_t rd_addr = 0;
  bool wr_valid = false;
  std::uint32_t wr_addr = 0;
  std::uint64_t wr_be = 0;   // bit k: write byte k of the word
  std::array<std::uint32_t, kMaxFlitWords> wr_data{};
};

// What host memory drives toward the NIC in the same cycle.
struct DmaIn {
  bool rd_ready = true;    // a read request offered this cycle is accepted
  bool wr_ready = true;    // a write offered this cycle is accepted
  bool rd_valid = false;   // read data (always accepted by the NIC)
  std::array<std::uint32_t, kMaxFlitWords> rd_data{};
};

class HostMemory {
 public:
  static constexpr std::size_t kPageBytes = 4096;   // a word whose size does not divide it may straddle two

  // `bytes` of memory (reads as zeros until written); word_bits: the NIC's W (a multiple of 32, at most
  // kMaxFlitBits); read_latency >= 1: cycles from an accepted request to its data.
  HostMemory(std::size_t bytes, int word_bits = 256, int read_latency = 1);
  // Another DMA port onto the same bytes as `other` (an accelerator with one NIC per network port
  // has one memory and several DMA engines); it has its own read pipeline and statistics.
  HostMemory(const HostMemory& other, int read_latency);

  std::size_t size() const { return mem_->size; }
  int word_bits() const { return word_bits_; }
  int word_bytes() const { return word_bits_ / 8; }
  int read_latency() const { return latency_; }

  // ---- host side: untimed byte access (ranges past the end throw std::out_of_range) ----------
  void write(std::uint32_t addr, const void* src, std::size_t n);
  void read(std::uint32_t addr, void* dst, std::size_t n) const;
  void fill(std::uint32_t addr, std::size_t n, std::uint8_t value);
  // Convenience for tests and checks: n bytes from addr as a vector.
  std::vector<std::uint8_t> bytes(std::uint32_t addr, std::size_t n) const;

  // Pages allocated so far (shared by every DMA port onto the same memory), and their bytes.
  std::size_t pages_allocated() const { return mem_->allocated; }
  std::size_t resident_bytes() const { return mem_->allocated * kPageBytes; }

  // ---- bandwidth shared by every port and the node's engines (sysc/host/memory_bandwidth.h) ------
  // 0: unlimited (the default). Set on any port, it applies to all ports onto the same memory.
  void limit_bandwidth(double bytes_per_cycle);
  MemoryBandwidth* bandwidth() const { return mem_->bandwidth.get(); }

  // ---- DMA side ------------------------------------------------------------------------------
  // Back-pressure levels for the coming cycles (default: always ready).
  void set_read_ready(bool r) { read_ready_ = r; }
  void set_write_ready(bool r) { write_ready_ = r; }

  // One cycle: `out` is what the NIC drives in cycle `now` (read before its clock edge); returns
  // what the memory drives in the same cycle. Handshakes (valid && ready) take effect now: a write
  // lands, a read request is queued (its data is a snapshot taken now, presented in cycle
  // now + read_latency), the response presented now is retired. Cycles may be skipped while the
  // NIC offers nothing and up to the cycle the oldest read in flight is due (next_read_due());
  // `now` must not decrease.
  DmaIn cycle(std::uint64_t now, const DmaOut& out);

  // Reads accepted and not yet answered, and the cycle the oldest is presented in (UINT64_MAX:
  // none).
  std::size_t reads_in_flight() const { return pending_.size(); }
  std::uint64_t next_read_due() const { return pending_.empty() ? UINT64_MAX : pending_.front().due; }

  // ---- statistics ----------------------------------------------------------------------------
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }
  std::uint64_t bytes_written() const { return bytes_written_; }
  // Cycle of the first accepted read / last accepted write since construction or clear_stats()
  // (UINT64_MAX / 0 when none).
  std::uint64_t first_read_cycle() const { return first_read_; }
  std::uint64_t last_write_cycle() const { return last_write_; }
  void clear_stats();

 private:
  struct Pending {
    std::uint64_t due;
    std::array<std::uint32_t, kMaxFlitWords> data;
  };
  // The storage every port onto one memory shares: a page table of size / kPageBytes (rounded up)
  // entries, null until the page is first written.
  struct Pages {
    std::size_t size = 0;
    std::size_t allocated = 0;
    std::vector<std::unique_ptr<std::uint8_t[]>> table;
    std::unique_ptr<MemoryBandwidth> bandwidth;   // null: unlimited
    const std::uint8_t* find(std::size_t page) const { return table[page].get(); }
    std::uint8_t* get(std::size_t page);   // allocates (zero filled) on first use
  };
  void check_word(std::uint32_t addr, const char* what) const;
  void check_range(std::uint32_t addr, std::size_t n, const char* what) const;

  std::shared_ptr<Pages> mem_;
  int word_bits_;
  int latency_;
  bool read_ready_ = true;
  bool write_ready_ = true;
  GrowRing<Pending> pending_;   // reads in flight, oldest first
  std::uint64_t reads_ = 0;
  std::uint64_t writes_ = 0;
  std::uint64_t bytes_written_ = 0;
  std::uint64_t first_read_ = UINT64_MAX;
  std::uint64_t last_write_ = 0;
};

}  // namespace hxemu::sysc
