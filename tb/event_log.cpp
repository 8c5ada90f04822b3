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
  events_.push_back(e);
}

void EventLog::delivered(const Delivery& d) {
  TbEvent e;
  e.kind = TbEvent::Kind::kDelivered;
  e.cycle = d.tail_arrival;
  e.node = d.dst;
  e.id = d.id;
  e.delivery = d;
  events_.push_back(e);
}

void EventLog::fault(int node, const std::string& what) {
  TbEvent e;
  e.kind = TbEvent::Kind::kFault;
  e.cycle = clock_ ? *clock_ : 0;
  e.node = node;
  e.text = static_cast<std::uint32_t>(texts_.size());
  texts_.push_back(what);
  events_.push_back(e);
}

void EventLog::cable(std::uint64_t id, int latency, std::uint64_t now) {
  TbEvent e;
  e.kind = TbEvent::Kind::kCable;
  e.cycle = now;
  e.id = id;
  e.latency = latency;
  events_.push_back(e);
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

// Each rank's events (only its own partitions have any), as (partition, events, texts) runs, sent
// to every other rank. A rank keeps its own events where they are and appends the others' to their
// partitions' logs (empty until then: each partition is stepped by one rank), so each partition's
// events keep their order. Events are trivially copyable: a log's events travel as one block of
// bytes. Field by field (a string append per field), encoding and decoding took 2% of each rank's
// instructions on hx4mesh-1024 traffic under mpirun -np 2 (callgrind, 500 cycles: about 90 M
// against 37 M now, of 2,800 M).
void PartitionEvents::encode(std::string& out) const {
  for (std::size_t p = 0; p < logs_.size(); ++p) {
    const auto& ev = logs_[p].events();
    if (ev.empty()) continue;
    const auto& texts = logs_[p].texts();
    sysc::put_bytes<std::uint32_t>(out, static_cast<std::uint32_t>(p));
    sysc::put_bytes<std::uint64_t>(out, ev.size());
    sysc::put_bytes<std::uint64_t>(out, texts.size());
    out.append(reinterpret_cast<const char*>(ev.data()), ev.size() * sizeof(TbEvent));
    for (const std::string& t : texts) {
      sysc::put_bytes<std::uint32_t>(out, static_cast<std::uint32_t>(t.size()));
      out += t;
    }
  }
}

void PartitionEvents::append_encoded(const std::string& s, std::size_t pos, std::size_t end) {
  while (pos < end) {
    const auto p = sysc::get_bytes<std::uint32_t>(s, pos);
    const auto n = sysc::get_bytes<std::uint64_t>(s, pos);
    const auto n_texts = sysc::get_bytes<std::uint64_t>(s, pos);
    if (pos > end || n > (end - pos) / sizeof(TbEvent)) {
      throw std::runtime_error("testbench events: short message from a rank");
    }
    EventLog& into = log(static_cast<int>(p), nullptr);
    auto& ev = into.events();
    auto& texts = into.texts();
    const std::size_t first = ev.size();
    const auto text_base = static_cast<std::uint32_t>(texts.size());
    ev.resize(first + n);
    std::memcpy(static_cast<void*>(ev.data() + first), s.data() + pos, n * sizeof(TbEvent));
    pos += n * sizeof(TbEvent);
    for (std::size_t k = first; k < ev.size(); ++k) {
      if (ev[k].kind != TbEvent::Kind::kFault) continue;
      if (ev[k].text >= n_texts) throw std::runtime_error("testbench events: a fault without its text from a rank");
      ev[k].text += text_base;
    }
    for (std::uint64_t k = 0; k < n_texts; ++k) {
      const auto len = sysc::get_bytes<std::uint32_t>(s, pos);
      if (pos + len > end) throw std::runtime_error("testbench events: short message from a rank");
      texts.emplace_back(s, pos, len);
      pos += len;
    }
  }
  if (pos != end) throw std::runtime_error("testbench events: a rank's message overruns its share");
}

void PartitionEvents::share_between_ranks() {
  // The message and the gathered bytes live in buffers kept between flushes (cleared, capacity
  // kept): a chunk's events are a few 100 KB, and allocating them afresh each time had the heap's
  // top grow and shrink every chunk (each regrowth a fresh, zeroed huge page).
  share_out_.clear();
  encode(share_out_);
  sysc::Ranks::all_gather(share_out_, share_in_, share_at_);
  for (std::size_t r = 0; r + 1 < share_at_.size(); ++r) {
    if (static_cast<int>(r) == sysc::Ranks::rank()) continue;
    append_encoded(share_in_, share_at_[r], share_at_[r + 1]);
  }
}

void PartitionEvents::flush(Scoreboard& sb) {
  if (sysc::Ranks::distributed()) share_between_ranks();
  // By cycle, ties in partition order and then in log order: a counting sort over the few cycles
  // a run spans (one pass to count, one to place; stable), or a stable sort when they are many.
  // Faults' texts gathered in partition order; a fault's index becomes one into texts_.
  std::uint64_t first = ~std::uint64_t{0}, last = 0;
  std::size_t total = 0;
  texts_.clear();
  for (auto& log : logs_) {
    const auto base = static_cast<std::uint32_t>(texts_.size());
    for (auto& e : log.events()) {
      first = std::min(first, e.cycle);
      last = std::max(last, e.cycle);
      if (e.kind == TbEvent::Kind::kFault) e.text += base;
    }
    total += log.events().size();
    for (auto& t : log.texts()) texts_.push_back(std::move(t));
    log.texts().clear();
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
      case TbEvent::Kind::kFault: sb.fault(e->node, texts_.at(e->text)); break;
      case TbEvent::Kind::kCable: sb.head_on_cable(e->id, e->latency, e->cycle); break;
    }
  }
  for (auto& log : logs_) log.events().clear();
}

}  // namespace hxemu::tb
