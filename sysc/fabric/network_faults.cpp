// Network: failed links and bit errors (the parts off the per-cycle path; the checks on it are in
// network.cpp's step_block).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "sysc/fabric/network.h"

namespace hxemu::sysc {

namespace {

// splitmix64: a small, well-mixed generator; one state word per link.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Bits up to (not including) the next flipped one: geometric with parameter `rate`.
std::uint64_t gap_to_flip(std::uint64_t& state, double rate) {
  const double u = (static_cast<double>(next_random(state) >> 11) + 0.5) * 0x1.0p-53;   // (0, 1)
  const double g = std::floor(std::log(u) / std::log1p(-rate));
  return g >= 1e18 ? ~0ull >> 1 : static_cast<std::uint64_t>(g);
}

}  // namespace

void Network::fail_link(int i, std::uint64_t at) {
  if (i < 0 || i >= links()) throw std::out_of_range("Network::fail_link: no link " + std::to_string(i));
  faults_on_ = true;
  send_log_.resize(links_.size());
  recv_log_.resize(links_.size());
  down_from_[i] = std::min(down_from_[i], at);
}

void Network::schedule_block_fault(int b, std::uint64_t at, int port, std::uint32_t edges) {
  if (b < 0 || b >= blocks()) throw std::out_of_range("Network::schedule_block_fault: no block " + std::to_string(b));
  BlockEntry& e = blocks_[b];
  auto it = std::upper_bound(e.faults.begin() + static_cast<std::ptrdiff_t>(e.next_fault), e.faults.end(), at,
                             [](std::uint64_t t, const BlockEntry::Pending& x) { return t < x.at; });
  e.faults.insert(it, BlockEntry::Pending{at, port, edges});
  e.next_fault_at = e.faults[e.next_fault].at;
}

void Network::apply_block_faults(BlockEntry& e, std::uint64_t now) {
  while (e.next_fault < e.faults.size() && e.faults[e.next_fault].at <= now) {
    const BlockEntry::Pending& f = e.faults[e.next_fault++];
    if (f.port >= 0) e.block->set_port_down(f.port);
    if (f.edges != 0) e.block->set_edges_down(f.edges);
  }
  e.next_fault_at = e.next_fault < e.faults.size() ? e.faults[e.next_fault].at : ~0ull;
}

void Network::set_bit_flips(double rate, unsigned classes, std::uint64_t seed) {
  if (!(rate >= 0.0 && rate < 1.0)) throw std::invalid_argument("bit flip rate must be in [0, 1)");
  faults_on_ = true;
  send_log_.resize(links_.size());
  recv_log_.resize(links_.size());
  flip_rate_ = rate;
  flip_classes_ = classes;
  flip_rng_.assign(links_.size(), 0);
  flip_gap_.assign(links_.size(), 0);
  if (rate <= 0.0) return;
  for (std::size_t l = 0; l < links_.size(); ++l) {
    flip_rng_[l] = seed ^ (0xD1B54A32D192ED03ull * (l + 1));
    flip_gap_[l] = gap_to_flip(flip_rng_[l], rate);
  }
}

void Network::flip_bits(int link, Flit& f, int flit_bits, std::uint64_t now) {
  std::uint64_t& gap = flip_gap_[link];
  const auto w = static_cast<std::uint64_t>(flit_bits);
  while (gap < w) {
    f.data[gap / 32] ^= 1u << (gap % 32);
    const std::optional<VcPacket> pk = vc_state(link, f.vc).back();
    log_fault(send_log_[link], FaultEvent::Kind::kFlipped, link, now, f, pk);
    send_log_[link].back().bit = static_cast<int>(gap);
    send_log_[link].back().flit = pk ? pk->sent : -1;   // counted before this flit
    const std::uint64_t g = gap_to_flip(flip_rng_[link], flip_rate_);
    gap = g > (~0ull >> 2) ? g : gap + 1 + g;
  }
  gap -= w;
}

void Network::log_fault(std::vector<FaultEvent>& log, FaultEvent::Kind kind, int link, std::uint64_t now,
                        const Flit& f, const std::optional<VcPacket>& pk) {
  FaultEvent ev;
  ev.kind = kind;
  ev.link = link;
  ev.cycle = now;
  ev.vc = f.vc;
  ev.head = f.head;
  ev.tail = f.tail;
  if (pk) {
    ev.packet = *pk;
  } else if (f.head) {
    ev.packet = VcTrack::packet_of(head_of(f));
  }
  log.push_back(ev);
}

std::vector<Network::FaultEvent> Network::fault_events() const {
  std::vector<FaultEvent> all;
  for (const auto* logs : {&send_log_, &recv_log_}) {
    for (const auto& l : *logs) all.insert(all.end(), l.begin(), l.end());
  }
  std::stable_sort(all.begin(), all.end(), [](const FaultEvent& a, const FaultEvent& b) {
    return std::tie(a.cycle, a.link, a.kind) < std::tie(b.cycle, b.link, b.kind);
  });
  return all;
}

}  // namespace hxemu::sysc
