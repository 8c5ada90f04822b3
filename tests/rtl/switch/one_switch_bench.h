// OneSwitchBench: one verilated switch (rtl/switch/hx_switch.sv through sysc::make_switch) with a
// packet endpoint on each port a test uses, and a Scoreboard -- the harness of the route
// computers' unit tests (Dragonfly, multidim). The port a head leaves through is the endpoint that
// receives it, and the VC it arrives on gives its class.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sysc/blocks/switch_block.h"
#include "sysc/fabric/network.h"
#include "tb/packet_endpoint.h"
#include "tb/scoreboard.h"

namespace hxemu::test {

struct OneSwitchBench {
  // Builds the switch from `setup` (filled in by the caller first) and an endpoint on ports
  // 0 .. used_ports - 1, each injecting on the VCs `inject_vcs(port)` names.
  void build(int radix, int vcs, int depth, int used_ports, const std::string& name,
             const std::function<std::uint32_t(int)>& inject_vcs) {
    setup.out_depth.assign(radix, depth);
    auto sw = sysc::make_switch(radix, vcs, 256);
    sw->reset(setup);
    router = net.add_block(std::move(sw), name);
    for (int p = 0; p < used_ports; ++p) {
      tb::EndpointConfig ec;
      ec.node = p;
      ec.vcs = vcs;
      ec.inject_vcs = inject_vcs(p);
      ec.inject_credits = depth;
      ec.eject_depth = depth;
      auto ep = std::make_unique<tb::PacketEndpoint>(ec, net.clock(), &sb);
      endpoints.push_back(ep.get());
      const int b = net.add_block(std::move(ep), "ep" + std::to_string(p));
      net.connect({b, 0}, {router, p}, 1, sysc::LinkClass::kTerminal);
    }
  }

  // A packet from the endpoint on port `in` with head route word `route`, expected to leave
  // through port `out` (the scoreboard checks that it arrives there).
  std::uint64_t send_route(int in, std::uint32_t route, int out, int flits) {
    tb::PacketSpec p;
    p.id = sb.created();
    p.src = in;
    p.dst = out;
    p.route = route;
    p.flits = flits;
    p.created = net.now();
    sb.expect(p);
    endpoints[in]->enqueue(p);
    return p.id;
  }
  void run(int cycles) {
    for (int i = 0; i < cycles; ++i) net.step();
  }
  bool drain(int max_cycles = 2000) {
    for (int i = 0; i < max_cycles; ++i) {
      net.step();
      if (sb.outstanding() == 0) return true;
    }
    return false;
  }
  // The class a delivered packet arrived in (the VC plan's class of its VC), and its port.
  int arrival_class(std::uint64_t id) const { return setup.vc.vc_class[sb.record(id).delivery.vc]; }
  int arrival_port(std::uint64_t id) const { return sb.record(id).delivery.dst; }
  // No scoreboard error and no credit-protocol error in the switch.
  void expect_clean() const {
    for (const auto& e : sb.errors()) ADD_FAILURE() << e;
    EXPECT_FALSE(net.block(router).error());
  }

  sysc::SwitchSetup setup;
  sysc::Network net;
  tb::Scoreboard sb;
  int router = -1;
  std::vector<tb::PacketEndpoint*> endpoints;
};

}  // namespace hxemu::test
