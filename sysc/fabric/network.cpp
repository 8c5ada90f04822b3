#include "sysc/fabric/network.h"
#include "sysc/fabric/network_step.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace hxemu::sysc {

const char* link_class_name(LinkClass c) {
  switch (c) {
    case LinkClass::kBoard: return "board";
    case LinkClass::kCable: return "cable";
    case LinkClass::kTerminal: return "terminal";
  }
  return "?";
}

int Network::add_block(std::unique_ptr<LinkBlock> block, std::string name) {
  BlockEntry e;
  e.ports.resize(block->ports());
  ticks_skipped_.push_back(0);
  ticks_done_.push_back(0);
  block_clock_.push_back(nullptr);
  port_base_.push_back(static_cast<int>(stalls_credit_.size()));
  stalls_credit_.resize(stalls_credit_.size() + block->ports(), 0);
  stalls_sa_.resize(stalls_sa_.size() + block->ports(), 0);
  e.block = std::move(block);
  e.name = std::move(name);
  blocks_.push_back(std::move(e));
  return static_cast<int>(blocks_.size()) - 1;
}

void Network::replace_block(int i, std::unique_ptr<LinkBlock> block) {
  if (i < 0 || i >= blocks()) throw std::out_of_range("Network::replace_block: no such block");
  if (!block || block->ports() != blocks_[i].block->ports() || block->vcs() != blocks_[i].block->vcs()) {
    throw std::logic_error("Network::replace_block: " + blocks_[i].name +
                           " replaced by a block with other ports or VCs");
  }
  blocks_[i].block = std::move(block);
}

int Network::connect(PortRef a, PortRef b, int latency, LinkClass cls) {
  auto check = [this](PortRef p) {
    if (p.block < 0 || p.block >= blocks() || p.port < 0 ||
        p.port >= static_cast<int>(blocks_[p.block].ports.size())) {
      throw std::out_of_range("Network::connect: no such block port");
    }
    // A block's ports are bits of one 64-bit word (LinkBlock::flit_out_bits, the step's masks).
    if (p.port >= 64) {
      throw std::out_of_range("Network::connect: port " + std::to_string(p.port) + " of " +
                              blocks_[p.block].name + " (a block has at most 64 linked ports)");
    }
    if (blocks_[p.block].ports[p.port].tx >= 0) {
      throw std::logic_error("Network::connect: port " + std::to_string(p.port) + " of " +
                             blocks_[p.block].name + " is already connected");
    }
  };
  check(a);
  check(b);
  if (a.block == b.block && a.port == b.port) throw std::logic_error("Network::connect: self loop");
  const int ab = static_cast<int>(links_.size());
  links_.push_back(std::make_unique<Link>(latency));
  links_.push_back(std::make_unique<Link>(latency));
  link_info_.push_back({a, b, cls});
  link_info_.push_back({b, a, cls});
  link_flits_.push_back(0);
  link_flits_.push_back(0);
  down_from_.push_back(~0ull);
  down_from_.push_back(~0ull);
  // Each direction's VCs side by side (a link's states share cache lines): as many as the sender's
  // VC field can name (its VCs rounded up to a power of two, at least 2), so no flit's VC number
  // reaches another link's states.
  for (PortRef from : {a, b}) {
    std::size_t n = 2;
    while (n < static_cast<std::size_t>(blocks_[from.block].block->vcs())) n <<= 1;
    vc_base_.push_back(vc_track_.size());
    vc_track_.resize(vc_track_.size() + n);
  }
  blocks_[a.block].ports[a.port] = {ab, ab + 1};
  blocks_[b.block].ports[b.port] = {ab + 1, ab};
  for (PortRef p : {a, b}) {
    PortRoute r;
    r.port = p.port;
    r.tx_id = blocks_[p.block].ports[p.port].tx;
    r.rx_id = blocks_[p.block].ports[p.port].rx;
    r.tx_vc = vc_base_[r.tx_id];
    r.tx_lines = static_cast<int>((static_cast<std::size_t>(blocks_[p.block].block->vcs()) *
                                   sizeof(VcTrack) + 63) / 64);
    r.tx = links_[r.tx_id].get();
    r.rx = links_[r.rx_id].get();
    r.rx_flits = r.rx->flit_ring();
    r.tx_credits = r.tx->credit_ring();
    r.tx_flits = r.tx->flit_ring();
    r.rx_credits = r.rx->credit_ring();
    r.latency = latency;
    r.mask = static_cast<std::uint32_t>(r.rx->ring_mask());
    BlockEntry& e = blocks_[p.block];
    auto& rs = e.routes;
    rs.insert(std::upper_bound(rs.begin(), rs.end(), p.port,
                               [](int port, const PortRoute& x) { return port < x.port; }),
              r);
    // The port -> route index the step's output masks are walked by (routes stay in port order).
    e.route_of_port.assign(static_cast<std::size_t>(rs.back().port) + 1, -1);
    e.linked_ports = 0;
    for (std::size_t k = 0; k < rs.size(); ++k) {
      e.route_of_port[static_cast<std::size_t>(rs[k].port)] = static_cast<std::int8_t>(k);
      e.linked_ports |= std::uint64_t{1} << rs[k].port;
    }
  }
  return ab;
}

void Network::reset_link_counters() { std::fill(link_flits_.begin(), link_flits_.end(), 0); }

void Network::reset_stall_counters() {
  std::fill(stalls_credit_.begin(), stalls_credit_.end(), 0);
  std::fill(stalls_sa_.begin(), stalls_sa_.end(), 0);
}

std::uint64_t* Network::domain_clock(int domain) {
  if (domain < 0) throw std::out_of_range("Network::domain_clock: negative domain");
  while (static_cast<int>(domain_clocks_.size()) <= domain) domain_clocks_.push_back(now_);
  return &domain_clocks_[domain];
}

// The generic step: through LinkBlock's virtual methods (the blocks that do not step as their own
// type, e.g. a traced copy or a ghost).
void LinkBlock::step(Network& net, int index, std::uint64_t now) { net.step_as(*this, index, now); }

void Network::step() {
  step_in_turn(static_cast<std::size_t>(blocks()), [](std::size_t k) { return static_cast<int>(k); }, now_,
               now_ + 1);
  set_now(now_ + 1);
}

std::uint64_t Network::ticks_skipped() const {
  return std::accumulate(ticks_skipped_.begin(), ticks_skipped_.end(), std::uint64_t{0});
}

std::uint64_t Network::ticks_done() const {
  return std::accumulate(ticks_done_.begin(), ticks_done_.end(), std::uint64_t{0});
}

std::uint64_t Network::flits_moved() const {
  return std::accumulate(link_flits_.begin(), link_flits_.end(), std::uint64_t{0});
}

}  // namespace hxemu::sysc
