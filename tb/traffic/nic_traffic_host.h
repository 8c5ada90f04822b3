// NicTrafficHost: synthetic traffic through the real NICs. One per accelerator, stepped with its
// board like a host CPU (a block without links, sysc/system/system.h add_node_block): on every
// rail (NIC) it creates messages of one packet each by a Bernoulli process at the offered load,
// queues them, writes each message's bytes into a transmit slot and posts a put to the NIC; at
// the far end it checks every word the NIC writes, and counts what arrived from whom.
//
// The source queue is unbounded (as for synthetic endpoints) but costs no memory: arrival times
// and lengths come from random streams that are walked twice, once as messages arrive (counting
// what was offered) and once as they are posted (the queue is what lies between the two walks), so
// 10^6 cycles at an offered load far above saturation do not fill the host with queued messages.
//
// Message bytes: a packet of F flits carries F - 1 words of W/8 bytes (F >= 2, W >= 256). Every
// word says whose it is -- 64-bit fields {source, destination, rail, flits, sequence number}, the
// creation cycle, the cycle the put was posted -- and the rest of it is a hash of those and the
// word's index. The receiver checks every DMA write its NICs make as memory accepts it (address,
// byte enables, data: a flipped bit, a word at the wrong node, rail, slot or offset, a sequence
// number the NIC stamped wrongly), counts the good words per message, and when the NIC reports the
// packet landed checks that exactly its F - 1 words were written.
//
// Receive slots: the sender puts message k to a destination in slot k mod K of that destination's
// region for (rail, source), and sends k mod K as the tag. Slots are reused: the checks look at the
// writes, not at what memory holds later, so a later message overwriting a slot (it happens: a
// packet can sit half-received in one VC while later packets from the same source pass it in
// another) cannot make a good packet look bad or a bad one good.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sysc/host/nic_node.h"
#include "sysc/util/fnv_digest.h"
#include "tb/stats/latency_stats.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"

namespace hxemu::tb {

// What every host of a run shares (read only while the system runs).
struct NicTrafficPlan {
  const TrafficPattern* pattern = nullptr;
  const PacketSize* sizes = nullptr;
  double packet_probability = 0;     // per rail and cycle: offered load / mean packet flits
  std::uint64_t seed = 1;
  std::uint64_t w0 = 0, w1 = 0;      // the measurement window [w0, w1)
  int nodes = 0, rails = 1;
  int word_bytes = 32;               // W / 8
  std::uint32_t slot_bytes = 0;      // the largest message: (largest packet - 1) x word_bytes
  // K, per (rail, source) at every destination: at least tx_slots, so the puts in flight to one
  // destination have distinct tags (TX completions are matched by destination and tag)
  int rx_slots = 32;
  int tx_slots = 32;                 // puts in flight per rail (the NIC has 16 message slots)
  std::vector<std::uint32_t> routes; // System::route_of per node
  // Host memory one node needs for this layout.
  std::size_t memory_bytes() const;
};


class NicTrafficHost final : public sysc::PortlessBlock, public sysc::LandingObserver {
 public:
  NicTrafficHost(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
                 const NicTrafficPlan& plan, const std::uint64_t* clock);

  // Called between harness runs (the host is not being stepped).
  void stop_generating() { generating_ = false; }
  // Drops the messages created but not yet posted; returns how many of them were measured.
  std::uint64_t withdraw();
  // Nothing queued and no put in flight on any rail.
  bool settled() const;

  // ---- what it counted (read between runs) ------------------------------------------------------
  std::uint64_t created_measured() const { return created_measured_; }
  std::uint64_t created_measured_flits() const { return created_measured_flits_; }
  std::uint64_t withdrawn_measured() const { return withdrawn_measured_; }
  std::uint64_t delivered_measured() const { return delivered_measured_; }
  std::uint64_t posted() const { return posted_; }
  std::uint64_t landed() const { return landed_; }
  std::uint64_t released() const { return released_; }
  // Flits landed on `rail` in the window.
  std::uint64_t window_flits(int rail) const { return window_flits_[rail]; }
  // Messages this node posted to each destination / received from each source: [rail * n + node].
  const std::vector<std::uint32_t>& sent_to() const { return sent_to_; }
  const std::vector<std::uint32_t>& received_from() const { return received_from_; }
  const LatencyStats& message_latency() const { return msg_latency_; }   // created -> landed
  const LatencyStats& network_latency() const { return net_latency_; }   // posted -> landed
  std::uint64_t data_errors() const { return data_errors_; }
  const std::vector<std::string>& error_samples() const { return error_samples_; }
  // FNV over every landing here (source, rail, sequence number, created, landed).
  std::uint64_t digest() const { return digest_.value(); }

  // ---- PortlessBlock ----------------------------------------------------------------------------
  void tick() override;
  bool idle() const override;
  bool error() const override { return data_errors_ > 0; }

  // ---- LandingObserver --------------------------------------------------------------------------
  void written(int rail, const sysc::DmaOut& w, std::uint64_t now) override;
  void landed(int rail, const sysc::RxLanding& l, std::uint64_t now) override;

 private:
  struct Pending {                  // the message at the head of the queue
    std::uint64_t created;
    int dst;
    int flits;
  };
  // One walk over the arrivals of a rail: the gap to each arrival and its length.
  struct Arrivals {
    std::mt19937_64 gaps, sizes;
    std::uint64_t next = 0;         // arrival time of the next message of this walk
    std::uint64_t count = 0;        // messages walked past
  };
  struct InFlight {                 // posted, TX completion not yet seen
    std::uint16_t dst, tag;
    int slot;
  };
  struct Arriving {                 // words of a message written so far (by rail)
    std::uint16_t src, seq;
    std::uint16_t words;
    std::uint64_t created, posted;
  };
  struct Rail {
    sysc::NicNode* nic = nullptr;
    Arrivals created, posted;       // created.count - posted.count messages are queued
    std::mt19937_64 destinations;
    std::vector<InFlight> in_flight;
    std::vector<int> free_slots;
    std::vector<Arriving> arriving;   // a handful: the packets partly in the NIC's buffers
  };
  std::uint64_t gap(std::mt19937_64& rng) const;
  // The next message of a walk (its arrival time is a.next), advancing the walk.
  int next_flits(Arrivals& a) const;
  void post(int r, const Pending& m, std::uint64_t now);
  void fail(const std::string& what);
  std::uint32_t tx_addr(int rail, int slot) const;
  std::uint32_t rx_addr(int rail, int src, int slot) const;

  int node_;
  std::vector<Rail> rails_;
  sysc::HostMemory& mem_;
  const NicTrafficPlan& plan_;
  double log_q_;                     // log1p(-plan_.packet_probability), for every gap drawn
  const std::uint64_t* clock_;
  bool generating_ = true;
  std::vector<std::uint16_t> next_seq_;       // [rail * n + dst]
  std::vector<std::uint32_t> sent_to_, received_from_;
  std::vector<std::uint64_t> window_flits_;
  std::vector<std::uint64_t> buf_;            // message words, reused
  int u64_per_word_;
  std::size_t rx_base_;                       // first byte of the receive slots (after the tx slots)
  std::uint64_t created_measured_ = 0, created_measured_flits_ = 0, withdrawn_measured_ = 0;
  std::uint64_t delivered_measured_ = 0, posted_ = 0, landed_ = 0, released_ = 0;
  std::uint64_t data_errors_ = 0;
  std::vector<std::string> error_samples_;
  LatencyStats msg_latency_, net_latency_;
  sysc::Fnv64 digest_;
};

}  // namespace hxemu::tb
