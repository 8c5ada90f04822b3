// The channel-dependency-graph check (sysc/system/deadlock_check.h): every shipped configuration up
// to 1,024 nodes is acyclic, with exact channel and dependency counts where they follow by hand from
// the routing; routings that break deadlock freedom are caught, and the cycle reported is a cycle of
// the graph. (hx4mesh-16k takes about a minute: measured by `hxemu describe --check-deadlock`,
// docs/deadlock-freedom.md, not here.)
#include <gtest/gtest.h>

#include <set>

#include "sysc/fabric/coord_word.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/deadlock_check.h"
#include "tests/util/system_test_util.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

// Directed links between routers/switches (terminal links left out, as the graph does).
int network_links(const sysc::System& sys) {
  const auto per_class = sys.connections_per_class();
  return 2 * (per_class[0] + per_class[1]);
}

// A reported cycle is a cycle of the graph: distinct channels, each depending on the next, the last
// on the first.
void expect_real_cycle(const sysc::DeadlockReport& r) {
  ASSERT_GE(r.cycle.size(), 2u);
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < r.cycle.size(); ++i) {
    const auto& a = r.cycle[i];
    const auto& b = r.cycle[(i + 1) % r.cycle.size()];
    EXPECT_TRUE(seen.insert({a.link, a.cls}).second) << "channel repeated at " << i;
    EXPECT_TRUE(r.depends(a, b)) << "no dependency " << i << " -> " << (i + 1) % r.cycle.size();
  }
}

// gtest names: hx2mesh-64 -> hx2mesh_64.
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& ch : s) {
    if (ch == '-') ch = '_';
  }
  return s;
}

class DeadlockShipped : public ::testing::TestWithParam<std::string> {};

TEST_P(DeadlockShipped, ChannelDependencyGraphIsAcyclic) {
  const auto cfg = shipped(GetParam());
  tb::TrafficSystem ts(cfg);
  const auto r = sysc::check_deadlock(ts.sys());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.acyclic) << cycle_text(ts.sys(), r);
  EXPECT_GT(r.channels, 0);
  EXPECT_LE(r.channels, network_links(ts.sys()) * cfg.classes());
  EXPECT_GE(r.dependencies, r.channels / 2);
}

INSTANTIATE_TEST_SUITE_P(Configs, DeadlockShipped,
                         ::testing::Values("hx2mesh-16", "hx2mesh-64", "hx4mesh-64",
                                           "hx2mesh-1024", "hx4mesh-1024", "torus-64",
                                           "fattree-64", "fattree-64-4plane", "mesh-8x8", "hyperx-64",
                                           "fattree-64-taper50", "fattree-64-taper75", "dragonfly-64",
                                           "dragonfly-1024", "md-ring4-fc4-sw4", "md-ring4-fc4-ring4-sw2",
                                           "md-ring8-ring8", "torus-64-cabled"),
                         test_name);

// The memoised per-destination construction against brute force: every ordered pair traced hop by
// hop (trace_path, each adaptive up choice), the channels and consecutive-channel pairs collected.
// The two graphs must be equal -- no dependency missed, none invented. Kept to the 64-node configs
// (brute force is O(N^2 x hops x up choices)).
class DeadlockBruteForce : public ::testing::TestWithParam<std::string> {};

TEST_P(DeadlockBruteForce, GraphEqualsTheUnionOfAllTracedRoutes) {
  tb::TrafficSystem ts(shipped(GetParam()));
  const auto& sys = ts.sys();
  const auto& net = sys.net();
  std::set<int> channels;
  std::set<std::pair<int, int>> deps;
  for (int choice = 0; choice < sysc::adaptive_up_choices(sys); ++choice) {
    for (int s = 0; s < sys.nodes(); ++s) {
      for (int d = 0; d < sys.nodes(); ++d) {
        const auto p = sysc::trace_path(sys, s, d, 0, choice);
        ASSERT_TRUE(p.ok) << p.error;
        int prev = -1;
        for (const auto& h : p.hops) {
          if (net.link_info(h.link_out).cls == sysc::LinkClass::kTerminal) continue;
          const int ch = h.link_out * 4 + h.out_class;
          channels.insert(ch);
          if (prev >= 0) deps.insert({prev, ch});
          prev = ch;
        }
      }
    }
  }
  const auto r = sysc::check_deadlock(sys);
  ASSERT_TRUE(r.ok) << r.error;
  std::set<int> graph_channels;
  std::set<std::pair<int, int>> graph_deps;
  for (int c = 0; c < static_cast<int>(r.successors.size()); ++c) {
    for (int t : r.successors[c]) {
      graph_deps.insert({c, t});
      graph_channels.insert(c);
      graph_channels.insert(t);
    }
  }
  EXPECT_EQ(r.dependencies, static_cast<long long>(deps.size()));
  EXPECT_TRUE(graph_deps == deps);
  // Channels: those with a dependency agree; every traced channel is counted.
  EXPECT_EQ(r.channels, static_cast<int>(channels.size()));
  for (int c : graph_channels) EXPECT_TRUE(channels.count(c)) << c;
}

INSTANTIATE_TEST_SUITE_P(Configs, DeadlockBruteForce,
                         ::testing::Values("hx2mesh-16", "hx2mesh-64", "hx4mesh-64", "torus-64",
                                           "fattree-64", "mesh-8x8", "hyperx-64", "fattree-64-taper50",
                                           "fattree-64-taper75", "dragonfly-64", "md-ring4-fc4-sw4",
                                           "md-ring8-ring8"),
                         test_name);

// k x k mesh, XY routing, one class: every directed link is used (224 for k = 8). Dependencies at a
// router: a head moving E (or W) goes on straight when it is not at the last column (k(k-2) such
// pairs per direction) or turns N or S ((k-1)^2 each); a head moving N (or S) only goes straight
// (k(k-2)): 2 (k(k-2) + 2(k-1)^2) + 2 k(k-2) = 388 for k = 8. No Y -> X turn: acyclic.
TEST(DeadlockCheck, Mesh8x8CountsMatchXyRouting) {
  tb::TrafficSystem ts(shipped("mesh-8x8"));
  const auto r = sysc::check_deadlock(ts.sys());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.acyclic);
  EXPECT_EQ(r.channels, 2 * 2 * 8 * 7);
  EXPECT_EQ(r.dependencies, 2 * (8 * 6 + 2 * 7 * 7) + 2 * 8 * 6);
}

// router.class_vcs changes how many VCs each class has, not which classes a route uses: the graph
// of hx2mesh-64 split [1, 4, 3] is the even split's, in both routing modes.
TEST(DeadlockCheck, UnevenClassSplitKeepsTheGraph) {
  for (const char* routing : {"router.routing=deterministic", "router.routing=adaptive"}) {
    const auto even = sysc::load_system_config(config_path("hx2mesh-64"), {routing, "router.class_vcs=[2, 2, 2]"});
    const auto split = sysc::load_system_config(config_path("hx2mesh-64"), {routing, "router.class_vcs=[1, 4, 3]"});
    tb::TrafficSystem a(even), b(split);
    const auto ra = sysc::check_deadlock(a.sys()), rb = sysc::check_deadlock(b.sys());
    ASSERT_TRUE(ra.ok && rb.ok) << ra.error << rb.error;
    EXPECT_TRUE(rb.acyclic) << routing;
    EXPECT_EQ(rb.channels, ra.channels) << routing;
    EXPECT_EQ(rb.dependencies, ra.dependencies) << routing;
  }
}

// 8x8 torus (torus-64: 4x4 boards of 2x2), DOR with a dateline. Class 0: every directed link but the
// 32 wrap links (a head crossing a wrap link is moved to class 1 on it): 224. Class 1, per ring:
// eastward the wrap link and the 3 after it (a route goes at most 4 hops east, ties going east),
// westward the wrap link and the 2 after it (at most 3 hops west): 7 x 16 rings = 112. The 640
// dependencies agree with an independent trace of all 4,096 pairs (GraphEqualsTheUnionOf...).
TEST(DeadlockCheck, Torus64CountsMatchTheDateline) {
  tb::TrafficSystem ts(shipped("torus-64"));
  const auto r = sysc::check_deadlock(ts.sys());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.acyclic);
  EXPECT_EQ(r.channels, 224 + 112);
  EXPECT_EQ(r.dependencies, 640);
}

// fattree-64: 8 leaves x 8 up ports, one to each of 8 spines; up/down in one class. Channels: 64 up
// + 64 down. An up channel (leaf l -> spine s) feeds the down channels from s to the 7 other leaves;
// a down channel only feeds ejection, which the graph leaves out: 64 x 7 dependencies.
TEST(DeadlockCheck, FatTree64CountsMatchUpDown) {
  tb::TrafficSystem ts(shipped("fattree-64"));
  const auto r = sysc::check_deadlock(ts.sys());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.acyclic);
  EXPECT_EQ(r.channels, 128);
  EXPECT_EQ(r.dependencies, 64 * 7);
}

// dragonfly-64 (one plane: 8 groups of 4 routers, 2 terminals and 2 global ports per router, group
// global port 7 spare, so routers 0-2 have 2 global links and router 3 one). Minimal routing:
// channels are the 96 directed local links in class 0 (first hop in the source group) and in class 1
// (last hop in the destination group) and the 56 directed global links in class 1: 248.
// Dependencies: a class-0 local link into router q feeds q's global links (3 links in x 2, 2, 2, 1
// globals = 21 per group, 168); a global link feeds the 3 local links out of the router it enters
// (56 x 3 = 168): 336.
// UGAL adds class 2 (a non-minimal packet's second global link and the local hops around it): global
// class 2 (56) and local class 2 (96): 400 channels. Dependencies: the 336 above, a global class-1
// link into router s feeds s's other global links in class 2 (sum over routers of h_s (h_s - 1) =
// 3 x 2 per group, 48), a class-1 local link feeds the next router's global links in class 2 (168),
// a class-2 global link the 3 local links out of its router (168): 720.
TEST(DeadlockCheck, Dragonfly64CountsMatchMinimalAndUgal) {
  auto cfg = shipped("dragonfly-64");
  tb::TrafficSystem det(cfg);
  const auto rd = sysc::check_deadlock(det.sys());
  ASSERT_TRUE(rd.ok) << rd.error;
  EXPECT_TRUE(rd.acyclic);
  EXPECT_EQ(rd.channels, 96 + 96 + 56);
  EXPECT_EQ(rd.dependencies, 168 + 168);
  cfg.adaptive = true;
  tb::TrafficSystem ad(cfg);
  const auto ra = sysc::check_deadlock(ad.sys());
  ASSERT_TRUE(ra.ok) << ra.error;
  EXPECT_TRUE(ra.acyclic);
  EXPECT_EQ(ra.channels, 3 * 96 + 2 * 56);
  EXPECT_EQ(ra.dependencies, 168 + 168 + 48 + 168 + 168);
}

// A Dragonfly in one class (test_unsafe_single_class: every class on class 0's VCs) is cyclic even
// with minimal routes: global A->B, local in B, global B->C, ... around the groups. With UGAL too.
TEST(DeadlockCheck, DragonflyInOneClassIsCyclic) {
  for (bool adaptive : {false, true}) {
    auto cfg = shipped("dragonfly-64");
    cfg.adaptive = adaptive;
    cfg.test_unsafe_single_class = true;
    tb::TrafficSystem ts(cfg);
    const auto r = sysc::check_deadlock(ts.sys());
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_FALSE(r.acyclic) << "adaptive " << adaptive;
    expect_real_cycle(r);
    const std::string text = cycle_text(ts.sys(), r);
    EXPECT_NE(text.find("df.g"), std::string::npos) << text;
  }
}

// torus-64 with the dateline class switch removed (the real routing, every class forced to 0): each
// ring of the torus is a cycle of channels.
TEST(DeadlockCheck, TorusWithoutDatelineIsCyclic) {
  tb::TrafficSystem ts(shipped("torus-64"));
  const auto& sys = ts.sys();
  const auto real = sysc::system_routing(sys);
  const sysc::RouteChoices no_dateline = [&](const sysc::RouteQuery& q,
                                             std::vector<sysc::RouteDecision>& out) {
    const std::size_t first = out.size();
    real(q, out);
    for (std::size_t i = first; i < out.size(); ++i) out[i].out_class = 0;
  };
  const auto r = sysc::check_deadlock(sys, no_dateline);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.acyclic);
  expect_real_cycle(r);
  for (const auto& c : r.cycle) EXPECT_EQ(c.cls, 0);
  const std::string text = cycle_text(sys, r);
  EXPECT_NE(text.find("router b("), std::string::npos) << text;
  EXPECT_NE(text.find("back to "), std::string::npos) << text;
}

// The same through the configuration: test_unsafe_single_class maps every class to class 0's VCs,
// so the dateline still changes the class asked for but the channels are the same.
TEST(DeadlockCheck, SingleClassPlanFoldsClassesAndIsCyclic) {
  auto cfg = shipped("torus-64");
  cfg.test_unsafe_single_class = true;
  tb::TrafficSystem ts(cfg);
  const auto r = sysc::check_deadlock(ts.sys());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.acyclic);
  expect_real_cycle(r);
}

// mesh-8x8 with every turn allowed: XY toward even nodes, YX toward odd ones, one class.
TEST(DeadlockCheck, MeshWithAllTurnsIsCyclic) {
  tb::TrafficSystem ts(shipped("mesh-8x8"));
  const auto& sys = ts.sys();
  const sysc::RouteChoices mixed = [&](const sysc::RouteQuery& q,
                                       std::vector<sysc::RouteDecision>& out) {
    const auto& s = sys.router_setup(q.block);
    const auto d = sysc::unpack_coord(q.dst_route);
    sysc::RouteDecision r;
    if (q.dst % 2 == 0) {
      r.port = sysc::dor_port(s.local_row, s.local_col, d.local_row, d.local_col);
    } else {   // YX: dor_port with rows and columns swapped, ports renamed
      const int p = sysc::dor_port(s.local_col, s.local_row, d.local_col, d.local_row);
      r.port = p == sysc::kPortE ? sysc::kPortS
               : p == sysc::kPortW ? sysc::kPortN
               : p == sysc::kPortS ? sysc::kPortE
               : p == sysc::kPortN ? sysc::kPortW
                                   : p;
    }
    out.push_back(r);
  };
  const auto r = sysc::check_deadlock(sys, mixed);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.acyclic);
  expect_real_cycle(r);
}

// Adaptive board routing (router.routing "adaptive"): every Y-first alternative a router may take
// is in the graph, which stays acyclic (north-last on boards, a class per tree entered; on the
// torus north-last inside a class, a class per wrap-around link crossed) and has strictly more
// dependencies than the deterministic one.
class DeadlockAdaptive : public ::testing::TestWithParam<std::string> {};

TEST_P(DeadlockAdaptive, AdaptiveGraphIsAcyclicAndLarger) {
  auto cfg = shipped(GetParam());
  tb::TrafficSystem det(cfg);
  const auto rd = sysc::check_deadlock(det.sys());
  cfg.adaptive = true;
  tb::TrafficSystem ad(cfg);
  const auto ra = sysc::check_deadlock(ad.sys());
  ASSERT_TRUE(ra.ok) << ra.error;
  EXPECT_TRUE(ra.acyclic) << cycle_text(ad.sys(), ra);
  EXPECT_GT(ra.dependencies, rd.dependencies);
  EXPECT_GE(ra.channels, rd.channels);
}

INSTANTIATE_TEST_SUITE_P(Configs, DeadlockAdaptive,
                         ::testing::Values("hx2mesh-16", "hx2mesh-64", "hx4mesh-64",
                                           "hx2mesh-1024", "hx4mesh-1024", "mesh-8x8", "torus-64",
                                           "dragonfly-64", "dragonfly-1024"),
                         test_name);

// The same adaptive choice without the north-last rule (a Y-first move north on the board allowed
// while X remains) closes a turn cycle on the board mesh: the check must find it.
TEST(DeadlockCheck, AdaptiveWithoutNorthLastIsCyclic) {
  auto cfg = shipped("mesh-8x8");
  cfg.adaptive = true;
  tb::TrafficSystem ts(cfg);
  const auto& sys = ts.sys();
  const sysc::RouteChoices any_turn = [&](const sysc::RouteQuery& q,
                                          std::vector<sysc::RouteDecision>& out) {
    const auto& s = sys.router_setup(q.block);
    const auto d = sysc::unpack_coord(q.dst_route);
    sysc::RouteDecision r;
    r.port = sysc::dor_port(s.local_row, s.local_col, d.local_row, d.local_col);
    out.push_back(r);
    if (d.local_col != s.local_col && d.local_row != s.local_row) {
      sysc::RouteDecision y;
      y.port = d.local_row < s.local_row ? sysc::kPortN : sysc::kPortS;
      out.push_back(y);
    }
  };
  const auto r = sysc::check_deadlock(sys, any_turn);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.acyclic);
  expect_real_cycle(r);
  // With the rule (the system's own adaptive routing) the same mesh is acyclic.
  const auto own = sysc::check_deadlock(sys);
  EXPECT_TRUE(own.acyclic);
}

// Threads share out the destinations; the graph, and so the cycle found, is the same for any count.
TEST(DeadlockCheck, SameGraphForAnyThreadCount) {
  tb::TrafficSystem ts(shipped("hx2mesh-64"));
  const auto one = sysc::check_deadlock(ts.sys(), {}, 1);
  ASSERT_TRUE(one.ok) << one.error;
  for (int threads : {2, 3}) {
    const auto many = sysc::check_deadlock(ts.sys(), {}, threads);
    ASSERT_TRUE(many.ok) << many.error;
    EXPECT_EQ(many.channels, one.channels) << threads;
    EXPECT_EQ(many.dependencies, one.dependencies) << threads;
    EXPECT_TRUE(many.successors == one.successors) << threads;
  }
  tb::TrafficSystem torus(shipped("torus-64"));
  const auto real = sysc::system_routing(torus.sys());
  const sysc::RouteChoices no_dateline = [&](const sysc::RouteQuery& q,
                                             std::vector<sysc::RouteDecision>& out) {
    real(q, out);
    for (auto& d : out) d.out_class = 0;
  };
  const auto c1 = sysc::check_deadlock(torus.sys(), no_dateline, 1);
  const auto c2 = sysc::check_deadlock(torus.sys(), no_dateline, 2);
  ASSERT_FALSE(c1.acyclic);
  EXPECT_TRUE(c1.cycle == c2.cycle);
}

// A routing that sends a head out of a port with no link is reported, not followed.
TEST(DeadlockCheck, RouteThroughUnconnectedPortIsAnError) {
  tb::TrafficSystem ts(shipped("mesh-8x8"));
  const sysc::RouteChoices west = [](const sysc::RouteQuery&, std::vector<sysc::RouteDecision>& out) {
    out.push_back({sysc::kPortW, 0});
  };
  const auto r = sysc::check_deadlock(ts.sys(), west);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unconnected port"), std::string::npos) << r.error;
}

// A class the VC plan gives no VCs (mesh-8x8 has one class) is reported, as the RTL asserts.
TEST(DeadlockCheck, ClassWithoutVcsIsAnError) {
  tb::TrafficSystem ts(shipped("mesh-8x8"));
  const auto real = sysc::system_routing(ts.sys());
  const sysc::RouteChoices class1 = [&](const sysc::RouteQuery& q,
                                        std::vector<sysc::RouteDecision>& out) {
    real(q, out);
    for (auto& d : out) d.out_class = 1;
  };
  const auto r = sysc::check_deadlock(ts.sys(), class1);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("for class 1, which has no VCs"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace hxemu::test
