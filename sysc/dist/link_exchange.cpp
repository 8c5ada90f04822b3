#include "sysc/dist/link_exchange.h"

#include <map>
#include <stdexcept>

#include "sysc/dist/byte_message.h"
#include "sysc/dist/ranks.h"
#include "sysc/system/system.h"

namespace hxemu::sysc {

LinkExchange::LinkExchange(System& sys) : sys_(sys) {
  if (sys.ranks() <= 1) return;
  Network& net = sys.net();
  const int me = Ranks::rank();
  std::map<int, Peer> peers;
  for (int l = 0; l < net.links(); ++l) {
    const auto& info = net.link_info(l);
    const int from = sys.partition_rank(sys.partition_of_block(info.from.block));
    const int to = sys.partition_rank(sys.partition_of_block(info.to.block));
    if (from == to) continue;
    if (from == me) {
      Peer& p = peers[to];
      p.send_flits.push_back(l);
      p.recv_credits.push_back(l);
    } else if (to == me) {
      Peer& p = peers[from];
      p.recv_flits.push_back(l);
      p.send_credits.push_back(l);
    }
  }
  for (auto& [rank, p] : peers) {
    p.rank = rank;
    peer_ranks_.push_back(rank);
    peers_.push_back(std::move(p));
  }
  out_.resize(peers_.size());
}

// Message per peer: for each of its send_flits links, a count and (arrival offset, flit) pairs;
// then for each send_credits link, a count and (arrival offset, VC) pairs. Arrival cycles of what
// was sent in [t0, t1) over a link of latency L are t0 + 1 + L .. t1 + L.
//
// Everything still on a link's sending side was sent in this window (the exchange before took the
// rest), so the link's counters say how many flits and credits there are: the message is sized
// once, written in place, and a link's slots are read only up to its last flit or credit (at
// load 0.3 on hx4mesh-1024 most cross-rank links carry one or two in a window of 11 cycles).
void LinkExchange::exchange(std::uint64_t t0, std::uint64_t t1) {
  Network& net = sys_.net();
  constexpr std::size_t kCount = sizeof(std::uint32_t);
  constexpr std::size_t kFlitItem = sizeof(std::uint32_t) + sizeof(Flit);
  constexpr std::size_t kCreditItem = sizeof(std::uint32_t) + sizeof(std::uint8_t);
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    const Peer& peer = peers_[i];
    std::size_t bytes = kCount * (peer.send_flits.size() + peer.send_credits.size());
    for (int l : peer.send_flits) bytes += kFlitItem * net.link(l).flits_waiting();
    for (int l : peer.send_credits) bytes += kCreditItem * net.link(l).credits_waiting();
    std::string& s = out_[i];
    s.resize(bytes);
    char* w = s.data();
    for (int l : peer.send_flits) {
      Link& link = net.link(l);
      const std::uint64_t a0 = t0 + 1 + static_cast<std::uint64_t>(link.latency());
      const auto n = static_cast<std::uint32_t>(link.flits_waiting());
      put_bytes_at(w, n);
      Flit f;
      for (std::uint64_t a = a0, left = n; left > 0 && a < a0 + (t1 - t0); ++a) {
        if (!link.pull_flit(a, f)) continue;
        put_bytes_at(w, static_cast<std::uint32_t>(a - a0));
        put_bytes_at(w, f);
        --left;
      }
      flits_sent_ += n;
    }
    for (int l : peer.send_credits) {
      Link& link = net.link(l);
      const std::uint64_t a0 = t0 + 1 + static_cast<std::uint64_t>(link.latency());
      const auto n = static_cast<std::uint32_t>(link.credits_waiting());
      put_bytes_at(w, n);
      Credit c;
      for (std::uint64_t a = a0, left = n; left > 0 && a < a0 + (t1 - t0); ++a) {
        if (!link.pull_credit(a, c)) continue;
        put_bytes_at(w, static_cast<std::uint32_t>(a - a0));
        put_bytes_at(w, c.vc);
        --left;
      }
    }
    // Every counted flit and credit was in the window's slots (else the message would be short).
    if (w != s.data() + s.size()) {
      throw std::logic_error("LinkExchange: a link held a flit or credit sent before this window");
    }
  }
  Ranks::exchange(peer_ranks_, out_, in_);
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    const std::string& s = in_[i];
    std::size_t pos = 0;
    for (int l : peers_[i].recv_flits) {
      Link& link = net.link(l);
      const std::uint64_t a0 = t0 + 1 + static_cast<std::uint64_t>(link.latency());
      const auto n = get_bytes<std::uint32_t>(s, pos);
      for (std::uint32_t k = 0; k < n; ++k) {
        const auto off = get_bytes<std::uint32_t>(s, pos);
        link.put_flit(a0 + off, get_bytes<Flit>(s, pos));
      }
    }
    for (int l : peers_[i].recv_credits) {
      Link& link = net.link(l);
      const std::uint64_t a0 = t0 + 1 + static_cast<std::uint64_t>(link.latency());
      const auto n = get_bytes<std::uint32_t>(s, pos);
      for (std::uint32_t k = 0; k < n; ++k) {
        const auto off = get_bytes<std::uint32_t>(s, pos);
        Credit c;
        c.valid = true;
        c.vc = get_bytes<std::uint8_t>(s, pos);
        link.put_credit(a0 + off, c);
      }
    }
    if (pos != s.size()) throw std::runtime_error("LinkExchange: long message from a peer rank");
  }
}

}  // namespace hxemu::sysc
