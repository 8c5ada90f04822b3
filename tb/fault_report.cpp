#include "tb/fault_report.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "tb/scoreboard.h"

namespace hxemu::tb {

namespace {

using PacketKey = std::tuple<int, int, int, std::uint64_t>;   // src, dst, rail, key

std::string link_name(const sysc::System& sys, int link) {
  const auto& info = sys.net().link_info(link);
  return sysc::port_label(sys, info.from) + " -> " + sysc::port_label(sys, info.to);
}

constexpr std::size_t kMaxLines = 40;

}  // namespace

FaultReport collect_fault_report(const sysc::System& sys, const std::vector<sysc::AppliedFailure>& applied,
                                 const sysc::FaultPlan& plan) {
  FaultReport r;
  r.failures = applied;
  r.flips = plan.flips;
  for (const auto& f : applied) r.first_failure = std::min(r.first_failure, f.cycle);
  std::map<PacketKey, std::size_t> lost;
  // Per packet: its first flip and, per (flit, bit), how many times it flipped.
  std::map<PacketKey, std::pair<FaultPacket, std::map<std::pair<int, int>, int>>> flips;
  using Kind = sysc::Network::FaultEvent::Kind;
  for (const auto& ev : sys.net().fault_events()) {
    const PacketKey k{ev.packet.src, ev.packet.dst, ev.packet.rail, ev.packet.key};
    switch (ev.kind) {
      case Kind::kLostSent:
      case Kind::kLostInFlight: {
        (ev.kind == Kind::kLostSent ? r.flits_lost_sent : r.flits_lost_in_flight) += 1;
        if (ev.packet.src < 0) {
          ++r.unnamed_lost_flits;
          break;
        }
        auto [it, fresh] = lost.emplace(k, r.lost_packets.size());
        if (fresh) {
          r.lost_packets.push_back({ev.packet.src, ev.packet.dst, ev.packet.rail, ev.packet.key, ev.cycle,
                                    link_name(sys, ev.link), 0});
        }
        ++r.lost_packets[it->second].flits;
        break;
      }
      case Kind::kFlipped: {
        ++r.bits_flipped;
        auto [it, fresh] = flips.try_emplace(k);
        if (fresh) {
          it->second.first = {ev.packet.src, ev.packet.dst, ev.packet.rail, ev.packet.key, ev.cycle,
                              link_name(sys, ev.link), 0};
        }
        ++it->second.first.flits;
        ++it->second.second[{ev.flit, ev.bit}];
        break;
      }
    }
  }
  for (const auto& [key, pf] : flips) {
    bool changed = false;
    for (const auto& [where, n] : pf.second) changed = changed || (n % 2 == 1);
    if (changed) {
      r.flipped_packets.push_back(pf.first);
    } else {
      ++r.flips_cancelled_packets;
    }
  }
  std::stable_sort(r.flipped_packets.begin(), r.flipped_packets.end(),
                   [](const FaultPacket& a, const FaultPacket& b) { return a.cycle < b.cycle; });
  return r;
}

void add_scoreboard(FaultReport& r, const Scoreboard& sb) {
  r.endpoints_seen = true;
  std::map<std::uint64_t, const FaultPacket*> lost_by_id;
  for (const auto& p : r.lost_packets) lost_by_id.emplace(p.key, &p);
  for (const auto& rec : sb.records()) {
    const bool after = rec.spec.created >= r.first_failure;
    if (after && !rec.withdrawn) {
      ++r.sent_after_failure;
      if (rec.deliveries > 0) ++r.delivered_after_failure;
    }
    if (rec.deliveries > 0 || rec.withdrawn) continue;
    const auto it = lost_by_id.find(rec.spec.id);
    std::string line = fmt::format("packet {} {}->{} ({} flits) created {} {}", rec.spec.id, rec.spec.src,
                                   rec.spec.dst, rec.spec.flits, rec.spec.created,
                                   rec.injected ? fmt::format("injected {}", rec.injected) : std::string("not injected"));
    if (it != lost_by_id.end()) {
      ++r.lost_undelivered;
      if (r.lost_lines.size() < kMaxLines) {
        r.lost_lines.push_back(fmt::format("{}: {} flit(s) lost on {} from cycle {}", line, it->second->flits,
                                           it->second->link, it->second->cycle));
      }
    } else {
      ++r.stuck_undelivered;
      if (r.stuck_lines.size() < kMaxLines) r.stuck_lines.push_back(line + ": no flit lost, still in the network");
    }
  }
}

std::string FaultReport::text() const {
  std::string s = "faults:\n";
  for (const auto& f : failures) {
    s += fmt::format("  link down from cycle {}: {} <-> {} ({}{})\n", f.cycle, f.port, f.peer,
                     sysc::link_class_name(f.cls),
                     f.routers_told ? fmt::format("; {} board routers told their edge is down", f.routers_told) : "");
  }
  if (flips.rate > 0.0) {
    std::string cls;
    for (int c = 0; c < 3; ++c) {
      if (flips.classes >> c & 1u) cls += (cls.empty() ? "" : ",") + std::string(sysc::link_class_name(static_cast<sysc::LinkClass>(c)));
    }
    s += fmt::format("  bit flips: rate {:g} per payload bit of body flits on {} links: {} bits; {} packets changed{}\n",
                     flips.rate, cls, bits_flipped, flipped_packets.size(),
                     flips_cancelled_packets
                         ? fmt::format(", {} more had a bit flipped twice (back as sent)", flips_cancelled_packets)
                         : "");
  }
  if (crc_on) s += fmt::format("  NIC CRC: {} corrupted packets detected\n", crc_errors);
  if (!failures.empty()) {
    s += fmt::format("  flits lost: {} sent onto a dead link, {} on a link when it died; {} packets named\n",
                     flits_lost_sent, flits_lost_in_flight, lost_packets.size());
    for (std::size_t i = 0; i < lost_packets.size() && i < kMaxLines; ++i) {
      const auto& p = lost_packets[i];
      s += fmt::format("    lost: {}->{} rail {} key {:#x}: {} flit(s) on {} from cycle {}\n", p.src, p.dst, p.rail,
                       p.key, p.flits, p.link, p.cycle);
    }
    if (lost_packets.size() > kMaxLines) s += fmt::format("    ... {} more\n", lost_packets.size() - kMaxLines);
  }
  if (endpoints_seen && !failures.empty()) {
    s += fmt::format("  sent after the first failure: {} packets, {} delivered{}\n", sent_after_failure,
                     delivered_after_failure, sent_after_failure == delivered_after_failure ? " (all)" : "");
    s += fmt::format("  never delivered: {} lost, {} stuck\n", lost_undelivered, stuck_undelivered);
    for (const auto& l : lost_lines) s += "    " + l + "\n";
    for (const auto& l : stuck_lines) s += "    " + l + "\n";
  }
  return s;
}

nlohmann::json FaultReport::json() const {
  nlohmann::json j;
  auto packets = [](const std::vector<FaultPacket>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : v) {
      a.push_back({{"src", p.src}, {"dst", p.dst}, {"rail", p.rail}, {"key", p.key}, {"cycle", p.cycle},
                   {"link", p.link}, {"count", p.flits}});
    }
    return a;
  };
  j["failures"] = nlohmann::json::array();
  for (const auto& f : failures) {
    j["failures"].push_back({{"port", f.port}, {"peer", f.peer}, {"cycle", f.cycle},
                             {"class", sysc::link_class_name(f.cls)}, {"routers_told", f.routers_told}});
  }
  j["flip_rate"] = flips.rate;
  j["bits_flipped"] = bits_flipped;
  j["flipped_packets"] = packets(flipped_packets);
  j["flips_cancelled_packets"] = flips_cancelled_packets;
  j["flits_lost_sent"] = flits_lost_sent;
  j["flits_lost_in_flight"] = flits_lost_in_flight;
  j["lost_packets"] = packets(lost_packets);
  if (crc_on) j["crc_errors"] = crc_errors;
  if (endpoints_seen) {
    j["sent_after_failure"] = sent_after_failure;
    j["delivered_after_failure"] = delivered_after_failure;
    j["undelivered_lost"] = lost_undelivered;
    j["undelivered_stuck"] = stuck_undelivered;
    j["lost_lines"] = lost_lines;
    j["stuck_lines"] = stuck_lines;
  }
  return j;
}

}  // namespace hxemu::tb
