// TreeBench: one tree (single switch or two-level Clos, built by sysc::build_tree) with a
// PacketEndpoint on every tree port and a Scoreboard -- the switch's test harness.
#pragma once

#include <memory>
#include <vector>

#include "sysc/fabric/network.h"
#include "sysc/system/tree_builder.h"
#include "tb/packet_endpoint.h"
#include "tb/scoreboard.h"

namespace hxemu::test {

struct TreeBench {
  // inject_vcs: the VCs endpoints inject on (0: class 0's).
  explicit TreeBench(sysc::TreeSpec spec, std::uint32_t inject_vcs = 0, int edge_latency = 1)
      : spec_(spec) {
    tree = sysc::build_tree(net, spec_);
    sb = std::make_unique<tb::Scoreboard>();
    for (int p = 0; p < spec_.tree_ports; ++p) {
      tb::EndpointConfig ec;
      ec.node = p;
      ec.vcs = spec_.vc.vcs;
      ec.inject_vcs = inject_vcs == 0 ? spec_.vc.inject_vcs() : inject_vcs;
      ec.inject_credits = spec_.depth;
      ec.eject_depth = spec_.edge_depth;
      auto ep = std::make_unique<tb::PacketEndpoint>(ec, net.clock(), sb.get());
      endpoints.push_back(ep.get());
      const int b = net.add_block(std::move(ep), "ep" + std::to_string(p));
      net.connect({b, 0}, tree.tree_ports[p], edge_latency, sysc::LinkClass::kTerminal);
    }
  }

  // Queue a packet from tree port `src` to tree port `dst` (`route` = head bits [63:32]).
  std::uint64_t send(int src, int dst, int flits, std::uint32_t route = 0) {
    tb::PacketSpec p;
    p.id = sb->created();
    p.src = src;
    p.dst = dst;
    p.route = route;
    p.flits = flits;
    p.created = net.now();
    sb->expect(p);
    endpoints[src]->enqueue(p);
    return p.id;
  }

  bool drain(std::uint64_t max_cycles) {
    for (std::uint64_t i = 0; i < max_cycles; ++i) {
      net.step();
      if (sb->outstanding() == 0 && quiet()) return true;
    }
    return false;
  }

  bool quiet() const {
    for (int b = 0; b < net.blocks(); ++b) {
      if (!net.block(b).drained()) return false;
    }
    for (int l = 0; l < net.links(); ++l) {
      if (net.link(l).flits_in_flight() != 0) return false;
    }
    return true;
  }

  bool any_block_error() const {
    for (int b = 0; b < net.blocks(); ++b) {
      if (net.block(b).error()) return true;
    }
    return false;
  }

  sysc::TreeSpec spec_;
  sysc::Network net;
  sysc::BuiltTree tree;
  std::unique_ptr<tb::Scoreboard> sb;
  std::vector<tb::PacketEndpoint*> endpoints;
};

}  // namespace hxemu::test
