// Unit tests of the Dragonfly route computer (rtl/route/hx_route_dragonfly.sv) inside the verilated
// switch (rtl/switch/hx_switch.sv, kind_i = 3): one radix-8 router with a packet endpoint on every
// port, so the port a head leaves through is the endpoint that receives it, and the VC it arrives
// on gives its class.
//
// The router: router 1 of group 3 in a Dragonfly of g = 8 groups of a = 4 routers, p = 2 terminals
// and h = 2 global ports per router. Ports: 0, 1 terminals; 2, 3, 4 local to routers 0, 2, 3; 5, 6
// global slots 0, 1; 7 unused. Group 3's global port k is slot k % 2 of router k / 2 and leads to
// group k (k < 3) or k + 1, so this router's ports 5 and 6 (k = 2, 3) lead to groups 2 and 4.
#include <gtest/gtest.h>

#include <cstdint>

#include "sysc/fabric/coord_word.h"
#include "one_switch_bench.h"

namespace hxemu::test {
namespace {

constexpr int kRadix = 8, kVcs = 6, kDepth = 8;
constexpr int kLocal0 = 2, kGlobal0 = 5;

struct DragonflyBench : OneSwitchBench {
  explicit DragonflyBench(bool adaptive, int threshold = 4) {
    setup.kind = sysc::TreeKind::kDragonfly;
    setup.df_groups = 8;
    setup.df_routers = 4;
    setup.df_terminals = 2;
    setup.df_globals = 2;
    setup.df_group = 3;
    setup.df_router = 1;
    setup.adaptive = adaptive;
    setup.ugal_threshold = threshold;
    setup.vc = sysc::make_vc_plan(kVcs, 3, 2, sysc::VcPolicy::kDynamic);
    // Global ports inject in class 1, as packets arriving over a global link do.
    build(kRadix, kVcs, kDepth, kRadix, "df.g3.r1",
          [this](int p) { return setup.vc.class_vcs[p >= kGlobal0 ? 1 : 0]; });
  }

  // A packet from the endpoint on port `in` to node (group, router, terminal), expected to leave
  // through port `out`.
  std::uint64_t send(int in, int group, int rtr, int terminal, int out, int flits = 1) {
    return send_route(in, sysc::pack_coord({group, rtr, terminal, 0}), out, flits);
  }
};


// Minimal ports: the terminal on this router, the local port to another router of the group, the
// global port when the destination group's link is on this router (class up by one), else the
// local port to the router that has it (class kept).
TEST(DragonflyRoute, MinimalPortsAndClasses) {
  DragonflyBench b(false);
  struct Case {
    int group, rtr, terminal, port, cls;
  };
  const Case cases[] = {
      {3, 1, 0, 0, 0}, {3, 1, 1, 1, 0},                     // same router: the terminal
      {3, 0, 1, kLocal0, 0}, {3, 2, 0, kLocal0 + 1, 0}, {3, 3, 1, kLocal0 + 2, 0},   // same group
      {2, 0, 0, kGlobal0, 1}, {4, 3, 1, kGlobal0 + 1, 1},   // global link on this router
      {0, 2, 0, kLocal0, 0}, {1, 0, 0, kLocal0, 0},          // k = 0, 1: router 0
      {5, 1, 1, kLocal0 + 1, 0}, {6, 0, 0, kLocal0 + 1, 0},  // k = 4, 5: router 2
      {7, 3, 0, kLocal0 + 2, 0},                             // k = 6: router 3
  };
  for (const auto& c : cases) {
    const auto id = b.send(0, c.group, c.rtr, c.terminal, c.port, 2);
    ASSERT_TRUE(b.drain()) << "to group " << c.group << " router " << c.rtr;
    EXPECT_EQ(b.arrival_port(id), c.port) << "to group " << c.group << " router " << c.rtr;
    EXPECT_EQ(b.arrival_class(id), c.cls) << "to group " << c.group << " router " << c.rtr;
  }
  b.expect_clean();
}

// The class counts global links taken: a head that arrived over a global link (class 1) and leaves
// through a global port moves to class 2; through a local port or to a terminal it keeps class 1.
// (The bench's endpoints on the global ports inject in class 1, as a packet arriving there would.)
TEST(DragonflyRoute, ClassEscalatesOnGlobalPortsOnly) {
  DragonflyBench b(true);
  const auto to_global = b.send(kGlobal0, 4, 0, 0, kGlobal0 + 1, 3);     // group 2 -> group 4
  const auto to_local = b.send(kGlobal0, 5, 2, 1, kLocal0 + 1, 3);       // on to router 2 (k = 4)
  const auto to_terminal = b.send(kGlobal0 + 1, 3, 1, 1, 1, 3);          // arrived in its group
  ASSERT_TRUE(b.drain());
  EXPECT_EQ(b.arrival_port(to_global), kGlobal0 + 1);
  EXPECT_EQ(b.arrival_class(to_global), 2);
  EXPECT_EQ(b.arrival_port(to_local), kLocal0 + 1);
  EXPECT_EQ(b.arrival_class(to_local), 1);
  EXPECT_EQ(b.arrival_class(to_terminal), 1);
  b.expect_clean();
}

// UGAL-L at the source router. Destination group 0: the minimal port is local port 2 (toward router
// 0, which holds the link to group 0), class 0; the non-minimal candidates are this router's global
// ports 5 and 6 (to groups 2 and 4, neither the source nor the destination group). Port 2's
// endpoint stops draining, so the flits sent to it stay counted against its credits (occupancy =
// depth x class VCs - free credits). Threshold 4: non-minimal when occ(minimal) > 2 occ(cand) + 4.
TEST(DragonflyRoute, UgalGoesNonMinimalOnlyWhenTheMinimalPortIsFull) {
  DragonflyBench b(true, 4);
  int decisions = 0;   // UGAL decisions at input 0 (they rotate the tie-break start)
  // Idle: minimal.
  auto id = b.send(0, 0, 2, 1, kLocal0, 1);
  ++decisions;
  ASSERT_TRUE(b.drain());
  EXPECT_EQ(b.arrival_port(id), kLocal0);
  EXPECT_EQ(b.arrival_class(id), 0);

  b.endpoints[kLocal0]->set_stalled(true);
  // 4 flits toward group 0 from local input 3 (no decision: not from a terminal) fill port 2 to
  // occupancy 4: 4 > 2 x 0 + 4 is false, so the next head from a terminal still goes minimal.
  b.send(3, 0, 0, 0, kLocal0, 4);
  b.run(40);
  id = b.send(0, 1, 0, 0, kLocal0, 1);
  ++decisions;
  b.run(40);   // now occupancy 5
  // 5 > 4: non-minimal, to the global port the rotating start names (both candidates are empty).
  const int expect_port = kGlobal0 + decisions % 2;
  const auto nm = b.send(0, 0, 3, 0, expect_port, 2);
  ++decisions;
  b.run(40);
  EXPECT_EQ(b.sb.record(nm).deliveries, 1);
  EXPECT_EQ(b.arrival_port(nm), expect_port);
  EXPECT_EQ(b.arrival_class(nm), 1);   // it took a global link
  // The next one goes to the other candidate (rotating tie-break).
  const auto nm2 = b.send(0, 0, 3, 0, kGlobal0 + decisions % 2, 2);
  ++decisions;
  b.run(40);
  EXPECT_EQ(b.sb.record(nm2).deliveries, 1);
  EXPECT_NE(b.arrival_port(nm2), b.arrival_port(nm));

  // Credits of class 0 at port 2 exhausted (2 VCs x 8): still non-minimal, and to the less
  // occupied candidate whatever the rotation. Port 6's endpoint stops too and holds 4 flits.
  b.send(3, 0, 0, 0, kLocal0, 8);
  b.send(4, 0, 0, 0, kLocal0, 8);
  b.endpoints[kGlobal0 + 1]->set_stalled(true);
  b.send(kLocal0 + 2, 4, 0, 0, kGlobal0 + 1, 4);   // from port 4 (router 3) toward group 4: class 1
  b.run(60);
  for (int i = 0; i < 2; ++i) {
    const auto less = b.send(0, 0, 1, 1, kGlobal0, 1);
    b.run(30);
    EXPECT_EQ(b.sb.record(less).deliveries, 1) << i;
  }
  // Unstalled, everything is delivered and nothing was lost.
  b.endpoints[kLocal0]->set_stalled(false);
  b.endpoints[kGlobal0 + 1]->set_stalled(false);
  ASSERT_TRUE(b.drain());
  EXPECT_EQ(b.arrival_port(id), kLocal0);
  b.expect_clean();
}

// A head from a local port (not at its source router) and any head under deterministic routing
// take the minimal port however full it is.
TEST(DragonflyRoute, NoDecisionAwayFromTheSourceOrWhenDeterministic) {
  for (bool adaptive : {true, false}) {
    DragonflyBench b(adaptive, 0);
    b.endpoints[kLocal0]->set_stalled(true);
    for (int i = 0; i < 4; ++i) b.send(3, 0, 0, 0, kLocal0, 4);   // from router 2: no decision
    b.run(80);
    if (!adaptive) {
      const auto det = b.send(0, 0, 1, 0, kLocal0, 1);   // deterministic: minimal
      b.run(40);
      EXPECT_EQ(b.sb.record(det).deliveries, 0);   // waiting behind the stalled port
    }
    b.endpoints[kLocal0]->set_stalled(false);
    ASSERT_TRUE(b.drain()) << adaptive;
    b.expect_clean();
  }
}

}  // namespace
}  // namespace hxemu::test
