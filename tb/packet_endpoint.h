// PacketEndpoint: a C++ traffic source and sink attached to a router's local port (or a switch
// port), in place of a NIC. It is a LinkBlock, so the network steps it like any verilated block.
//
// Source: an unlimited queue of packets, each starting no earlier than its creation cycle (so a
// generator may queue a stretch of future traffic at once); one packet at a time, one flit per
// cycle, on an injection VC with a credit (round robin among the allowed VCs), never without one.
// Sink: takes one flit per cycle and returns its credit at once -- an ejection port running at link
// rate -- unless stalled, in which case arriving flits wait in a buffer of `eject_depth` per VC
// (overflow is a fault: the network broke the credit protocol). Every flit is checked on arrival
// (payload intact, packet contiguous on its VC, addressed to this node) and every packet is reported
// to the observer when its tail arrives.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sysc/fabric/grow_ring.h"
#include "sysc/fabric/link_block.h"
#include "tb/packet_format.h"

namespace hxemu::tb {

struct Delivery {
  std::uint64_t id = 0;
  int src = 0;
  int dst = 0;             // the node that received it
  int header_dst = 0;      // the destination its header names
  int flits = 0;
  int vc = 0;              // VC it arrived on
  std::uint64_t created = 0;
  std::uint64_t head_arrival = 0;
  std::uint64_t tail_arrival = 0;
  bool intact = true;      // every flit's payload as sent, flits in order and contiguous
};

class EndpointObserver {
 public:
  virtual ~EndpointObserver() = default;
  // The head of packet `id` is on the source's output link in cycle `cycle`.
  virtual void injected(int node, std::uint64_t id, std::uint64_t cycle) = 0;
  virtual void delivered(const Delivery& d) = 0;
  virtual void fault(int node, const std::string& what) = 0;
};

struct EndpointConfig {
  int node = 0;
  int vcs = 2;
  std::uint32_t inject_vcs = 0x1;   // VCs the source may use (the router's class-0 VCs)
  int inject_credits = 8;           // router input buffer depth per VC
  int eject_depth = 8;              // this sink's buffer per VC (the router's credits toward it)
  int flit_bits = 256;
};

class PacketEndpoint final : public sysc::LinkBlock {
 public:
  PacketEndpoint(const EndpointConfig& cfg, const std::uint64_t* clock, EndpointObserver* obs);

  // Packets must be queued in creation order.
  void enqueue(const PacketSpec& p) { queue_.push_back(p); }
  std::size_t queued() const { return queue_.size() + (cur_flit_ >= 0 ? 1 : 0); }
  // Removes the packets that have not started (a saturated source's backlog) and appends their ids.
  void withdraw_pending(std::vector<std::uint64_t>& ids) {
    for (std::size_t i = 0; i < queue_.size(); ++i) ids.push_back(queue_[i].id);
    queue_.clear();
  }
  void set_stalled(bool s) { stalled_ = s; }
  int node() const { return cfg_.node; }
  // Flits this endpoint put on its link / took from it.
  std::uint64_t flits_sent() const { return flits_sent_; }
  std::uint64_t flits_received() const { return flits_received_; }
  // Cycles a flit was ready to go but had no credit.
  std::uint64_t stalls_no_credit() const { return stalls_no_credit_; }

  // LinkBlock
  void step(sysc::Network& net, int index, std::uint64_t now) override;
  int ports() const override { return 1; }
  int vcs() const override { return cfg_.vcs; }
  int flit_bits() const override { return cfg_.flit_bits; }
  void clear_inputs() override {
    in_flit_.valid = false;
    in_credit_.valid = false;
  }
  void set_flit_in(int, const sysc::Flit& f) override { in_flit_ = f; }
  void set_credit_in(int, sysc::Credit c) override { in_credit_ = c; }
  void tick() override;
  bool flit_out(int, sysc::Flit& f) const override {
    f = out_flit_;
    return f.valid;
  }
  sysc::Credit credit_out(int) const override { return out_credit_; }
  std::uint64_t flit_out_bits() const override { return out_flit_.valid ? 1u : 0u; }
  std::uint64_t credit_out_bits() const override { return out_credit_.valid ? 1u : 0u; }
  // Nothing to send yet (empty queue, or its first packet created in the future) and nothing to
  // take in: ticking would change nothing.
  bool idle() const override {
    return (queue_.empty() || queue_.front().created > *clock_) && cur_flit_ < 0 && buffered_ == 0;
  }
  bool drained() const override;
  bool error() const override { return error_; }
  // Its packets come from its own queue and what it sees goes to its observer stamped with its
  // clock: a harness may step it several cycles ahead of its neighbours (LinkBlock::links_only).
  // The observer then hears of a span's cycles block by block, not cycle by cycle; the traffic
  // runs' per-partition logs put them in cycle order (tb/event_log.h).
  bool links_only() const override { return true; }

 private:
  void accept(const sysc::Flit& f);
  void fault(const std::string& what);

  EndpointConfig cfg_;
  const std::uint64_t* clock_;
  EndpointObserver* obs_;

  // source
  sysc::GrowRing<PacketSpec> queue_;
  PacketSpec cur_;
  int cur_flit_ = -1;      // next flit of cur_ to send, -1: none in progress
  int cur_vc_ = 0;
  int rr_ = 0;
  std::vector<int> credits_;

  // sink
  struct Open {
    bool open = false;
    Delivery d;
    int next = 0;
  };
  std::vector<Open> open_;                  // per VC
  std::vector<sysc::GrowRing<sysc::Flit>> buf_;   // per VC, at most eject_depth flits
  int buffered_ = 0;                               // flits in all of buf_
  int drain_rr_ = 0;
  bool stalled_ = false;

  sysc::Flit in_flit_, out_flit_;
  sysc::Credit in_credit_, out_credit_;
  std::uint64_t flits_sent_ = 0, flits_received_ = 0, stalls_no_credit_ = 0;
  bool error_ = false;
};

}  // namespace hxemu::tb
