#include "nic_bench.h"

#include <algorithm>
#include <sstream>

namespace hxemu::nictest {

PutCost put_cost(std::uint32_t src, std::uint32_t dst, std::uint32_t len, int pkt_flits, int b) {
  PutCost c;
  const std::uint64_t cap = static_cast<std::uint64_t>(pkt_flits - 1) * b;
  if (len == 0) {
    c.packets = 1;
    c.flits = 1;
    return c;
  }
  for (std::uint64_t off = 0; off < len; off += cap) {
    const std::uint64_t pb = std::min<std::uint64_t>(cap, len - off);
    c.packets += 1;
    // Each packet reads the source words covering its bytes; packets carry whole words, so every
    // packet sits at the source's offset and an unaligned source re-reads the word two share.
    c.reads += static_cast<int>((src % b + pb + b - 1) / b);
    c.flits += 1 + static_cast<int>((pb + b - 1) / b);
    c.writes += static_cast<int>(((dst + off) % b + pb + b - 1) / b);
  }
  return c;
}

bool NicNode::tx_completed_each_once() const {
  if (txcs.size() != posted.size()) return false;
  auto key = [](std::uint16_t dst, std::uint16_t tag) { return std::uint32_t{dst} << 16 | tag; };
  std::vector<std::uint32_t> want, got;
  for (const auto& p : posted) want.push_back(key(p.cmd.dst, p.cmd.tag));
  for (const auto& t : txcs) got.push_back(key(t.c.dst, t.c.tag));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  return want == got;
}

std::uint64_t NicNode::tx_completion_cycle(std::uint16_t dst, std::uint16_t tag) const {
  for (const auto& t : txcs) {
    if (t.c.dst == dst && t.c.tag == tag) return t.cycle;
  }
  return UINT64_MAX;
}

std::uint8_t pattern(std::uint32_t seed, std::uint32_t addr) {
  std::uint32_t x = addr * 0x9E3779B1u ^ seed * 0x85EBCA77u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return static_cast<std::uint8_t>(x);
}

// ---- NicNode ---------------------------------------------------------------------------------

NicNode::NicNode(int vcs, const NicSetup& setup, std::size_t mem_bytes, int read_latency)
    : NicNode(sysc::make_nic(vcs, kFlitBits), setup, mem_bytes, read_latency) {}

NicNode::NicNode(std::unique_ptr<NicBlock> nic, const NicSetup& setup, std::size_t mem_bytes,
                 int read_latency)
    : setup_(setup), nic_(std::move(nic)), mem_(mem_bytes, nic_->flit_bits(), read_latency) {
  nic_->reset(setup);
}

void NicNode::step(std::uint64_t now) {
  NicBlock& n = *nic_;
  n.clear_inputs();
  if (rx && rx->has_flit(now)) {
    const Flit f = rx->take_flit(now);
    if (record_flits && f.head) heads_in.push_back({now, f});
    n.set_flit_in(0, f);
  }
  if (tx && tx->has_credit(now)) n.set_credit_in(0, tx->take_credit(now));
  if (!pending.empty() && n.cmd_ready()) {
    n.set_cmd(pending.front());
    posted.push_back({now, pending.front()});
    pending.pop_front();
  }
  const bool tr = txc_ready(now);
  n.set_txc_ready(tr);
  if (tr && n.txc_valid()) txcs.push_back({now, n.txc()});
  const bool rr = rxc_ready(now);
  n.set_rxc_ready(rr);
  if (rr && n.rxc_valid()) {
    landing_cycles.push_back(now);
    assembler.add(n.rxc());
    RxCompletion c;
    while (assembler.pop(c)) rxcs.push_back({now, c});
  }
  if (!n.idle()) ++busy_cycles;

  const bool quiet = (skip_when_idle && n.idle() && mem_.reads_in_flight() == 0) ||
                     (skip_when_waiting && n.waiting() && mem_.next_read_due() > now);
  if (quiet && !n.has_valid_input()) {
    ++skipped;
    return;
  }
  mem_.set_read_ready(rd_ready(now));
  mem_.set_write_ready(wr_ready(now));
  sysc::serve_dma(n, mem_, now);
  n.tick();
  ++ticks;

  Flit f;
  if (n.flit_out(0, f)) {
    // The flit is on the link in the next cycle.
    if (record_flits) flits_out.push_back({now + 1, f});
    ++flits_sent;
    if (f.head) ++heads_sent;
    first_flit_cycle = std::min(first_flit_cycle, now + 1);
    last_flit_cycle = now + 1;
    if (tx) tx->send_flit(now, f);
  }
  const Credit c = n.credit_out(0);
  if (c.valid && rx) rx->send_credit(now, c);
}

// ---- Pipe ------------------------------------------------------------------------------------

void Pipe::step(std::uint64_t now) {
  if (in_.has_flit(now)) out_.send_flit(now, in_.take_flit(now));
  if (out_.has_credit(now)) credits_.push_back(out_.take_credit(now));
  if (!hold(now) && !credits_.empty()) {
    in_.send_credit(now, credits_.front());
    credits_.pop_front();
  }
}

// ---- Reorderer -------------------------------------------------------------------------------

Reorderer::Reorderer(Link& in, Link& out, int vcs, int out_credits)
    : in_(in), out_(out), credits_(vcs, out_credits) {}

void Reorderer::release(const std::vector<int>& order) {
  for (int p : order) queue_.push_back(p);
}

void Reorderer::step(std::uint64_t now) {
  if (in_.has_flit(now)) {
    const Flit f = in_.take_flit(now);
    in_.send_credit(now, Credit{true, f.vc});
    cur_.push_back(f);
    if (f.tail) {
      packets_.push_back(cur_);
      cur_.clear();
    }
  }
  if (out_.has_credit(now)) {
    const Credit c = out_.take_credit(now);
    ++credits_.at(c.vc);
  }
  // Refill the lanes when both are empty: the next two packets of the release order.
  if (lane_[0].empty() && lane_[1].empty()) {
    for (int l = 0; l < 2 && !queue_.empty(); ++l) {
      for (Flit f : packets_.at(queue_.front())) {
        f.vc = static_cast<std::uint8_t>(l);
        lane_[l].push_back(f);
      }
      queue_.pop_front();
    }
  }
  for (int k = 0; k < 2; ++k) {
    const int l = (turn_ + k) % 2;
    if (!lane_[l].empty() && credits_[l] > 0) {
      --credits_[l];
      out_.send_flit(now, lane_[l].front());
      lane_[l].pop_front();
      turn_ = 1 - l;
      break;
    }
  }
}

// ---- Crossbar --------------------------------------------------------------------------------

Crossbar::Crossbar(int ports, int vcs, int depth, int out_credits, std::uint32_t seed)
    : ports_(ports),
      vcs_(vcs),
      depth_(depth),
      out_credits_(out_credits),
      from_(ports, nullptr),
      to_(ports, nullptr),
      in_(ports, std::vector<InVc>(vcs)),
      owner_(ports, std::vector<int>(vcs, -1)),
      credits_(ports, std::vector<int>(vcs, out_credits)),
      rng_(seed) {}

void Crossbar::connect(int port, Link* from_nic, Link* to_nic) {
  from_.at(port) = from_nic;
  to_.at(port) = to_nic;
}

bool Crossbar::empty() const {
  for (const auto& p : in_) {
    for (const auto& v : p) {
      if (!v.buf.empty() || v.active) return false;
    }
  }
  return true;
}

void Crossbar::dump(std::ostream& os) const {
  for (int p = 0; p < ports_; ++p) {
    for (int v = 0; v < vcs_; ++v) {
      const InVc& s = in_[p][v];
      os << "xbar in " << p << " vc " << v << ": " << s.buf.size() << " flits"
         << (s.active ? " active -> " + std::to_string(s.out) + "." + std::to_string(s.out_vc) : "")
         << (s.buf.empty() ? "" : s.buf.front().head ? " front head" : " front body") << "\n";
    }
  }
  for (int o = 0; o < ports_; ++o) {
    for (int v = 0; v < vcs_; ++v) {
      os << "xbar out " << o << " vc " << v << ": owner " << owner_[o][v] << " credits "
         << credits_[o][v] << "\n";
    }
  }
}

void Crossbar::step(std::uint64_t now) {
  // Forward first (a flit waits at least one cycle in its buffer), then accept arrivals.
  std::vector<bool> in_used(ports_, false);
  std::vector<int> outs(ports_);
  for (int o = 0; o < ports_; ++o) outs[o] = o;
  std::shuffle(outs.begin(), outs.end(), rng_);
  for (int o : outs) {
    std::vector<std::pair<int, int>> cand;   // (input, vc)
    for (int p = 0; p < ports_; ++p) {
      if (in_used[p]) continue;
      for (int v = 0; v < vcs_; ++v) {
        InVc& s = in_[p][v];
        if (s.buf.empty()) continue;
        if (s.active) {
          if (s.out == o && credits_[o][s.out_vc] > 0) cand.push_back({p, v});
        } else {
          const Flit& h = s.buf.front();
          if (!h.head) {
            errors_.push_back("crossbar: body flit without a head on input " + std::to_string(p));
            continue;
          }
          const int dst = static_cast<int>(sysc::get_field(h, sysc::hdr::kDst));
          if (dst != o) continue;
          for (int ov = 0; ov < vcs_; ++ov) {
            if (owner_[o][ov] < 0 && credits_[o][ov] > 0) {
              cand.push_back({p, v});
              break;
            }
          }
        }
      }
    }
    if (cand.empty()) continue;
    const auto [p, v] = cand[std::uniform_int_distribution<int>(0, cand.size() - 1)(rng_)];
    InVc& s = in_[p][v];
    if (!s.active) {
      std::vector<int> free;
      for (int ov = 0; ov < vcs_; ++ov) {
        if (owner_[o][ov] < 0 && credits_[o][ov] > 0) free.push_back(ov);
      }
      s.active = true;
      s.out = o;
      s.out_vc = free[std::uniform_int_distribution<int>(0, free.size() - 1)(rng_)];
      owner_[o][s.out_vc] = p * vcs_ + v;
    }
    Flit f = s.buf.front();
    s.buf.pop_front();
    f.vc = static_cast<std::uint8_t>(s.out_vc);
    --credits_[o][s.out_vc];
    to_[o]->send_flit(now, f);
    from_[p]->send_credit(now, Credit{true, static_cast<std::uint8_t>(v)});
    in_used[p] = true;
    ++flits_;
    if (f.tail) {
      owner_[o][s.out_vc] = -1;
      s.active = false;
    }
  }
  for (int p = 0; p < ports_; ++p) {
    if (from_[p] && from_[p]->has_flit(now)) {
      const Flit f = from_[p]->take_flit(now);
      InVc& s = in_[p].at(f.vc);
      if (static_cast<int>(s.buf.size()) >= depth_) {
        errors_.push_back("crossbar: input " + std::to_string(p) + " VC " + std::to_string(f.vc) +
                          " overflow (sender ignored credits)");
      } else {
        s.buf.push_back(f);
      }
    }
    if (to_[p] && to_[p]->has_credit(now)) {
      const Credit c = to_[p]->take_credit(now);
      if (++credits_[p].at(c.vc) > out_credits_) {
        errors_.push_back("crossbar: output " + std::to_string(p) + " got a credit too many");
      }
    }
  }
}

// ---- World -----------------------------------------------------------------------------------

NicNode& World::add_node(int vcs, const NicSetup& setup, std::size_t mem_bytes, int read_latency) {
  return adopt(std::make_unique<NicNode>(vcs, setup, mem_bytes, read_latency));
}

NicNode& World::add_node(std::unique_ptr<NicBlock> nic, const NicSetup& setup,
                         std::size_t mem_bytes, int read_latency) {
  return adopt(std::make_unique<NicNode>(std::move(nic), setup, mem_bytes, read_latency));
}

NicNode& World::adopt(std::unique_ptr<NicNode> node) {
  nodes_.push_back(std::move(node));
  NicNode& n = *nodes_.back();
  const std::size_t mem_bytes = n.mem().size();
  const NicSetup& setup = n.setup();
  std::vector<std::uint8_t> m(mem_bytes);
  for (std::size_t a = 0; a < mem_bytes; ++a) {
    m[a] = pattern(static_cast<std::uint32_t>(setup.node), static_cast<std::uint32_t>(a));
  }
  n.mem().write(0, m.data(), mem_bytes);
  expected_.push_back(std::move(m));
  queued_.push_back(0);
  for (auto& row : puts_) row.resize(nodes_.size());
  puts_.emplace_back(nodes_.size());
  return n;
}

Link& World::add_link(int latency) {
  links_.push_back(std::make_unique<Link>(latency));
  return *links_.back();
}

void World::connect_back_to_back(NicNode& a, NicNode& b, int latency) {
  Link& ab = add_link(latency);
  Link& ba = add_link(latency);
  a.tx = &ab;
  b.rx = &ab;
  b.tx = &ba;
  a.rx = &ba;
}

void World::put(NicNode& from, const NicCommand& c) {
  int s = -1;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].get() == &from) s = static_cast<int>(i);
  }
  const int d = c.dst;
  nodes_.at(s)->mem().read(c.src_addr, expected_.at(d).data() + c.dst_addr, c.len);
  from.pending.push_back(c);
  ++queued_.at(s);
  puts_.at(s).at(d).push_back(c);
}

void World::expect_bytes(int node, std::uint32_t addr, const std::uint8_t* data, std::size_t n) {
  std::copy(data, data + n, expected_.at(node).begin() + addr);
}

const std::vector<NicCommand>& World::puts(int src, int dst) const { return puts_.at(src).at(dst); }

void World::step() {
  for (auto& n : nodes_) n->step(now);
  for (auto& f : fabrics) f(now);
  ++now;
}

bool World::run_until(const std::function<bool()>& pred, std::uint64_t max_cycles) {
  for (std::uint64_t i = 0; i < max_cycles; ++i) {
    if (pred()) return true;
    step();
  }
  return pred();
}

bool World::all_done() const {
  std::uint64_t received = 0;
  std::uint64_t queued = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->txcs.size() != queued_[i]) return false;
    received += nodes_[i]->rxcs.size();
    queued += queued_[i];
  }
  return received == queued;
}

bool World::memories_match(std::string& why) const {
  std::ostringstream os;
  int bad = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const std::vector<std::uint8_t> m = nodes_[i]->mem().bytes(0, nodes_[i]->mem().size());
    const auto& e = expected_[i];
    for (std::size_t a = 0; a < e.size(); ++a) {
      if (m[a] != e[a]) {
        if (bad < 8) {
          os << "node " << i << " byte 0x" << std::hex << a << ": 0x" << int(m[a])
             << " expected 0x" << int(e[a]) << std::dec << "\n";
        }
        ++bad;
      }
    }
  }
  if (bad) os << bad << " bytes differ";
  why = os.str();
  return bad == 0;
}

}  // namespace hxemu::nictest
