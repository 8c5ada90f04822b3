// Network::step_as<B>: one cycle of one block, the body of Network::step_block, as a template over
// the block's type. A block whose type is final (sysc/blocks/direct_step.h, the endpoints) steps
// through step_as with that type: the compiler then calls its port methods directly and inlines
// them, where through LinkBlock each is a virtual call (about fifteen per router and cycle). Any
// other block steps through step_as<LinkBlock> (LinkBlock::step, in network.cpp). Both run the
// same code, so the results are the same.
//
// Included only where a block type's step is defined: the adapters' headers and network.cpp.
#pragma once

#include "sysc/fabric/network.h"

namespace hxemu::sysc {

template <class B>
void Network::step_as(B& b, int i, std::uint64_t now) {
  if (std::uint64_t* c = block_clock_[i]) *c = now;
  BlockEntry& e = blocks_[i];
  // A link-state change is an input the block registers at its next edge: it ticks this cycle even
  // when idle, so the change is in place before the next flit arrives.
  bool changed = false;
  if (now >= e.next_fault_at) {
    apply_block_faults(e, now);
    changed = true;
  }
  // A busy block ticks anyway; only an idle one needs the look at its links, and a link's slot
  // (a cache miss per port on a large system) only when the link has something in flight.
  if (!changed && b.idle()) {
    bool arriving = false;
    for (const PortRoute& r : e.routes) {
      if (r.rx->arriving_flit(now) != nullptr || r.tx->credit_arriving(now)) {
        arriving = true;
        break;
      }
    }
    if (!arriving) {
      ++ticks_skipped_[i];
      return;
    }
  }
  // What arrives, as two masks over the routes (bit k: route k), each bit worked out without a
  // branch; then a walk over the set bits only. Whether a flit or a credit arrives on a port is as
  // random as the traffic, and a test per port and kind was a mispredicted branch about every
  // other cycle. (Flits first, then credits: they change different state.) The bits are the
  // slots' own valid flags, read through the route's copies of the ring addresses: a slot is valid
  // exactly while its flit or credit waits to be taken (Link), so the links' in-flight counts,
  // which the idle test above reads, add nothing here.
  const std::size_t nr = e.routes.size();
  std::uint64_t flits_in = 0, credits_in = 0;
  for (std::size_t k = 0; k < nr; ++k) {
    const PortRoute& r = e.routes[k];
    const std::uint64_t s = now & r.mask;
    flits_in |= std::uint64_t{r.rx_flits[s].valid} << k;
    credits_in |= std::uint64_t{r.tx_credits[s].valid} << k;
  }
  b.clear_inputs();
  for (std::uint64_t m = flits_in; m != 0; m &= m - 1) {
    const PortRoute& r = e.routes[static_cast<std::size_t>(__builtin_ctzll(m))];
    Link& rx = *r.rx;
    const Flit& f = r.rx_flits[now & r.mask];
    if (link_down(r.rx_id, now)) {
      log_fault(recv_log_[r.rx_id], FaultEvent::Kind::kLostInFlight, r.rx_id, now, f, std::nullopt);
    } else {
      b.set_flit_in(r.port, f);
    }
    rx.consume_flit(now);
  }
  for (std::uint64_t m = credits_in; m != 0; m &= m - 1) {
    const PortRoute& r = e.routes[static_cast<std::size_t>(__builtin_ctzll(m))];
    const Credit c = r.tx->take_credit(now);
    if (link_down(r.tx_id, now)) continue;   // lost with its link (sent before it died)
    vc_track_[r.tx_vc + c.vc].credit();
    b.set_credit_in(r.port, c);
  }
  b.tick();
  ++ticks_done_[i];
  if (std::uint64_t bits = b.stall_credit_bits()) {
    for (int p = 0; bits; ++p, bits >>= 1) stalls_credit_[port_base_[i] + p] += bits & 1u;
  }
  if (std::uint64_t bits = b.stall_sa_bits()) {
    for (int p = 0; bits; ++p, bits >>= 1) stalls_sa_[port_base_[i] + p] += bits & 1u;
  }
  // Which ports have a flit or a credit out: two calls for all ports (most ports of a block send
  // nothing in most cycles).
  const std::uint64_t flits_out = b.flit_out_bits();
  const std::uint64_t credits_out = b.credit_out_bits();
  if ((flits_out | credits_out) == 0) return;
  // The ports with a flit, then those with a credit, in port order (= route order): a walk over
  // the set bits, as for the inputs.
  Flit f;
  for (std::uint64_t m = flits_out & e.linked_ports; m != 0; m &= m - 1) {
    const int p = __builtin_ctzll(m);
    const PortRoute& r = e.route_at(p);
    b.flit_out(p, f);
    bool drop = false;
    if (r.tx_id == fault_link_ && fault_ != LinkFault::kNone &&
        !(fault_ == LinkFault::kFlipBodyBit && f.head)) {
      drop = fault_ == LinkFault::kDrop;
      if (!drop) f.data[kMaxFlitWords / 2 - 1] ^= 0x10u;   // a payload word above the header
      fault_ = LinkFault::kNone;
    }
    if (drop) continue;
    const bool dead = link_down(r.tx_id, now);
    if (dead) {
      // Lost on the dead link; the sender's view of the VC goes on as if it had been sent, so a
      // body flit still names its packet.
    } else if (faults_on_ && !f.head && flip_rate_ > 0.0 &&
               (flip_classes_ >> static_cast<int>(link_info_[r.tx_id].cls) & 1u)) {
      flip_bits(r.tx_id, f, b.flit_bits(), now);
    }
    if (!dead) {
      r.tx->send_flit(now, f);
      ++link_flits_[r.tx_id];
    }
    VcTrack& t = vc_track_[r.tx_vc + f.vc];
    if (f.head) {
      t.send_head(head_of(f), f.tail);
    } else {
      t.send(f.tail);
    }
    if (dead) {
      log_fault(send_log_[r.tx_id], FaultEvent::Kind::kLostSent, r.tx_id, now, f, t.back());
    } else if (f.head && head_observer_ && link_info_[r.tx_id].cls == LinkClass::kCable) {
      head_observer_->head_on_cable(r.tx_id, f, now);
    }
  }
  for (std::uint64_t m = credits_out & e.linked_ports; m != 0; m &= m - 1) {
    const int p = __builtin_ctzll(m);
    const PortRoute& r = e.route_at(p);
    const Credit c = b.credit_out(p);
    if (!link_down(r.rx_id, now)) r.rx->send_credit(now, c);
  }
}

}  // namespace hxemu::sysc
