#include "tb/event_log.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "sysc/dist/byte_message.h"
#include "sysc/dist/ranks.h"
#include "sysc/system/system.h"
#include "tb/scoreboard.h"

namespace hxemu::tb {

void EventLog::injected(int node, std::uint64_t id, std::uint64_t cycle) {
  TbEvent e;
  e.kind = TbEvent::Kind::kInjected;
  e.cycle = cycle;
  e.node = node;
  e.id = id;
  events_.push_back(std::move(e));
}

void EventLog::delivered(const Delivery& d) {
  TbEvent e;
  e.kind = TbEvent::Kind::kDelivered;
  e.cycle = d.tail_arrival;
  e.node = d.dst;
  e.id = d.id;
  e.delivery = d;
  events_.push_back(std::move(e));
}

void EventLog::fault(int node, const std::string& what) {
  TbEvent e;
  e.kind = TbEvent::Kind::kFault;
  e.cycle = clock_ ? *clock_ : 0;
  e.node = node;
  e.what = what;
  events_.push_back(std::move(e));
}

void EventLog::cable(std::uint64_t id, int latency, std::uint64_t now) {
  TbEvent e;
  e.kind = TbEvent::Kind::kCable;
  e.cycle = now;
  e.id = id;
  e.latency = latency;
  events_.push_back(std::move(e));
}

EventLog& PartitionEvents::log(int partition, const std::uint64_t* clock) {
  if (partition < 0) throw std::out_of_range("PartitionEvents::log: negative partition");
  while (static_cast<int>(logs_.size()) <= partition) logs_.emplace_back(nullptr);
  if (clock) logs_[partition].set_clock(clock);
  return logs_[partition];
}

void PartitionEvents::cover_partitions(const sysc::System& sys) {
  if (logs_.size() < sys.partitions().size()) log(static_cast<int>(sys.partitions().size()) - 1, nullptr);
}

void PartitionEvents::cable(const sysc::System& sys, int link, std::uint64_t id, int latency,
                            std::uint64_t now) {
  const int p = sys.partition_of_block(sys.net().link_info(link).from.block);
  logs_.at(p).cable(id, latency, now);
}

// Each rank's events (only its own partitions have any), as (partition, count, events) runs, sent
// to every other rank. A rank keeps its own events where they are and appends the others' to their
// partitions' logs (empty until then: each partition is stepped by one rank), so each partition's
// events keep their order.
void PartitionEvents::share_between_ranks() {
  // The message and the gathered bytes live in buffers kept between flushes (cleared, capacity
  // kept): a chunk's events are a few 100 KB, and allocating them afresh each time had the heap's
  // top grow and shrink every chunk (each regrowth a fresh, zeroed huge page).
  std::string& mine = share_out_;
  mine.clear();
  for (std::size_t p = 0; p < logs_.size(); ++p) {
    const auto& ev = logs_[p].events();
    if (ev.empty()) continue;
    sysc::put_bytes<std::uint32_t>(mine, static_cast<std::uint32_t>(p));
    sysc::put_bytes<std::uint64_t>(mine, ev.size());
    for (const TbEvent& e : ev) {
      sysc::put_bytes(mine, e.kind);
      sysc::put_bytes(mine, e.cycle);
      sysc::put_bytes(mine, e.node);
      sysc::put_bytes(mine, e.id);
      sysc::put_bytes(mine, e.latency);
      sysc::put_bytes(mine, e.delivery);
      sysc::put_bytes<std::uint32_t>(mine, static_cast<std::uint32_t>(e.what.size()));
      mine += e.what;
    }
  }
  sysc::Ranks::all_gather(mine, share_in_, share_at_);
  const std::string& s = share_in_;
  for (std::size_t r = 0; r + 1 < share_at_.size(); ++r) {
    if (static_cast<int>(r) == sysc::Ranks::rank()) continue;
    std::size_t pos = share_at_[r];
    const std::size_t end = share_at_[r + 1];
    while (pos < end) {
      const auto p = sysc::get_bytes<std::uint32_t>(s, pos);
      const auto n = sysc::get_bytes<std::uint64_t>(s, pos);
      auto& ev = log(static_cast<int>(p), nullptr).events();
      for (std::uint64_t k = 0; k < n; ++k) {
        TbEvent e;
        e.kind = sysc::get_bytes<TbEvent::Kind>(s, pos);
        e.cycle = sysc::get_bytes<std::uint64_t>(s, pos);
        e.node = sysc::get_bytes<int>(s, pos);
        e.id = sysc::get_bytes<std::uint64_t>(s, pos);
        e.latency = sysc::get_bytes<int>(s, pos);
        e.delivery = sysc::get_bytes<Delivery>(s, pos);
        const auto len = sysc::get_bytes<std::uint32_t>(s, pos);
        if (pos + len > end) throw std::runtime_error("testbench events: short message from a rank");
        e.what.assign(s, pos, len);
        pos += len;
        ev.push_back(std::move(e));
      }
    }
    if (pos != end) throw std::runtime_error("testbench events: a rank's message overruns its share");
  }
}

void PartitionEvents::flush(Scoreboard& sb) {
  if (sysc::Ranks::distributed()) share_between_ranks();
  // By cycle, ties in partition order and then in log order: a counting sort over the few cycles
  // a run spans (one pass to count, one to place; stable), or a stable sort when they are many.
  std::uint64_t first = ~std::uint64_t{0}, last = 0;
  std::size_t total = 0;
  for (auto& log : logs_) {
    for (const auto& e : log.events()) {
      first = std::min(first, e.cycle);
      last = std::max(last, e.cycle);
    }
    total += log.events().size();
  }
  if (total == 0) return;
  order_.resize(total);
  const std::uint64_t span = last - first + 1;
  if (span <= 4 * total + 64) {
    slot_.assign(static_cast<std::size_t>(span) + 1, 0);
    for (auto& log : logs_) {
      for (const auto& e : log.events()) ++slot_[static_cast<std::size_t>(e.cycle - first) + 1];
    }
    for (std::size_t c = 1; c < slot_.size(); ++c) slot_[c] += slot_[c - 1];
    for (auto& log : logs_) {
      for (auto& e : log.events()) order_[slot_[static_cast<std::size_t>(e.cycle - first)]++] = &e;
    }
  } else {
    std::size_t k = 0;
    for (auto& log : logs_) {
      for (auto& e : log.events()) order_[k++] = &e;
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [](const TbEvent* a, const TbEvent* b) { return a->cycle < b->cycle; });
  }
  for (const TbEvent* e : order_) {
    switch (e->kind) {
      case TbEvent::Kind::kInjected: sb.injected(e->node, e->id, e->cycle); break;
      case TbEvent::Kind::kDelivered: sb.delivered(e->delivery); break;
      case TbEvent::Kind::kFault: sb.fault(e->node, e->what); break;
      case TbEvent::Kind::kCable: sb.head_on_cable(e->id, e->latency, e->cycle); break;
    }
  }
  for (auto& log : logs_) log.events().clear();
}

}  // namespace hxemu::tb
