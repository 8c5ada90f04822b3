// Unit tests of the tree switch (rtl/switch/hx_switch.sv + rtl/route/hx_route_tree.sv), single and
// assembled into two-level trees. See testplan.md.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sysc/fabric/coord_word.h"
#include "tree_bench.h"

namespace hxemu::test {
namespace {

using sysc::TreeKind;
using sysc::TreeSpec;

TreeSpec fat_tree(int ports, int radix, int vcs = 2,
                  sysc::VcPolicy policy = sysc::VcPolicy::kDynamic) {
  TreeSpec s;
  s.name = "tree";
  s.kind = TreeKind::kFatTree;
  s.tree_ports = ports;
  s.radix = radix;
  s.vc = sysc::make_vc_plan(vcs, 1, vcs, policy);
  return s;
}

void expect_clean(const TreeBench& b) {
  for (const auto& e : b.sb->errors()) ADD_FAILURE() << e;
  EXPECT_FALSE(b.any_block_error());
}

class SwitchRadix : public ::testing::TestWithParam<int> {};

// Every input to every output of one switch, one packet at a time, single and multi-flit; the
// zero-load latency is exact: endpoint link (1) + switch (2) + endpoint link (1), plus
// serialization, counted from the cycle the head is on the source endpoint's output.
TEST_P(SwitchRadix, EveryInputToEveryOutputWithExactLatency) {
  const int k = GetParam();
  TreeBench b(fat_tree(k, k));
  for (int src = 0; src < k; ++src) {
    for (int dst = 0; dst < k; ++dst) {
      for (int flits : {1, 6}) {
        const auto id = b.send(src, dst, flits);
        ASSERT_TRUE(b.drain(500)) << src << " -> " << dst;
        const auto& r = b.sb->record(id);
        ASSERT_EQ(r.deliveries, 1);
        // head on the source's output in cycle t; on the switch input t + L, on its output 2 cycles
        // later, at the destination endpoint L after that (L = 1): t + 4.
        EXPECT_EQ(r.delivery.head_arrival, r.injected + 4);
        EXPECT_EQ(r.delivery.tail_arrival, r.injected + 4 + static_cast<std::uint64_t>(flits - 1));
      }
    }
  }
  EXPECT_EQ(b.sb->delivered_count(), static_cast<std::size_t>(k * k * 2));
  expect_clean(b);
}

INSTANTIATE_TEST_SUITE_P(K, SwitchRadix, ::testing::Values(4, 8, 16),
                         [](const auto& info) { return "K" + std::to_string(info.param); });

// All ports sending to all ports at once through one switch: everything arrives intact.
TEST_P(SwitchRadix, AllToAllBurst) {
  const int k = GetParam();
  TreeBench b(fat_tree(k, k));
  for (int rep = 0; rep < 3; ++rep) {
    for (int src = 0; src < k; ++src) {
      for (int dst = 0; dst < k; ++dst) b.send(src, dst, 1 + (src + dst + rep) % 8);
    }
  }
  ASSERT_TRUE(b.drain(20000));
  EXPECT_EQ(b.sb->outstanding(), 0u);
  expect_clean(b);
}

// Row-tree port mapping: tree port 2j is board column j's W edge, 2j+1 its E edge; the switch picks
// the edge closer to the destination column (ties W).
TEST(Switch, RowAndColumnTreePortMapping) {
  for (TreeKind kind : {TreeKind::kRow, TreeKind::kColumn}) {
    TreeSpec s = fat_tree(8, 8);
    s.kind = kind;
    s.board_rows = 4;
    s.board_cols = 5;
    TreeBench b(s);
    const int side = kind == TreeKind::kRow ? s.board_cols : s.board_rows;
    for (int board = 0; board < 4; ++board) {
      for (int local = 0; local < side; ++local) {
        const int expect_port = 2 * board + (local > side - 1 - local ? 1 : 0);
        // head bits [63:32]: the destination's coordinate word
        const std::uint32_t route = kind == TreeKind::kRow
                                        ? sysc::pack_coord({0, board, 0, local})
                                        : sysc::pack_coord({board, 0, local, 0});
        const auto id = b.send(0, expect_port, 2, route);
        ASSERT_TRUE(b.drain(500));
        EXPECT_EQ(b.sb->record(id).delivery.dst, expect_port)
            << (kind == TreeKind::kRow ? "row" : "column") << " board " << board << " local "
            << local;
      }
    }
    expect_clean(b);
  }
}

// Two-level tree of radix-4 switches (2 down + 2 up per leaf): every pair of its 8 ports, with the
// exact zero-load latency of a same-leaf route (1 switch) and a cross-leaf route (3 switches).
TEST(SwitchTree, TwoLevelRadix4UpDownEveryPair) {
  TreeBench b(fat_tree(8, 4));
  ASSERT_EQ(b.tree.leaves, 4);
  ASSERT_EQ(b.tree.spines, 2);
  for (int src = 0; src < 8; ++src) {
    for (int dst = 0; dst < 8; ++dst) {
      const auto id = b.send(src, dst, 3);
      ASSERT_TRUE(b.drain(500)) << src << " -> " << dst;
      const auto& r = b.sb->record(id);
      const bool same_leaf = src / 2 == dst / 2;
      // switches x 2 + endpoint links (1 each) + leaf-spine links (1 each)
      const std::uint64_t hops = same_leaf ? 1 * 2 + 2 : 3 * 2 + 2 + 2;
      EXPECT_EQ(r.delivery.head_arrival, r.injected + hops) << src << " -> " << dst;
    }
  }
  expect_clean(b);
}

// Traffic that stays under one leaf never touches a spine.
TEST(SwitchTree, SameLeafTrafficStaysBelowTheLeaf) {
  TreeBench b(fat_tree(16, 8));
  for (int i = 0; i < 200; ++i) b.send(i % 4, (i + 1) % 4, 4);
  ASSERT_TRUE(b.drain(20000));
  for (int l = 0; l < b.net.links(); ++l) {
    const auto& info = b.net.link_info(l);
    if (info.cls == sysc::LinkClass::kCable) EXPECT_EQ(b.net.link_flits(l), 0u);
  }
  expect_clean(b);
}

// Uniform random traffic across a two-level radix-8 tree (4 leaves x 4 down, 4 spines): adaptive
// up-port choice spreads the up-going load evenly -- every up link within 10% of the mean.
TEST(SwitchTree, AdaptiveUpPortSpreadsLoadEvenly) {
  TreeBench b(fat_tree(16, 8));
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> node(0, 15);
  for (int cycle = 0; cycle < 20000; ++cycle) {
    for (int src = 0; src < 16; ++src) {
      if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.3 / 4) {
        int dst = node(rng);
        while (dst / 4 == src / 4) dst = node(rng);   // only cross-leaf traffic
        b.send(src, dst, 4);
      }
    }
    b.net.step();
  }
  ASSERT_TRUE(b.drain(100000));
  expect_clean(b);
  // Up links: leaf port >= 4 toward a spine.
  std::vector<double> up;
  for (int l = 0; l < b.net.links(); ++l) {
    const auto& info = b.net.link_info(l);
    if (info.cls != sysc::LinkClass::kCable) continue;
    const bool from_leaf = b.net.block_name(info.from.block).find("leaf") != std::string::npos;
    if (from_leaf) up.push_back(static_cast<double>(b.net.link_flits(l)));
  }
  ASSERT_EQ(up.size(), 16u);
  double mean = 0;
  for (double x : up) mean += x;
  mean /= static_cast<double>(up.size());
  ASSERT_GT(mean, 1000);
  for (double x : up) EXPECT_NEAR(x, mean, 0.10 * mean);
}

// Hash mode with the lane VC policy: the up port is a function of the destination and a packet
// keeps its lane, so each (source, destination, lane) stream keeps one path and stays in order.
TEST(SwitchTree, HashedUpPortAndLanesKeepStreamsInOrder) {
  TreeSpec s = fat_tree(16, 8, 4, sysc::VcPolicy::kLane);
  s.up_hash = true;
  TreeBench b(s);
  b.sb->set_check_order(true);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 3000; ++i) {
    const int src = static_cast<int>(rng() % 16);
    const int dst = static_cast<int>(rng() % 16);
    b.send(src, dst, 1 + static_cast<int>(rng() % 6));
  }
  ASSERT_TRUE(b.drain(200000));
  EXPECT_EQ(b.sb->outstanding(), 0u);
  expect_clean(b);
}

// Tapered tree: radix 8 leaves with 4 down and only 2 up (2:1). Everything still arrives.
TEST(SwitchTree, TaperedTreeDeliversEverything) {
  TreeSpec s = fat_tree(16, 8);
  s.up_ports = 2;
  TreeBench b(s);
  ASSERT_EQ(b.tree.spines, 2);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 4000; ++i) {
    b.send(static_cast<int>(rng() % 16), static_cast<int>(rng() % 16), 1 + static_cast<int>(rng() % 8));
  }
  ASSERT_TRUE(b.drain(400000));
  EXPECT_EQ(b.sb->outstanding(), 0u);
  expect_clean(b);
}

// The VC class is carried through: packets injected on class-1 VCs leave on class-1 VCs, across a
// two-level tree.
TEST(Switch, VcClassCarriedThrough) {
  TreeSpec s = fat_tree(8, 4);
  s.vc = sysc::make_vc_plan(4, 2, 2, sysc::VcPolicy::kDynamic);   // class 0: VCs 0-1, class 1: 2-3
  TreeBench b(s, /*inject_vcs=*/0xC);
  for (int src = 0; src < 8; ++src) {
    for (int dst = 0; dst < 8; ++dst) b.send(src, dst, 3);
  }
  ASSERT_TRUE(b.drain(20000));
  EXPECT_EQ(b.sb->delivered_count(), 64u);
  for (const auto& r : b.sb->records()) {
    EXPECT_TRUE(r.delivery.vc == 2 || r.delivery.vc == 3) << b.sb->history(r.spec.id);
  }
  expect_clean(b);
}

// The connection at switch port `port` of block `sw` fails from cycle 0: both directed links, and
// the port_down_i of both ends (what sysc::apply_fault_plan does on a whole system).
void fail_switch_port(TreeBench& b, int sw, int port) {
  const sysc::PortRef p{sw, port};
  b.net.fail_link(b.net.link_out(p), 0);
  b.net.fail_link(b.net.link_in(p), 0);
  b.net.schedule_block_fault(sw, 0, port, 0);
  const sysc::PortRef peer = b.net.link_info(b.net.link_out(p)).to;
  b.net.schedule_block_fault(peer.block, 0, peer.port, 0);
}

// A row tree whose port to board 1's W edge (tree port 2) is down: with adaptive up-port selection
// (the adaptive routing mode) the switch delivers board 1's packets to its E edge (tree port 3),
// the same board's other edge of that row; with hash selection (deterministic) the route stays
// and the packets are lost on the dead port.
TEST(SwitchFaults, RowTreeDeliversToTheBoardsOtherEdgeWhenOneIsDown) {
  for (bool hash : {false, true}) {
    TreeSpec s = fat_tree(8, 8);
    s.kind = TreeKind::kRow;
    s.board_rows = 4;
    s.board_cols = 5;
    s.up_hash = hash;
    TreeBench b(s);
    fail_switch_port(b, b.tree.tree_ports[2].block, b.tree.tree_ports[2].port);
    std::vector<std::uint64_t> ids;
    // Columns 0 and 1 of board 1 enter through its W edge (tree port 2); the endpoint at tree
    // port 3, board 1's E edge, is the one expected to take them (it stands for the board).
    for (int local = 0; local < 2; ++local) {
      ids.push_back(b.send(0, 3, 3, sysc::pack_coord({0, 1, 0, local})));
    }
    b.drain(2000);
    for (auto id : ids) {
      const auto& r = b.sb->record(id);
      if (hash) {
        EXPECT_EQ(r.deliveries, 0) << "hash routing keeps the dead port";
      } else {
        ASSERT_EQ(r.deliveries, 1);
        EXPECT_EQ(r.delivery.dst, 3);
      }
    }
    std::uint64_t lost = 0;
    for (const auto& ev : b.net.fault_events()) lost += ev.kind == sysc::Network::FaultEvent::Kind::kLostSent;
    EXPECT_EQ(lost, hash ? 6u : 0u);   // two 3-flit packets
  }
}

// A two-level tree (4 leaves of 4 down + 4 up ports, 4 spines) with the cable between leaf 0's
// first up port and spine 0 down: adaptive up-port selection never picks it, so every packet from
// leaf 0's endpoints arrives and nothing goes up the dead link. Coming down, spine 0 has no other
// way to leaf 0 (other leaves cannot know), so what is lost is lost there, and only there.
TEST(SwitchFaults, AdaptiveUpPortSelectionSkipsADeadUpLink) {
  TreeBench b(fat_tree(16, 8));
  ASSERT_EQ(b.tree.leaves, 4);
  const int leaf0 = b.tree.switches[0];
  fail_switch_port(b, leaf0, 4);
  for (int src = 0; src < 16; ++src) {
    for (int dst = 0; dst < 16; ++dst) {
      if (src != dst) b.send(src, dst, 4);
    }
  }
  b.drain(5000);
  std::uint64_t from_leaf0 = 0;
  for (const auto& r : b.sb->records()) {
    if (r.spec.src / 4 != 0) continue;
    ++from_leaf0;
    EXPECT_EQ(r.deliveries, 1) << r.spec.src << " -> " << r.spec.dst;
  }
  EXPECT_EQ(from_leaf0, 60u);
  EXPECT_EQ(b.net.link_flits(b.net.link_out({leaf0, 4})), 0u);
  for (const auto& ev : b.net.fault_events()) {
    EXPECT_EQ(b.net.link_info(ev.link).to.block, leaf0);
    EXPECT_EQ(ev.packet.dst / 4, 0);
  }
  for (const auto& e : b.sb->errors()) ADD_FAILURE() << e;
}

}  // namespace
}  // namespace hxemu::test
