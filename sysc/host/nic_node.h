// NicNode: one NIC of an accelerator (rtl/nic/hx_nic.sv) with its DMA port onto the node's host
// memory, as a one-port LinkBlock the system attaches to a router local port -- plus the host-side
// queues through which host software posts puts and receives completions.
//
// The host side is decoupled by one cycle in both directions, like a registered interface: a put
// posted in cycle t is offered to the NIC from cycle t + 1, and a completion the NIC delivers in
// cycle t is readable by host software from cycle t + 1. So whatever order a harness steps the NIC
// and the host program in within a cycle, the result is the same.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sysc/fabric/grow_ring.h"
#include "sysc/host/host_memory.h"
#include "sysc/host/message_assembler.h"
#include "sysc/blocks/nic.h"
#include "sysc/system/system.h"

namespace hxemu::sysc {

// Sees what a NIC's receive side does, in the cycle it does it: every DMA write memory accepts and
// every packet landing (its bytes all in host memory, reported before the host's per-message
// count). A testbench checks received data there (tb/traffic/nic_traffic_host.h).
class LandingObserver {
 public:
  virtual ~LandingObserver() = default;
  virtual void written(int rail, const DmaOut& w, std::uint64_t now) = 0;
  virtual void landed(int rail, const RxLanding& l, std::uint64_t now) = 0;
};

// A packet whose landing had a bad CRC (NicSetup::crc): its bytes are in host memory but suspect.
struct CorruptLanding {
  std::uint16_t src = 0;
  std::uint16_t seq = 0;        // its message's sequence number from src
  std::uint16_t tag = 0;
};

class NicNode final : public LinkBlock {
 public:
  NicNode(std::unique_ptr<NicBlock> nic, std::shared_ptr<HostMemory> port, int node, int rail,
          const std::uint64_t* clock);

  int node() const { return node_; }
  int rail() const { return rail_; }
  HostMemory& memory() { return *mem_; }
  NicBlock& nic() { return *nic_; }
  const NicBlock& nic() const { return *nic_; }
  // Puts `nic` (reset with the same setup, e.g. a traced copy: sysc/trace/) in place of the NIC,
  // before the first cycle is stepped; the host side and its memory stay. `every_cycle`: never skip
  // its tick (a traced NIC: its waveform shows the inputs of every cycle; results are the same).
  void replace_nic(std::unique_ptr<NicBlock> nic, bool every_cycle);

  // ---- host side ---------------------------------------------------------------------------
  void post(const NicCommand& c);
  // Completions visible now (delivered before the current cycle), oldest first.
  bool pop_tx(TxCompletion& c);
  bool pop_rx(RxCompletion& c);
  bool has_completion() const;
  std::size_t posts_waiting() const { return cmds_.size(); }
  std::uint64_t puts_accepted() const { return puts_accepted_; }
  // Packets received with a bad CRC (the NIC's counter; 0 unless NicSetup::crc), and each such
  // packet, in landing order (the list grows only when one lands).
  std::uint64_t crc_errors() const { return nic_->crc_errors(); }
  const std::vector<CorruptLanding>& corrupt_landings() const { return corrupt_; }

  // ---- LinkBlock ---------------------------------------------------------------------------
  void step(Network& net, int index, std::uint64_t now) override;
  int ports() const override { return 1; }
  int vcs() const override { return nic_->vcs(); }
  int flit_bits() const override { return nic_->flit_bits(); }
  void clear_inputs() override { nic_->clear_inputs(); }
  void set_flit_in(int p, const Flit& f) override { nic_->set_flit_in(p, f); }
  void set_credit_in(int p, Credit c) override { nic_->set_credit_in(p, c); }
  void tick() override;
  bool flit_out(int p, Flit& f) const override { return nic_->flit_out(p, f); }
  Credit credit_out(int p) const override { return nic_->credit_out(p); }
  std::uint64_t flit_out_bits() const override { return nic_->flit_out_bits(); }
  std::uint64_t credit_out_bits() const override { return nic_->credit_out_bits(); }
  bool idle() const override;
  bool drained() const override { return settled() && nic_->drained(); }
  bool error() const override { return nic_->error() || !rx_.error().empty(); }
  // The host's per-message count of RX landings (why it is on the host: message_assembler.h).
  const MessageAssembler& assembler() const { return rx_; }
  // Optional (nullptr: none); called from tick(), so it must belong to this node's partition.
  void set_landing_observer(LandingObserver* o) { observer_ = o; }

 private:
  template <class T>
  struct Stamped {
    std::uint64_t cycle;
    T value;
  };
  std::unique_ptr<NicBlock> nic_;
  std::shared_ptr<HostMemory> mem_;
  int node_, rail_;
  const std::uint64_t* clock_;
  GrowRing<Stamped<NicCommand>> cmds_;
  GrowRing<Stamped<TxCompletion>> txq_;
  GrowRing<Stamped<RxCompletion>> rxq_;
  MessageAssembler rx_;
  LandingObserver* observer_ = nullptr;
  std::uint64_t puts_accepted_ = 0;
  std::vector<CorruptLanding> corrupt_;
  // As of the last edge: the NIC waiting (idle, or waiting for read data or a credit), and the
  // cycle the memory presents the next read word (UINT64_MAX: none). Both change only in tick(),
  // and reading them there (in cache) spares idle() cache misses per cycle on thousands of NICs.
  bool quiet_ = false;
  std::uint64_t wake_ = UINT64_MAX;
  bool every_cycle_ = false;   // replace_nic
  // Ticking would change nothing: the NIC waits, no read word is due, no put is due.
  bool settled() const;
};

// Over every NicNode of `sys` (the terminals a NicFactory made): packets received with a bad CRC,
// and each of them with where it landed (by node, then rail, then landing order). With several
// ranks every rank must call these at the same point (like System::quiet): each counts the NICs
// it owns and all get the total.
std::uint64_t nic_crc_errors(const System& sys);
struct CorruptPacket {
  int node = 0;                 // where it landed
  int rail = 0;
  CorruptLanding packet;
};
std::vector<CorruptPacket> nic_corrupt_packets(const System& sys);

// Makes NicNodes for a System: `rails` NICs per node sharing one host memory of `memory_bytes`.
class NicFactory final : public TerminalFactory {
 public:
  NicFactory(int rails, std::size_t memory_bytes, int read_latency = 8)
      : rails_(rails), bytes_(memory_bytes), latency_(read_latency) {}
  int rails() const override { return rails_; }
  std::unique_ptr<LinkBlock> make_terminal(const TerminalSpec& spec) override;
  // NicNodes by node and rail (valid once the System is built).
  NicNode& nic(int node, int rail) { return *nics_.at(static_cast<std::size_t>(node) * rails_ + rail); }
  HostMemory& memory(int node) { return *memories_.at(node); }
  int rails_built() const { return rails_built_; }

 private:
  int rails_;
  std::size_t bytes_;
  int latency_;
  int rails_built_ = 1;
  std::vector<NicNode*> nics_;
  std::vector<std::shared_ptr<HostMemory>> memories_;
};

}  // namespace hxemu::sysc
