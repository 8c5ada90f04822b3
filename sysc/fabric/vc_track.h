// VcTrack: one VC of a directed link as its sender sees it -- flits sent minus credits returned
// (flits on the link or in the receiver's buffer), and the packets those flits belong to, oldest
// first (credits come back in the order flits left the receiver's VC buffer, so the oldest is the
// one at its front). Network keeps one per VC of every link (network.h, vc_state); the watchdog's
// wait-for report and the fault logs read it.
//
// Kept as two running counts and one record per packet head: a body flit or a credit only counts,
// and a packet's own counts are worked out from the counts at its head and at the next head.
// Records of packets that are through (every flit credited, tail sent) are skipped by the readers
// and dropped when a head finds the record ring full, so a sender touches the ring's storage to
// write a record, and reads it only every few packets.
//
// 32 bytes, the counts beside the ring's pointer and indices: everything a flit or a credit
// touches of a VC sits in its record, and a link's VCs in consecutive records (the harness
// fetches them ahead, Network::prefetch_block). The ring is allocated at the first head.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace hxemu::sysc {

// A packet on a VC as its sender sees it.
struct VcPacket {
  int src = -1, dst = -1;
  int rail = 0;               // the head's rail field
  std::uint64_t key = 0;      // header bits [64..127] of the head (the testbench's packet id)
  int flits = 0;              // of its flits not yet credited back
  int sent = 0;               // of its flits sent on the link so far
  bool tail_sent = false;
};

class VcTrack {
 public:
  // The fields of a head flit kept per packet.
  struct Head {
    std::uint64_t key = 0;
    std::int32_t src = -1, dst = -1;
    std::int32_t rail = 0;
  };

  VcTrack() : sent_(0), tail_sent_(1), credited_(0), log2cap_(0) {}

  // A packet with these head fields, before any of its flits is counted.
  static VcPacket packet_of(const Head& h) {
    VcPacket p;
    p.src = h.src;
    p.dst = h.dst;
    p.rail = h.rail;
    p.key = h.key;
    return p;
  }

  // ---- the sender's events ----------------------------------------------------------------------
  // A head flit sent: it starts a packet with the head's fields.
  void send_head(const Head& h, bool tail) {
    if (count_ == capacity()) make_room();
    Record& r = ring_[(first_ + count_) & (capacity() - 1)];
    r.start = sent_;
    r.head = h;
    ++count_;
    send(tail);
  }
  // A body or tail flit sent (after send_head for a head).
  void send(bool tail) {
    ++sent_;
    tail_sent_ = tail;
  }
  void credit() { ++credited_; }

  // ---- what a reader sees -----------------------------------------------------------------------
  int occupancy() const { return static_cast<int>(sent_ - credited_); }
  // The VC is owned by a packet whose tail has not been sent.
  bool open() const { return !tail_sent_ && count_ != 0; }
  // Packets with a flit not yet credited back or a tail not yet sent, oldest first.
  std::size_t packets() const { return count_ - first_live(); }
  std::optional<VcPacket> front() const {
    const std::size_t i = first_live();
    if (i == count_) return std::nullopt;
    return packet(i);
  }
  std::optional<VcPacket> back() const {
    if (packets() == 0) return std::nullopt;
    return packet(count_ - 1);
  }
  // The i-th record kept (0: the oldest) as a packet.
  VcPacket packet(std::size_t i) const {
    const Record& r = at(i);
    const bool last = i + 1 == count_;
    const std::uint64_t end = last ? static_cast<std::uint64_t>(sent_) : at(i + 1).start;
    VcPacket p = packet_of(r.head);
    p.sent = static_cast<int>(end - r.start);
    const std::uint64_t credited = credited_;
    const std::uint64_t done = credited <= r.start ? 0 : std::min(credited, end) - r.start;
    p.flits = static_cast<int>(end - r.start - done);
    p.tail_sent = !last || tail_sent_;
    return p;
  }
  // Records kept (through or not).
  std::size_t records() const { return count_; }
  // Records of packets that are through (all flits credited, tail sent) at the front.
  std::size_t first_live() const {
    std::size_t i = 0;
    while (i < count_ && done(i)) ++i;
    return i;
  }
  bool done(std::size_t i) const {
    const bool last = i + 1 == count_;
    return last ? tail_sent_ && credited_ >= sent_ : credited_ >= at(i + 1).start;
  }

 private:
  struct Record {
    std::uint64_t start = 0;   // sent_ when the head was sent
    Head head;
  };
  std::size_t capacity() const { return ring_ ? std::size_t{1} << log2cap_ : 0; }
  const Record& at(std::size_t i) const { return ring_[(first_ + i) & (capacity() - 1)]; }
  // The ring is full: drop the records of packets that are through; if none is, double it.
  void make_room() {
    while (count_ != 0 && done(0)) {
      first_ = static_cast<std::uint32_t>((first_ + 1) & (capacity() - 1));
      --count_;
    }
    if (count_ != capacity()) return;
    const unsigned log2 = ring_ ? static_cast<unsigned>(log2cap_) + 1u : 2u;   // first: 4 records
    std::unique_ptr<Record[]> bigger(new Record[std::size_t{1} << log2]);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = at(i);
    ring_ = std::move(bigger);
    log2cap_ = log2;
    first_ = 0;
  }

  std::uint64_t sent_ : 63;       // flits sent on this VC
  std::uint64_t tail_sent_ : 1;   // the last flit sent was a tail (no packet owns the VC)
  std::uint64_t credited_ : 58;   // credits returned for them (2^58: far beyond any run)
  std::uint64_t log2cap_ : 6;     // the ring holds 1 << log2cap_ records (when allocated)
  std::unique_ptr<Record[]> ring_;
  std::uint32_t first_ = 0;       // the oldest record's slot
  std::uint32_t count_ = 0;       // records kept
};
static_assert(sizeof(VcTrack) == 32, "a VC's record is two per cache line");

}  // namespace hxemu::sysc
