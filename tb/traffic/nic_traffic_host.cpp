#include "tb/traffic/nic_traffic_host.h"

#include "tb/traffic/random_draw.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace hxemu::tb {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// 64-bit field k >= 3 of word j of a message, from its identity, creation and posting cycles.
std::uint64_t fill(std::uint64_t id, std::uint64_t created, std::uint64_t posted, std::size_t j, std::size_t k) {
  return splitmix(id ^ (created << 17 | created >> 47) ^ (posted << 31 | posted >> 33) ^
                  (static_cast<std::uint64_t>(j) << 40) ^ (static_cast<std::uint64_t>(k) << 56));
}

std::uint64_t id_word(int src, int dst, int rail, int flits, std::uint16_t seq) {
  return static_cast<std::uint64_t>(src & 0xffff) << 48 | static_cast<std::uint64_t>(dst & 0xffff) << 32 |
         static_cast<std::uint64_t>(rail & 0xff) << 24 | static_cast<std::uint64_t>(flits & 0xff) << 16 | seq;
}

}  // namespace

std::size_t NicTrafficPlan::memory_bytes() const {
  return (static_cast<std::size_t>(rails) * tx_slots +
          static_cast<std::size_t>(rails) * nodes * rx_slots) * slot_bytes;
}

NicTrafficHost::NicTrafficHost(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
                               const NicTrafficPlan& plan, const std::uint64_t* clock)
    : node_(node), mem_(memory), plan_(plan), log_q_(std::log1p(-plan.packet_probability)), clock_(clock) {
  const std::size_t pairs = static_cast<std::size_t>(plan.rails) * plan.nodes;
  next_seq_.assign(pairs, 0);
  sent_to_.assign(pairs, 0);
  received_from_.assign(pairs, 0);
  window_flits_.assign(static_cast<std::size_t>(plan.rails), 0);
  buf_.resize(plan.slot_bytes / 8 + 1);
  u64_per_word_ = plan.word_bytes / 8;
  rx_base_ = static_cast<std::size_t>(plan.rails) * plan.tx_slots * plan.slot_bytes;
  rails_.resize(rails.size());
  for (std::size_t r = 0; r < rails.size(); ++r) {
    Rail& rl = rails_[r];
    rl.nic = rails[r];
    // The two walks over the arrivals start from the same seeds, so they see the same messages.
    auto seeded = [&](std::uint32_t stream) {
      std::seed_seq sq{static_cast<std::uint32_t>(plan.seed), static_cast<std::uint32_t>(plan.seed >> 32),
                       static_cast<std::uint32_t>(node), static_cast<std::uint32_t>(r), stream};
      return std::mt19937_64(sq);
    };
    for (Arrivals* a : {&rl.created, &rl.posted}) {
      a->gaps = seeded(1);
      a->sizes = seeded(2);
      a->next = gap(a->gaps);
    }
    rl.destinations = seeded(3);
    for (int s = plan.tx_slots; s-- > 0;) rl.free_slots.push_back(s);
    rl.in_flight.reserve(static_cast<std::size_t>(plan.tx_slots));
    rl.nic->set_landing_observer(this);
  }
}

std::uint64_t NicTrafficHost::gap(std::mt19937_64& rng) const {
  return geometric_gap(rng, plan_.packet_probability, log_q_);
}

int NicTrafficHost::next_flits(Arrivals& a) const {
  const int flits = plan_.sizes->draw(a.sizes);
  a.next += 1 + gap(a.gaps);
  ++a.count;
  return flits;
}

std::uint32_t NicTrafficHost::tx_addr(int rail, int slot) const {
  return static_cast<std::uint32_t>((static_cast<std::size_t>(rail) * plan_.tx_slots + slot) * plan_.slot_bytes);
}

std::uint32_t NicTrafficHost::rx_addr(int rail, int src, int slot) const {
  const std::size_t index =
      (static_cast<std::size_t>(rail) * plan_.nodes + src) * plan_.rx_slots + slot;
  return static_cast<std::uint32_t>(rx_base_ + index * plan_.slot_bytes);
}

void NicTrafficHost::fail(const std::string& what) {
  ++data_errors_;
  if (error_samples_.size() < 8) error_samples_.push_back(fmt::format("node {}: {}", node_, what));
}

void NicTrafficHost::tick() {
  const std::uint64_t now = *clock_;
  for (std::size_t r = 0; r < rails_.size(); ++r) {
    Rail& rl = rails_[r];
    sysc::TxCompletion t;
    while (rl.nic->pop_tx(t)) {
      auto it = std::find_if(rl.in_flight.begin(), rl.in_flight.end(),
                             [&](const InFlight& f) { return f.dst == t.dst && f.tag == t.tag; });
      if (it == rl.in_flight.end()) {
        fail(fmt::format("rail {}: TX completion (destination {}, tag {}) for no put in flight", r,
                         t.dst, t.tag));
        continue;
      }
      rl.free_slots.push_back(it->slot);
      rl.in_flight.erase(it);
    }
    sysc::RxCompletion c;
    while (rl.nic->pop_rx(c)) ++released_;
    if (generating_) {
      while (rl.created.next <= now) {
        const std::uint64_t t = rl.created.next;
        const int flits = next_flits(rl.created);
        if (t >= plan_.w0 && t < plan_.w1) {
          ++created_measured_;
          created_measured_flits_ += static_cast<std::uint64_t>(flits);
        }
      }
    }
    // At most two puts wait at the NIC's command port: it takes one per cycle, and the host sees
    // its own posts one cycle late (sysc/host/nic_node.h).
    while (rl.posted.count < rl.created.count && !rl.free_slots.empty() && rl.nic->posts_waiting() < 2) {
      Pending m;
      m.created = rl.posted.next;
      m.flits = next_flits(rl.posted);
      m.dst = plan_.pattern->destination(node_, rl.destinations);
      post(static_cast<int>(r), m, now);
    }
  }
}

void NicTrafficHost::post(int r, const Pending& m, std::uint64_t now) {
  Rail& rl = rails_[r];
  const int slot = rl.free_slots.back();
  rl.free_slots.pop_back();
  const std::size_t pair = static_cast<std::size_t>(r) * plan_.nodes + m.dst;
  const std::uint16_t seq = next_seq_[pair]++;
  const auto tag = static_cast<std::uint16_t>(seq % plan_.rx_slots);
  const std::uint32_t bytes = static_cast<std::uint32_t>(m.flits - 1) * plan_.word_bytes;
  const std::uint64_t id = id_word(node_, m.dst, r, m.flits, seq);
  for (int j = 0; j < m.flits - 1; ++j) {
    std::uint64_t* w = &buf_[static_cast<std::size_t>(j) * u64_per_word_];
    w[0] = id;
    w[1] = m.created;
    w[2] = now;
    for (int k = 3; k < u64_per_word_; ++k) w[k] = fill(id, m.created, now, j, k);
  }
  mem_.write(tx_addr(r, slot), buf_.data(), bytes);
  sysc::NicCommand c;
  c.dst = static_cast<std::uint16_t>(m.dst);
  c.route = plan_.routes[m.dst];
  c.src_addr = tx_addr(r, slot);
  c.dst_addr = rx_addr(r, node_, tag);
  c.len = bytes;
  c.tag = tag;
  rl.nic->post(c);
  rl.in_flight.push_back({c.dst, tag, slot});
  ++posted_;
  ++sent_to_[pair];
}

void NicTrafficHost::written(int rail, const sysc::DmaOut& w, std::uint64_t now) {
  const std::uint64_t all_ones = plan_.word_bytes >= 64 ? ~0ull : (1ull << plan_.word_bytes) - 1;
  if (w.wr_addr < rx_base_ || w.wr_be != all_ones) {
    fail(fmt::format("rail {}: DMA write at {:#x} (byte enables {:#x}) outside the receive slots or "
                     "not a whole word", rail, w.wr_addr, w.wr_be));
    return;
  }
  const std::size_t at = w.wr_addr - rx_base_;
  const std::size_t slot_index = at / plan_.slot_bytes;
  const std::size_t offset = at % plan_.slot_bytes;
  const int slot = static_cast<int>(slot_index % plan_.rx_slots);
  const int src = static_cast<int>(slot_index / plan_.rx_slots % plan_.nodes);
  const int region_rail = static_cast<int>(slot_index / plan_.rx_slots / plan_.nodes);
  const std::size_t j = offset / plan_.word_bytes;
  std::uint64_t f[8];   // the word's 64-bit fields (W <= 512)
  for (int k = 0; k < u64_per_word_ && k < 8; ++k) {
    f[k] = w.wr_data[2 * k] | static_cast<std::uint64_t>(w.wr_data[2 * k + 1]) << 32;
  }
  const std::uint64_t id = f[0];
  const int id_src = static_cast<int>(id >> 48), id_dst = static_cast<int>(id >> 32 & 0xffff);
  const int id_rail = static_cast<int>(id >> 24 & 0xff), id_flits = static_cast<int>(id >> 16 & 0xff);
  const auto seq = static_cast<std::uint16_t>(id & 0xffff);
  bool ok = offset % plan_.word_bytes == 0 && region_rail == rail && id_src == src && id_dst == node_ &&
            id_rail == rail && seq % plan_.rx_slots == slot && static_cast<int>(j) < id_flits - 1 &&
            f[1] <= f[2] && f[2] <= now;
  for (int k = 3; ok && k < u64_per_word_ && k < 8; ++k) ok = f[k] == fill(id, f[1], f[2], j, k);
  if (!ok) {
    fail(fmt::format("rail {}: wrong word written at {:#x} (slot {} of source {}, word {}): identity "
                     "{:016x}, created {}, posted {}",
                     rail, w.wr_addr, slot, src, j, id, f[1], f[2]));
    return;
  }
  auto& arriving = rails_[static_cast<std::size_t>(rail)].arriving;
  for (Arriving& a : arriving) {
    if (a.src == src && a.seq == seq) {
      if (a.created != f[1] || a.posted != f[2]) {
        fail(fmt::format("rail {}: message {} from node {} written with two creation cycles", rail, seq, src));
      }
      ++a.words;
      return;
    }
  }
  arriving.push_back({static_cast<std::uint16_t>(src), seq, 1, f[1], f[2]});
}

void NicTrafficHost::landed(int rail, const sysc::RxLanding& l, std::uint64_t now) {
  ++landed_;
  const int src = l.src;
  auto& arriving = rails_[static_cast<std::size_t>(rail)].arriving;
  auto it = std::find_if(arriving.begin(), arriving.end(),
                         [&](const Arriving& a) { return a.src == l.src && a.seq == l.seq; });
  const int flits = static_cast<int>(l.len / plan_.word_bytes) + 1;
  if (src >= plan_.nodes || l.bytes != l.len || l.len == 0 || l.len > plan_.slot_bytes ||
      l.len % plan_.word_bytes != 0 || l.tag != l.seq % plan_.rx_slots || it == arriving.end() ||
      it->words != flits - 1) {
    fail(fmt::format("rail {}: landing from {} (sequence {}, tag {}) of {} of {} bytes after {} good "
                     "words written",
                     rail, l.src, l.seq, l.tag, l.bytes, l.len, it == arriving.end() ? 0 : it->words));
    if (it != arriving.end()) arriving.erase(it);
    return;
  }
  const std::uint64_t created = it->created, posted = it->posted;
  arriving.erase(it);
  ++received_from_[static_cast<std::size_t>(rail) * plan_.nodes + src];
  if (created >= plan_.w0 && created < plan_.w1) {
    ++delivered_measured_;
    msg_latency_.add(now - created);
    net_latency_.add(now - posted);
  }
  if (now >= plan_.w0 && now < plan_.w1) window_flits_[static_cast<std::size_t>(rail)] += static_cast<std::uint64_t>(flits);
  digest_.add(static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint64_t>(rail) << 16 | l.seq);
  digest_.add(created);
  digest_.add(now);
}

std::uint64_t NicTrafficHost::withdraw() {
  std::uint64_t measured = 0;
  for (Rail& rl : rails_) {
    while (rl.posted.count < rl.created.count) {
      const std::uint64_t t = rl.posted.next;
      next_flits(rl.posted);
      if (t >= plan_.w0 && t < plan_.w1) ++measured;
    }
  }
  withdrawn_measured_ += measured;
  return measured;
}

bool NicTrafficHost::idle() const {
  if (generating_ || !settled()) return false;
  for (const Rail& rl : rails_) {
    if (rl.nic->has_completion()) return false;   // completions still to count
  }
  return true;
}

bool NicTrafficHost::settled() const {
  for (const Rail& rl : rails_) {
    if (rl.posted.count < rl.created.count || !rl.in_flight.empty()) return false;
  }
  return true;
}

}  // namespace hxemu::tb
