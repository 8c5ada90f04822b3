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

struct PacketRecord {
  PacketSpec spec;
  std::uint64_t injected = 0;     // cycle the head left the source (0: not yet)
  int deliveries = 0;
  Delivery delivery;              // the (first) delivery
};

class Scoreboard : public EndpointObserver {
 public:
  Scoreboard() = default;

  // Packet ids must be 0, 1, 2, ... in creation order.
  void expect(const PacketSpec& p);
  // Check that packets of each (source, destination, arrival VC) stream arrive in creation order.
  // Under deterministic routing with the lane VC policy the arrival VC identifies the stream's
  // class and lane, and the network promises this order; with dynamic VC allocation it does not.
  void set_check_order(bool on) { check_order_ = on; }

  void injected(int node, std::uint64_t id, std::uint64_t cycle) override;
  void delivered(const Delivery& d) override;
  void fault(int node, const std::string& what) override;

  std::size_t created() const { return records_.size(); }
  std::size_t delivered_count() const { return delivered_; }
  std::size_t outstanding() const { return records_.size() - delivered_; }
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
  bool check_order_ = false;
  // last delivered packet id per (src, dst, vc) stream, for the order check
  std::unordered_map<std::uint64_t, std::uint64_t> last_in_stream_;
  std::vector<std::string> errors_;
};

}  // namespace hxemu::tb
