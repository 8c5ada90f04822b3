// PartitionEvents: what the endpoints and cable taps of each partition report during a harness
// run, kept per partition (each written by the one thread stepping it) and handed to the
// Scoreboard after the run in one canonical order: by cycle, ties in partition order and then in
// the order the partition produced them. That order does not depend on how partitions are spread
// over threads (or processes), so neither does anything the Scoreboard computes.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "sysc/fabric/flit.h"
#include "tb/packet_endpoint.h"

namespace hxemu::sysc {
class System;
}

namespace hxemu::tb {

class Scoreboard;

// Trivially copyable (a fault's text is kept beside the events, by index), so that a log's events
// go to other ranks as one block of bytes each way (PartitionEvents::share_between_ranks).
struct TbEvent {
  enum class Kind : std::uint8_t { kInjected, kDelivered, kFault, kCable };
  Kind kind = Kind::kInjected;
  std::uint32_t text = 0;      // (fault) index of its text in the log's texts()
  int node = -1;
  int latency = 0;             // cable latency (cable)
  std::uint64_t cycle = 0;
  std::uint64_t id = 0;        // packet id (injected, cable)
  Delivery delivery;           // (delivered)
};
static_assert(std::is_trivially_copyable_v<TbEvent>, "TbEvent: see above");

// One partition's events; the observer its endpoints report to.
class EventLog final : public EndpointObserver {
 public:
  explicit EventLog(const std::uint64_t* clock) : clock_(clock) {}
  void set_clock(const std::uint64_t* clock) { clock_ = clock; }
  void injected(int node, std::uint64_t id, std::uint64_t cycle) override;
  void delivered(const Delivery& d) override;
  void fault(int node, const std::string& what) override;
  void cable(std::uint64_t id, int latency, std::uint64_t now);

  std::vector<TbEvent>& events() { return events_; }
  const std::vector<TbEvent>& events() const { return events_; }
  // The texts of the logged faults (TbEvent::text); emptied with the events.
  std::vector<std::string>& texts() { return texts_; }
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  const std::uint64_t* clock_;
  std::vector<TbEvent> events_;
  std::vector<std::string> texts_;
};

class PartitionEvents {
 public:
  // The log of partition `p` (made on first use; `clock` is the partition's clock).
  EventLog& log(int partition, const std::uint64_t* clock);
  // Makes a log for every partition of `sys` (trees have no endpoints but send cable events).
  void cover_partitions(const sysc::System& sys);
  // A head flit was sent on cable `link` in cycle `now` (called by the sending partition's thread).
  void cable(const sysc::System& sys, int link, std::uint64_t id, int latency, std::uint64_t now);
  // Hands every logged event to `sb` in the canonical order and empties the logs. Under mpirun
  // every rank first receives every other rank's events, so every rank's Scoreboard sees them all.
  void flush(Scoreboard& sb);

  // What share_between_ranks sends and receives: the logged events (and faults' texts) as
  // (partition, events, texts) runs appended to `out`; and such runs, s[pos, end), appended to
  // their partitions' logs.
  void encode(std::string& out) const;
  void append_encoded(const std::string& s, std::size_t pos, std::size_t end);

 private:
  void share_between_ranks();
  std::deque<EventLog> logs_;          // by partition; deque: references stay valid
  std::vector<TbEvent*> order_;        // flush's scratch: the events in hand-over order
  std::vector<std::size_t> slot_;      // flush's scratch: events per cycle, then where each goes
  std::vector<std::string> texts_;     // flush's scratch: the faults' texts, partition by partition
  // share_between_ranks' buffers, kept so that a flush under mpirun allocates nothing once grown:
  // this rank's message, every rank's messages, and where each begins
  std::string share_out_;
  std::string share_in_;
  std::vector<std::size_t> share_at_;
};

}  // namespace hxemu::tb
