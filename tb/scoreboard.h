// Scoreboard: every packet a test or run creates is registered here; the endpoints report
// injections and deliveries. It checks that every packet is delivered exactly once, to the node its
// header names, intact, and -- where the network promises it -- in order per (source, destination,
// VC class) stream; a violation is recorded with the packet's history.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tb/packet_endpoint.h"

namespace hxemu::tb {

// What a packet's record keeps of its (first) delivery: what reports read. The rest of a Delivery
// (id, source, flits, creation cycle, the header's destination) repeats the packet's spec and is
// checked against it when the packet arrives.
struct DeliveredAs {
  std::uint64_t head_arrival = 0;
  std::uint64_t tail_arrival = 0;
  std::int32_t dst = 0;          // the node that received it
  std::uint8_t vc = 0;           // VC it arrived on
  bool intact = true;            // every flit's payload as sent, flits in order and contiguous
};

// One per packet of a run, kept to its end (the reports are worked out from them): 88 bytes, where
// a whole Delivery made it 128 -- a mesh-8x8 bench run creates 290,000 packets, and every page of
// the table is first touched (and zeroed by the kernel) while the run steps.
struct PacketRecord {
  PacketSpec spec;
  std::uint64_t injected = 0;     // cycle the head left the source (0: not yet)
  // Head on its first cable (entering a tree / leaving the board) and off its last one.
  std::uint64_t tree_enter = 0, tree_exit = 0;
  DeliveredAs delivery;           // the (first) delivery
  std::int32_t deliveries = 0;
  bool withdrawn = false;         // taken back from its source queue before injection
};
static_assert(sizeof(PacketRecord) == 88, "a packet's record: see above");

class Scoreboard : public EndpointObserver {
 public:
  Scoreboard() = default;

  // Packet ids must be 0, 1, 2, ... in creation order.
  void expect(const PacketSpec& p);
  // Room for `packets` records up front: a run that knows about how many it creates grows the
  // table once instead of by doubling (each doubling copies every record into fresh pages).
  void reserve(std::size_t packets) { records_.reserve(packets); }
  // Check that packets of each (source, destination, arrival VC) stream arrive in creation order.
  // Under deterministic routing with the lane VC policy the arrival VC identifies the stream's
  // class and lane, and the network promises this order; with dynamic VC allocation it does not.
  void set_check_order(bool on) { check_order_ = on; }

  void injected(int node, std::uint64_t id, std::uint64_t cycle) override;
  void delivered(const Delivery& d) override;
  void fault(int node, const std::string& what) override;
  // The head of packet `id` was put on a cable of latency `latency` in cycle `now`.
  void head_on_cable(std::uint64_t id, int latency, std::uint64_t now) {
    if (id >= records_.size()) return;
    PacketRecord& r = records_[id];
    if (r.tree_enter == 0) r.tree_enter = now + 1;
    r.tree_exit = now + 1 + static_cast<std::uint64_t>(latency);
  }

  // Records of packets created ahead of time (a run that creates the next cycles' packets while
  // the harness steps these): take_from moves those from `id` on out of the table, so that a check
  // in between sees only the packets that exist by now, and put_back returns them (ids unchanged).
  // The table's memory stays as it is, so the ahead records' first touch is not paid again.
  void take_from(std::size_t id, std::vector<PacketRecord>& out);
  void put_back(const std::vector<PacketRecord>& ahead);

  std::size_t created() const { return records_.size(); }
  std::size_t delivered_count() const { return delivered_; }
  std::size_t outstanding() const { return records_.size() - delivered_ - withdrawn_; }
  std::size_t withdrawn_count() const { return withdrawn_; }
  // The packet never left its source queue and will not be sent.
  void withdraw(std::uint64_t id) {
    if (id < records_.size() && !records_[id].withdrawn && records_[id].deliveries == 0) {
      records_[id].withdrawn = true;
      ++withdrawn_;
    }
  }
  const PacketRecord& record(std::uint64_t id) const { return records_.at(id); }
  const std::vector<PacketRecord>& records() const { return records_; }
  const std::vector<std::string>& errors() const { return errors_; }
  bool clean() const { return errors_.empty(); }
  // One line of history for a packet (creation, injection, delivery).
  std::string history(std::uint64_t id) const;

 private:
  void error(const std::string& what);

  std::vector<PacketRecord> records_;
  std::size_t delivered_ = 0;
  std::size_t withdrawn_ = 0;
  bool check_order_ = false;
  // last delivered packet id per (src, dst, vc) stream, for the order check
  std::unordered_map<std::uint64_t, std::uint64_t> last_in_stream_;
  std::vector<std::string> errors_;
};

}  // namespace hxemu::tb
