// The NIC (rtl/nic/hx_nic.sv) as a LinkBlock with one link port (port 0: ejection flits in from the
// router, injection flits out to it), plus its command queue, its TX completion queue, its RX
// landing queue (one record per packet) and its DMA ports, and the factory of the verilated NIC
// variants of this build.
//
// Per cycle `now` a harness: clear_inputs(); sets the link inputs (set_flit_in / set_credit_in);
// offers a command with set_cmd() if cmd_ready(); reads txc()/rxc() and sets set_*c_ready();
// connects the DMA ports (serve_dma, below); tick(); then sends flit_out / credit_out on its links.
// Every output is registered, so what is read before tick() is what the NIC drives during cycle
// `now`, and a handshake (valid && ready) read there is the one the NIC sees at the edge.
// While idle() and no input is valid, tick() would change nothing and may be skipped.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sysc/blocks/model_variant.h"
#include "sysc/system/vc_plan.h"
#include "sysc/host/host_memory.h"
#include "sysc/fabric/link_block.h"

namespace hxemu::sysc {

// Inputs held constant after reset.
struct NicSetup {
  int node = 0;                 // this node's id (0..max_nodes()-1)
  int pkt_flits = 16;           // packet length limit in flits, head included (2..max_packet_flits();
                                // 3..max_packet_flits() with crc)
  std::uint32_t inj_vcs = 1;    // VCs the NIC may inject on: the router's class-0 VCs (non-empty)
  int inj_depth = 8;            // router's local input buffer depth per VC: initial credits (1..255)
  int rail = 0;                 // router local port it sits on (0..3); it talks to its rail only
  // End-to-end CRC per packet (rtl/nic/hx_nic.sv crc_en_i): every packet ends with a trailer flit
  // holding the CRC-32 of its head and data flits (sysc/fabric/packet_crc.h); the receiver flags
  // packets whose CRC does not match (RxLanding::crc_bad, crc_errors()). A packet then carries
  // (pkt_flits - 2) flits of payload instead of (pkt_flits - 1). Every NIC of a network must agree.
  bool crc = false;
};

// A put: `len` bytes from local `src_addr` to `dst_addr` at node `dst`.
struct NicCommand {
  std::uint16_t dst = 0;
  std::uint32_t route = 0;      // {dlc, dlr, dgc, dgr} of the destination: head-flit bits [63:32]
  std::uint32_t src_addr = 0;   // any alignment
  std::uint32_t dst_addr = 0;   // any alignment
  std::uint32_t len = 0;        // bytes; 0 sends a header-only packet (a notification)
  std::uint16_t tag = 0;
};

struct TxCompletion {          // the message's last flit has left the NIC
  std::uint16_t tag = 0;
  std::uint16_t dst = 0;
};

struct RxCompletion {          // the whole message is in host memory; posted order per source
  std::uint16_t src = 0;
  std::uint16_t tag = 0;
  std::uint32_t len = 0;
};

// What the NIC's RX reports: one packet's bytes are all in host memory. The host adds these up per
// message into RxCompletions (sysc/host/message_assembler.h).
struct RxLanding {
  std::uint16_t src = 0;
  std::uint16_t seq = 0;        // the message's sequence number from src (posted order, 16-bit)
  std::uint16_t tag = 0;
  std::uint32_t len = 0;        // the whole message's length
  std::uint16_t bytes = 0;      // this packet's payload bytes
  bool crc_bad = false;         // its CRC did not match (NicSetup::crc): its bytes are suspect
};

class NicBlock : public LinkBlock {
 public:
  // Applies the setup (throws std::invalid_argument naming a bad field) and holds reset for two
  // cycles. Completion-queue ready levels are low after construction and kept across reset.
  virtual void reset(const NicSetup& setup) = 0;
  // The setup of the last reset (a copy of the NIC, e.g. a traced one, is reset with it).
  virtual const NicSetup& setup() const = 0;

  virtual int buffer_slots() const = 0;       // RX buffer slots per VC (D)
  virtual int max_packet_flits() const = 0;   // MAXP
  virtual int max_nodes() const = 0;          // NODES

  // Command queue. set_cmd offers `c` at the coming edge (clear_inputs withdraws it); it is taken
  // exactly when cmd_ready() is true.
  virtual bool cmd_ready() const = 0;
  virtual void set_cmd(const NicCommand& c) = 0;

  // Completion queues: the oldest entry while *_valid(); a ready level held high pops one entry
  // per edge (set it low to stall the queue). Ready levels are not cleared by clear_inputs().
  virtual bool txc_valid() const = 0;
  virtual TxCompletion txc() const = 0;
  virtual void set_txc_ready(bool ready) = 0;
  virtual bool rxc_valid() const = 0;
  virtual RxLanding rxc() const = 0;
  virtual void set_rxc_ready(bool ready) = 0;

  // DMA ports. dma_out() is what the NIC drives this cycle; set_dma_in() what the memory drives.
  virtual DmaOut dma_out() const = 0;
  virtual void set_dma_in(const DmaIn& in) = 0;

  // Some input is valid for the coming edge (a flit, a credit, a command, read data). While
  // idle() && !has_valid_input(), tick() changes nothing and a harness may skip it.
  virtual bool has_valid_input() const = 0;
  // Work is in flight but the NIC waits for an input (DMA read data, a credit): while waiting() &&
  // !has_valid_input(), tick() changes nothing either (rtl/nic/hx_nic.sv wait_o; idle() implies it).
  virtual bool waiting() const = 0;

  // Packets received whose CRC did not match (NicSetup::crc; 0 without it), from the NIC's
  // crc_errors_o register (saturates at 2^32 - 1).
  virtual std::uint64_t crc_errors() const = 0;
};

// Connects `nic`'s DMA ports to `mem` for cycle `now` (call before tick()).
inline void serve_dma(NicBlock& nic, HostMemory& mem, std::uint64_t now) {
  nic.set_dma_in(mem.cycle(now, nic.dma_out()));
}

// The NIC variants this build provides.
std::vector<ModelVariant> nic_variants();

// A NIC with `vcs` VCs and `flit_bits` payload bits, the variant with the fewest RX buffer slots
// per VC that hold `min_slots` (0: the most slots built); throws std::invalid_argument naming the
// variants that exist when there is none.
std::unique_ptr<NicBlock> make_nic(int vcs, int flit_bits, int min_slots = 0);

}  // namespace hxemu::sysc
