// LinkBlock: a verilated hxemu block (router, switch, NIC) seen from the harness -- link ports in
// and out, stepped one clock edge at a time. Outputs are registered in the RTL, so the values read
// after tick() are what the block drives during the next cycle, and the order in which blocks are
// ticked within a cycle does not matter.
#pragma once

#include <cstdint>

#include "sysc/fabric/flit.h"

namespace hxemu::sysc {

class Network;

class LinkBlock {
 public:
  virtual ~LinkBlock() = default;
  // One cycle of this block as block `index` of `net` (what Network::step_block calls). This one
  // steps it through the virtual methods below; a final block type steps through
  // Network::step_as<its type>, which calls them directly (sysc/fabric/network_step.h).
  virtual void step(Network& net, int index, std::uint64_t now);
  virtual int ports() const = 0;
  virtual int vcs() const = 0;
  virtual int flit_bits() const = 0;

  // Inputs for the coming clock edge. clear_inputs() makes every input invalid; set_* then marks
  // the ports that carry something this cycle.
  virtual void clear_inputs() = 0;
  virtual void set_flit_in(int port, const Flit& f) = 0;
  virtual void set_credit_in(int port, Credit c) = 0;

  // One rising clock edge.
  virtual void tick() = 0;

  // Registered outputs after the edge. flit_out fills `f` and returns its valid bit.
  virtual bool flit_out(int port, Flit& f) const = 0;
  virtual Credit credit_out(int port) const = 0;
  // Bit p: port p has a flit / a credit out after the last edge. What a harness asks of every port
  // every cycle, in one call for all ports (a verilated block reads its valid vector).
  virtual std::uint64_t flit_out_bits() const = 0;
  virtual std::uint64_t credit_out_bits() const = 0;

  // Quiescent: no flit buffered and none arrived last cycle; ticking with no valid input would not
  // change any state, so a harness may skip the tick.
  virtual bool idle() const = 0;
  // Nothing buffered, nothing owed: every output VC free and every credit returned.
  virtual bool drained() const = 0;
  // Statistics, valid after a tick: per input port, a flit waited but could not move for want of a
  // credit or free output VC / it asked and lost switch allocation (bit p = port p).
  virtual std::uint64_t stall_credit_bits() const { return 0; }
  virtual std::uint64_t stall_sa_bits() const { return 0; }
  // A neighbour broke the credit protocol (sticky).
  virtual bool error() const = 0;

  // True when this block shares nothing with other blocks but its links: no host memory or
  // command queue, no observer that needs every block at cycle t before any is at t + 1 (a
  // waveform). A harness may then step it through several cycles before its neighbours, as many
  // as its links' latency allows (sysc/harness/parallel_harness.h, spans). False by default: a
  // block type that is sure says so (DirectStep's routers and switches, the traffic endpoints).
  virtual bool links_only() const { return false; }

  // Failed links (Network::schedule_block_fault), from the coming edge on and for good: the link
  // behind `port` is down; the board-edge cables in `edges` (bit per mesh port N, E, S, W: the edge
  // of this router's column or row) are down. Blocks that route (routers, switches) take them as
  // RTL inputs (hx_board_router, hx_switch); the others ignore them.
  virtual void set_port_down(int /*port*/) {}
  virtual void set_edges_down(std::uint32_t /*edges*/) {}
};

// A block without links that the harness steps with its partition (a node's host software,
// System::add_node_block): every link method says "no port"; it implements tick(), idle(), error().
class PortlessBlock : public LinkBlock {
 public:
  int ports() const final { return 0; }
  int vcs() const final { return 0; }
  int flit_bits() const final { return 0; }
  void clear_inputs() final {}
  void set_flit_in(int, const Flit&) final {}
  void set_credit_in(int, Credit) final {}
  bool flit_out(int, Flit&) const final { return false; }
  Credit credit_out(int) const final { return {}; }
  std::uint64_t flit_out_bits() const final { return 0; }
  std::uint64_t credit_out_bits() const final { return 0; }
  bool drained() const override { return idle(); }
};

}  // namespace hxemu::sysc
