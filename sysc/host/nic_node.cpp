#include "sysc/host/nic_node.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sysc/dist/ranks.h"
#include "sysc/fabric/network_step.h"

namespace hxemu::sysc {

NicNode::NicNode(std::unique_ptr<NicBlock> nic, std::shared_ptr<HostMemory> port, int node,
                 int rail, const std::uint64_t* clock)
    : nic_(std::move(nic)), mem_(std::move(port)), node_(node), rail_(rail), clock_(clock) {
  nic_->set_txc_ready(true);
  nic_->set_rxc_ready(true);
}

void NicNode::replace_nic(std::unique_ptr<NicBlock> nic, bool every_cycle) {
  nic->set_txc_ready(true);
  nic->set_rxc_ready(true);
  nic_ = std::move(nic);
  every_cycle_ = every_cycle;
}

void NicNode::post(const NicCommand& c) {
  cmds_.push_back({*clock_ + 1, c});
}

bool NicNode::pop_tx(TxCompletion& c) {
  if (txq_.empty() || txq_.front().cycle >= *clock_) return false;
  c = txq_.front().value;
  txq_.pop_front();
  return true;
}

bool NicNode::pop_rx(RxCompletion& c) {
  if (rxq_.empty() || rxq_.front().cycle >= *clock_) return false;
  c = rxq_.front().value;
  rxq_.pop_front();
  return true;
}

bool NicNode::has_completion() const {
  return (!txq_.empty() && txq_.front().cycle < *clock_) || (!rxq_.empty() && rxq_.front().cycle < *clock_);
}

bool NicNode::settled() const {
  if (!quiet_ || wake_ <= *clock_) return false;
  return cmds_.empty() || cmds_.front().cycle > *clock_;
}

bool NicNode::idle() const { return !every_cycle_ && settled(); }

// As its own (final) type: the harness's calls to the forwarding methods above are direct (the
// NIC model's own stay virtual).
void NicNode::step(Network& net, int index, std::uint64_t now) { net.step_as(*this, index, now); }

void NicNode::tick() {
  const std::uint64_t now = *clock_;
  // Offer the oldest due put; the NIC takes it at this edge when it is ready.
  const bool offer = !cmds_.empty() && cmds_.front().cycle <= now && nic_->cmd_ready();
  if (offer) nic_->set_cmd(cmds_.front().value);
  // Completions presented now are popped at this edge (ready is held high).
  const bool tx = nic_->txc_valid(), rx = nic_->rxc_valid();
  const TxCompletion txc = tx ? nic_->txc() : TxCompletion{};
  const RxLanding rxc = rx ? nic_->rxc() : RxLanding{};
  if (observer_) {
    const DmaOut o = nic_->dma_out();
    const DmaIn in = mem_->cycle(now, o);
    nic_->set_dma_in(in);
    if (o.wr_valid && in.wr_ready) observer_->written(rail_, o, now);
  } else {
    serve_dma(*nic_, *mem_, now);
  }
  nic_->tick();
  if (offer) {
    cmds_.pop_front();
    ++puts_accepted_;
  }
  if (tx) txq_.push_back({now, txc});
  if (rx) {
    if (observer_) observer_->landed(rail_, rxc, now);
    if (rxc.crc_bad) corrupt_.push_back({rxc.src, rxc.seq, rxc.tag});
    rx_.add(rxc);
    RxCompletion c;
    while (rx_.pop(c)) rxq_.push_back({now, c});
  }
  // Waiting covers idle (an idle NIC has no read in flight): either way it is skipped, up to the
  // cycle its memory presents the next read word; a credit wakes it through its link.
  quiet_ = nic_->waiting();
  wake_ = mem_->next_read_due();
}

std::uint64_t nic_crc_errors(const System& sys) {
  std::uint64_t n = 0;
  for (int b = 0; b < sys.net().blocks(); ++b) {
    if (!sys.owns_block(b)) continue;
    if (const auto* nic = dynamic_cast<const NicNode*>(&sys.net().block(b))) n += nic->crc_errors();
  }
  return sys.ranks() > 1 ? Ranks::sum(n) : n;
}

std::vector<CorruptPacket> nic_corrupt_packets(const System& sys) {
  std::vector<CorruptPacket> all;
  for (int b = 0; b < sys.net().blocks(); ++b) {
    if (!sys.owns_block(b)) continue;
    const auto* nic = dynamic_cast<const NicNode*>(&sys.net().block(b));
    if (nic == nullptr) continue;
    for (const CorruptLanding& l : nic->corrupt_landings()) all.push_back({nic->node(), nic->rail(), l});
  }
  if (sys.ranks() > 1) {
    // Each rank's records as bytes (every rank runs the same build), gathered on every rank.
    std::string mine(all.size() * sizeof(CorruptPacket), '\0');
    if (!all.empty()) std::memcpy(mine.data(), all.data(), mine.size());
    all.clear();
    for (const std::string& r : Ranks::all_gather(mine)) {
      const std::size_t k = r.size() / sizeof(CorruptPacket);
      const std::size_t at = all.size();
      all.resize(at + k);
      if (k != 0) std::memcpy(&all[at], r.data(), k * sizeof(CorruptPacket));
    }
  }
  // Blocks are numbered in build order; the list goes by node, then rail (stable: landing order).
  std::stable_sort(all.begin(), all.end(), [](const CorruptPacket& a, const CorruptPacket& b) {
    return a.node != b.node ? a.node < b.node : a.rail < b.rail;
  });
  return all;
}

std::unique_ptr<LinkBlock> NicFactory::make_terminal(const TerminalSpec& spec) {
  rails_built_ = std::max(1, rails_built_);
  if (static_cast<int>(memories_.size()) <= spec.node) memories_.resize(spec.node + 1);
  std::shared_ptr<HostMemory>& first = memories_[spec.node];
  std::shared_ptr<HostMemory> port;
  if (!first) {
    first = std::make_shared<HostMemory>(bytes_, spec.flit_bits, latency_);
    port = first;
  } else {
    port = std::make_shared<HostMemory>(*first, latency_);
  }
  auto nic = make_nic(spec.vc.vcs, spec.flit_bits, spec.eject_depth);
  if (spec.node >= nic->max_nodes()) {
    // The NIC's per-node sequence tables (rtl/nic/hx_nic_seq_table.sv) are sized at build time.
    throw std::invalid_argument(
        "node " + std::to_string(spec.node) + ": this build's NICs have per-node tables for " +
        std::to_string(nic->max_nodes()) + " nodes (0.." + std::to_string(nic->max_nodes() - 1) +
        "); a NIC system this large needs a build with -DHX_NIC_NODES=" +
        std::to_string(spec.node < 16384 ? 16384 : 65536) +
        " (each NIC then holds 4 bytes per node), synthetic traffic does not use NICs");
  }
  NicSetup s;
  s.node = spec.node;
  s.rail = spec.rail;
  s.pkt_flits = spec.max_packet_flits;
  s.inj_vcs = spec.vc.inject_vcs();
  s.inj_depth = spec.inject_credits;
  s.crc = spec.nic_crc;
  nic->reset(s);
  auto node = std::make_unique<NicNode>(std::move(nic), port, spec.node, spec.rail, spec.clock);
  const std::size_t idx = static_cast<std::size_t>(spec.node) * rails_ + spec.rail;
  if (nics_.size() <= idx) nics_.resize(idx + 1, nullptr);
  nics_[idx] = node.get();
  rails_built_ = std::max(rails_built_, spec.rail + 1);
  return node;
}

}  // namespace hxemu::sysc
