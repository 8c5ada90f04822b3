#include "tb/router_bench.h"

#include <sstream>

#include "sysc/fabric/coord_word.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/route_model.h"
#include "tb/traffic/random_draw.h"

namespace hxemu::tb {

using sysc::Credit;
using sysc::Flit;

namespace {
constexpr int kIdWord = 2;   // head flits: words 0-1 carry the routing fields
}

RouterBench::RouterBench(const RouterBenchConfig& cfg) : cfg_(cfg), rng_(cfg.seed) {
  router_ = sysc::make_board_router(cfg.vcs, 256);
  sysc::RouterSetup s;
  s.mode = sysc::RouteMode::kHammingMesh;
  s.adaptive = cfg.adaptive;
  if (cfg.margin_eighths >= 0) s.margin_eighths = cfg.margin_eighths;
  s.local_row = cfg.row;
  s.local_col = cfg.col;
  s.board_rows = cfg.board_rows;
  s.board_cols = cfg.board_cols;
  s.vc = sysc::make_vc_plan(cfg.vcs, 1, cfg.vcs, sysc::VcPolicy::kDynamic);
  s.out_depth.fill(cfg.out_depth);
  router_->reset(s);
  setup_ = s;
  for (int p = 0; p < 5; ++p) {
    in_links_.emplace_back(cfg.link_latency);
    out_links_.emplace_back(cfg.link_latency);
    tx_[p].credits.fill(cfg.in_depth);
    rx_[p].open_packet.fill(-1);
  }
}

std::uint32_t RouterBench::payload_word(std::uint32_t packet, int flit, int word) {
  std::uint64_t x = (std::uint64_t{packet} << 32) ^ (static_cast<std::uint64_t>(flit) << 8) ^
                    static_cast<std::uint64_t>(word);
  x *= 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return static_cast<std::uint32_t>(x);
}

int RouterBench::dor_port(int dst_row, int dst_col) const {
  return sysc::dor_port(cfg_.row, cfg_.col, dst_row, dst_col);
}

std::pair<int, int> RouterBench::dst_for(int out) const {
  switch (out) {
    case sysc::kPortN: return {cfg_.row - 1, cfg_.col};
    case sysc::kPortE: return {cfg_.row, cfg_.col + 1};
    case sysc::kPortS: return {cfg_.row + 1, cfg_.col};
    case sysc::kPortW: return {cfg_.row, cfg_.col - 1};
    default: return {cfg_.row, cfg_.col};
  }
}

std::vector<int> RouterBench::legal_outputs(int in) {
  using namespace sysc;   // kPortN ...
  constexpr int N = kPortN, E = kPortE, S = kPortS, W = kPortW, L = kPortLocal;
  switch (in) {
    case L: return {N, E, S, W, L};
    case W: return {E, N, S, L};   // travelling east
    case E: return {W, N, S, L};   // travelling west
    case N: return {S, L};         // travelling south
    default: return {N, L};        // S: travelling north
  }
}

std::uint32_t RouterBench::send(int port, int vc, int dst_row, int dst_col, int flits) {
  BenchPacket p;
  p.id = static_cast<std::uint32_t>(packets_.size());
  p.in_port = port;
  p.in_vc = vc;
  p.dst_row = dst_row;
  p.dst_col = dst_col;
  p.flits = flits;
  p.expected_port = dor_port(dst_row, dst_col);
  sysc::RouteDecision alt;
  if (sysc::route_board_alternative(setup_, 0, sysc::pack_coord({0, 0, dst_row, dst_col}), alt)) {
    p.alt_port = alt.port;
  }
  p.created = now_;
  packets_.push_back(p);
  seen_.emplace_back(flits, false);
  flits_seen_.push_back(0);
  tx_[port].queue[vc].push_back(p.id);
  return p.id;
}

Flit RouterBench::make_flit(const BenchPacket& p, int index) const {
  Flit f;
  f.valid = true;
  f.head = index == 0;
  f.tail = index == p.flits - 1;
  f.vc = static_cast<std::uint8_t>(p.in_vc);
  const int words = 256 / 32;
  for (int w = 0; w < words; ++w) f.data[w] = payload_word(p.id, index, w);
  if (f.head) {
    f.data[0] = 0;
    f.data[1] = 0;
    sysc::set_field(f, sysc::hdr::kDstLocalRow, static_cast<std::uint64_t>(p.dst_row));
    sysc::set_field(f, sysc::hdr::kDstLocalCol, static_cast<std::uint64_t>(p.dst_col));
    f.data[kIdWord] = p.id;
    f.data[kIdWord + 1] = 0;
  } else {
    f.data[0] = p.id;
    f.data[1] = static_cast<std::uint32_t>(index);
  }
  return f;
}

void RouterBench::error(const std::string& what) {
  std::ostringstream os;
  os << "cycle " << now_ << ": " << what;
  errors_.push_back(os.str());
}

void RouterBench::receive(int port, const Flit& f, std::uint64_t out_cycle) {
  const std::uint32_t id = f.head ? f.data[kIdWord] : f.data[0];
  if (id >= packets_.size()) {
    error("flit of unknown packet on port " + std::string(sysc::port_name(port)));
    return;
  }
  const BenchPacket& p = packets_[id];
  Receiver& r = rx_[port];
  int index = 0;
  if (f.head) {
    if (r.open_packet[f.vc] >= 0) {
      error("packet " + std::to_string(id) + " starts on a VC still owned by packet " +
            std::to_string(r.open_packet[f.vc]));
    }
    index = 0;
  } else {
    index = static_cast<int>(f.data[1]);
    if (r.open_packet[f.vc] != static_cast<std::int64_t>(id) || index != r.next_flit[f.vc]) {
      error("flit " + std::to_string(index) + " of packet " + std::to_string(id) +
            " is not contiguous on its VC");
    }
  }
  if (f.tail) {
    r.open_packet[f.vc] = -1;
  } else {
    r.open_packet[f.vc] = id;
    r.next_flit[f.vc] = index + 1;
  }
  if (port != p.expected_port && port != p.alt_port) {
    error("packet " + std::to_string(id) + " left on port " + sysc::port_name(port) +
          ", expected " + sysc::port_name(p.expected_port) +
          (p.alt_port >= 0 ? std::string(" or ") + sysc::port_name(p.alt_port) : std::string()));
  }
  if (index < 0 || index >= p.flits) {
    error("packet " + std::to_string(id) + " flit index out of range");
    return;
  }
  if (f.head != (index == 0) || f.tail != (index == p.flits - 1)) {
    error("packet " + std::to_string(id) + " head/tail flags wrong on flit " +
          std::to_string(index));
  }
  const Flit want = make_flit(p, index);
  for (int w = 0; w < 8; ++w) {
    if (want.data[w] != f.data[w]) {
      error("packet " + std::to_string(id) + " flit " + std::to_string(index) +
            " payload corrupted");
      break;
    }
  }
  if (seen_[id][index]) {
    error("packet " + std::to_string(id) + " flit " + std::to_string(index) + " duplicated");
  }
  seen_[id][index] = true;
  if (++flits_seen_[id] == p.flits) ++done_packets_;
  arrivals_.push_back({id, index, port, f.vc, out_cycle});
  ++flits_out_[port];
}

void RouterBench::step() {
  const std::uint64_t now = now_;
  // Senders: collect credits, then put at most one flit on the link.
  for (int p = 0; p < 5; ++p) {
    Sender& s = tx_[p];
    if (in_links_[p].has_credit(now)) {
      const Credit c = in_links_[p].take_credit(now);
      if (++s.credits[c.vc] > cfg_.in_depth) error("router returned a credit too many");
    }
    for (int k = 0; k < cfg_.vcs; ++k) {
      const int v = (s.rr + k) % cfg_.vcs;
      if (s.queue[v].empty() || s.credits[v] == 0) continue;
      const BenchPacket& pk = packets_[s.queue[v].front()];
      const Flit f = make_flit(pk, s.next_flit[v]);
      in_links_[p].send_flit(now, f);
      --s.credits[v];
      if (f.tail) {
        s.queue[v].pop_front();
        s.next_flit[v] = 0;
      } else {
        ++s.next_flit[v];
      }
      s.rr = (v + 1) % cfg_.vcs;
      break;
    }
  }

  // Router inputs for this cycle, edge, outputs.
  router_->clear_inputs();
  for (int p = 0; p < 5; ++p) {
    if (in_links_[p].has_flit(now)) {
      const Flit f = in_links_[p].take_flit(now);
      if (f.head) head_in_[f.data[kIdWord]] = now;
      router_->set_flit_in(p, f);
    }
    if (out_links_[p].has_credit(now)) router_->set_credit_in(p, out_links_[p].take_credit(now));
  }
  router_->tick();
  for (int p = 0; p < 5; ++p) {
    Flit f;
    if (router_->flit_out(p, f)) {
      receive(p, f, now + 1);
      out_links_[p].send_flit(now, f);
    }
    const Credit c = router_->credit_out(p);
    if (c.valid) in_links_[p].send_credit(now, c);
  }

  // Receivers: buffer what arrives, drain one flit, return its credit.
  for (int p = 0; p < 5; ++p) {
    Receiver& r = rx_[p];
    if (r.dead) {
      if (out_links_[p].has_flit(now)) (void)out_links_[p].take_flit(now);
      continue;
    }
    if (out_links_[p].has_flit(now)) {
      const Flit f = out_links_[p].take_flit(now);
      if (f.vc >= cfg_.vcs) {
        error("flit on a VC that does not exist");
      } else if (static_cast<int>(r.buf[f.vc].size()) >= cfg_.out_depth) {
        error(std::string("router overflowed the receiver buffer on port ") +
              sysc::port_name(p) + " VC " + std::to_string(f.vc));
      } else {
        r.buf[f.vc].push_back(f);
      }
    }
    if (r.stalled) continue;
    if (drain_prob_ < 1.0 && unit_uniform(rng_) >= drain_prob_) {
      continue;
    }
    for (int k = 0; k < cfg_.vcs; ++k) {
      const int v = (r.rr + k) % cfg_.vcs;
      if (r.buf[v].empty()) continue;
      r.buf[v].pop_front();
      out_links_[p].send_credit(now, Credit{true, static_cast<std::uint8_t>(v)});
      r.rr = (v + 1) % cfg_.vcs;
      break;
    }
  }
  if (router_->error()) error("router flagged a credit-protocol error");
  ++now_;
}

bool RouterBench::all_credits_home() const {
  for (const auto& s : tx_) {
    for (int v = 0; v < cfg_.vcs; ++v) {
      if (s.credits[v] != cfg_.in_depth) return false;
    }
  }
  return true;
}

bool RouterBench::receivers_empty() const {
  for (int p = 0; p < 5; ++p) {
    for (int v = 0; v < cfg_.vcs; ++v) {
      if (!rx_[p].buf[v].empty()) return false;
    }
    if (out_links_[p].flits_in_flight() != 0) return false;
  }
  return true;
}

bool RouterBench::drain(std::uint64_t max_cycles) {
  const std::uint64_t end = now_ + max_cycles;
  while (now_ < end) {
    step();
    if (done_packets_ == packets_.size() && receivers_empty() && all_credits_home() &&
        router_->idle()) {
      // A few more cycles for the last credits to come back to the router.
      for (int i = 0; i < 2 * cfg_.link_latency + 4; ++i) step();
      return true;
    }
  }
  return false;
}

}  // namespace hxemu::tb
