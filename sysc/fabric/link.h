// Link: one direction of a physical connection between two blocks -- flits forward, credits back --
// as C++ delay lines (no SystemC signals on the per-cycle path).
//
// Timing (cycle = one harness step, in which every block reads its inputs and ticks once):
//   a flit a block outputs after its tick in cycle t is on the receiver's input in cycle t + 1 + L;
//   a credit likewise. L = 0 is a plain wire from the sender's output register.
// Each ring has at least 2 (L + 1) slots, so the slot read in cycle t is never one written in
// cycles t .. t + L, whatever order the blocks are stepped in and even when the sender runs up to
// L + 1 cycles ahead of the receiver (a windowed harness, sysc/harness/parallel_harness.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "sysc/fabric/flit.h"

namespace hxemu::sysc {

// One cache line holds everything a step reads before it knows whether anything arrives: the four
// counters, the ring pointers and the mask (a large system touches every link every cycle; the
// rings' slots are read only when something is in flight).
class alignas(64) Link {
 public:
  explicit Link(int latency = 0);
  // Movable for containers (not while in use by a harness). A moved vector keeps its buffer, so
  // the ring pointers stay valid.
  Link(Link&& o) noexcept
      : sent_(o.sent_.load()), taken_(o.taken_.load()), credits_sent_(o.credits_sent_.load()),
        credits_taken_(o.credits_taken_.load()), flits_(o.flits_), credits_(o.credits_),
        mask_(o.mask_), latency_(o.latency_), flit_store_(std::move(o.flit_store_)),
        credit_store_(std::move(o.credit_store_)) {}
  Link& operator=(Link&&) = delete;

  int latency() const { return latency_; }
  // The rings (fixed for the link's life) and their slot mask, for a harness's prefetch hints.
  const Flit* flit_ring() const { return flits_; }
  const Credit* credit_ring() const { return credits_; }
  std::uint64_t ring_mask() const { return mask_; }

  // Sender side, after its tick in cycle `now`.
  void send_flit(std::uint64_t now, const Flit& f) {
    Flit& slot = flits_[(now + 1 + latency_) & mask_];
    slot = f;
    bump(sent_);
  }
  void send_credit(std::uint64_t now, Credit c) {
    credits_[(now + 1 + latency_) & mask_] = c;
    if (c.valid) bump(credits_sent_);
  }

  // Anything sent and not yet taken, from the counters alone (no ring slot read: on a large system
  // a slot is a cache miss per link and cycle). False means has_flit() / has_credit() are false
  // for every cycle up to the next send. Safe from the receiver's thread while the sender's thread
  // runs: a send made in the current lookahead window arrives after it, and the window barrier
  // orders every earlier send before this read.
  bool flits_pending() const {
    return sent_.load(std::memory_order_relaxed) != taken_.load(std::memory_order_relaxed);
  }
  bool credits_pending() const {
    return credits_sent_.load(std::memory_order_relaxed) != credits_taken_.load(std::memory_order_relaxed);
  }
  // How many flits / valid credits were sent and not yet taken (same rules as the two above).
  std::uint64_t flits_waiting() const {
    return sent_.load(std::memory_order_relaxed) - taken_.load(std::memory_order_relaxed);
  }
  std::uint64_t credits_waiting() const {
    return credits_sent_.load(std::memory_order_relaxed) - credits_taken_.load(std::memory_order_relaxed);
  }

  // Receiver side, before its tick in cycle `now`. The slot is consumed (made invalid).
  bool has_flit(std::uint64_t now) const { return flits_[now & mask_].valid; }
  Flit take_flit(std::uint64_t now) {
    Flit& slot = flits_[now & mask_];
    Flit f = slot;
    slot.valid = false;
    bump(taken_);
    return f;
  }
  // Pointer to the flit arriving now, or nullptr. Call consume_flit() after use.
  const Flit* peek_flit(std::uint64_t now) const {
    const Flit& slot = slot_flit(now);
    return slot.valid ? &slot : nullptr;
  }
  // The slot of cycle `now`, whatever it holds (a flit when has_flit says so).
  const Flit& slot_flit(std::uint64_t now) const { return flits_[now & mask_]; }
  void consume_flit(std::uint64_t now) {
    flits_[now & mask_].valid = false;
    bump(taken_);
  }
  bool has_credit(std::uint64_t now) const { return credits_[now & mask_].valid; }

  // What arrives in cycle `now`, asking the counters first: they share the link's first cache
  // line, while a ring slot is a line of its own, read only when something is in flight.
  const Flit* arriving_flit(std::uint64_t now) const {
    return flits_pending() ? peek_flit(now) : nullptr;
  }
  bool credit_arriving(std::uint64_t now) const { return credits_pending() && has_credit(now); }
  Credit take_credit(std::uint64_t now) {
    Credit& slot = credits_[now & mask_];
    Credit c = slot;
    if (slot.valid) bump(credits_taken_);
    slot.valid = false;
    return c;
  }

  // The halves of a link whose sender and receiver run in different processes (sysc/dist/): the
  // sender's side hands over what was sent to arrive in cycle `arrival` (and forgets it), the
  // receiver's side puts it in place.
  bool pull_flit(std::uint64_t arrival, Flit& f) {
    Flit& slot = flits_[arrival & mask_];
    if (!slot.valid) return false;
    f = slot;
    slot.valid = false;
    bump(taken_);
    return true;
  }
  void put_flit(std::uint64_t arrival, const Flit& f) {
    flits_[arrival & mask_] = f;
    bump(sent_);
  }
  bool pull_credit(std::uint64_t arrival, Credit& c) {
    Credit& slot = credits_[arrival & mask_];
    if (!slot.valid) return false;
    c = slot;
    slot.valid = false;
    bump(credits_taken_);
    return true;
  }
  void put_credit(std::uint64_t arrival, Credit c) {
    credits_[arrival & mask_] = c;
    if (c.valid) bump(credits_sent_);
  }

  // Flits sent and not yet taken, read between harness runs: the sender's and the receiver's
  // counts are each written by the one thread stepping that end, and a run's last barrier orders
  // them before this read.
  int flits_in_flight() const { return static_cast<int>(sent_.load() - taken_.load()); }

 private:
  // Each counter has one writer (the thread stepping that end, or a rank exchange between
  // windows): a relaxed load and store, no read-modify-write on the per-flit path.
  static void bump(std::atomic<std::uint64_t>& c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  // The first cache line (see the class comment).
  std::atomic<std::uint64_t> sent_{0};    // written by the sender's side (and a rank exchange's put)
  std::atomic<std::uint64_t> taken_{0};   // written by the receiver's side (and a rank exchange's pull)
  std::atomic<std::uint64_t> credits_sent_{0};
  std::atomic<std::uint64_t> credits_taken_{0};
  Flit* flits_ = nullptr;                 // flit_store_'s slots
  Credit* credits_ = nullptr;             // credit_store_'s slots
  std::uint64_t mask_ = 0;                // slots - 1 (a power of two)
  int latency_;
  // Owners of the rings (not read on the per-cycle path).
  std::vector<Flit> flit_store_;
  std::vector<Credit> credit_store_;
};

}  // namespace hxemu::sysc
