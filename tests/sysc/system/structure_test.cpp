// Node, router, switch and link counts of every shipped configuration against the formulas of
// docs/topology.md.
#include <gtest/gtest.h>

#include "sysc/system/route_model.h"
#include "tests/util/system_test_util.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

struct Expected {
  int nodes, routers, switches, board_links, cable_links, terminal_links, trees;
};

Expected formulas(const sysc::SystemConfig& c) {
  Expected e{};
  const int n = c.nodes();
  e.nodes = n;
  e.terminal_links = n;
  if (c.topology == sysc::Topology::kFatTree) {
    const auto shape = sysc::tree_shape(n, c.radix, c.up_ports);
    e.routers = 0;
    e.switches = shape.switches();
    e.cable_links = shape.internal_links();
    e.trees = 1;
    return e;
  }
  if (c.topology == sysc::Topology::kDragonfly) {
    // One plane (synthetic traffic): g*a routers (switch blocks), a(a-1)/2 local links per group,
    // one global link per pair of groups, all cables.
    const int g = c.df_groups, a = c.df_routers;
    e.switches = g * a;
    e.cable_links = g * a * (a - 1) / 2 + g * (g - 1) / 2;
    return e;
  }
  const int a = c.board_rows, b = c.board_cols, x = c.grid_rows, y = c.grid_cols;
  e.routers = n;
  e.board_links = x * y * (a * (b - 1) + b * (a - 1));
  if (c.topology == sysc::Topology::kTorus) {
    e.cable_links = x * y * (a + b);   // every board's E and S edges, wrapping around
    return e;
  }
  if (y > 1) {   // x*a row trees of 2y ports
    const auto shape = sysc::tree_shape(2 * y, c.radix, c.up_ports);
    e.trees += x * a;
    e.switches += x * a * shape.switches();
    e.cable_links += x * a * (2 * y + shape.internal_links());
  }
  if (x > 1) {   // y*b column trees of 2x ports
    const auto shape = sysc::tree_shape(2 * x, c.radix, c.up_ports);
    e.trees += y * b;
    e.switches += y * b * shape.switches();
    e.cable_links += y * b * (2 * x + shape.internal_links());
  }
  return e;
}

class ShippedConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedConfig, CountsMatchTheTopologyFormulas) {
  const auto cfg = shipped(GetParam());
  tb::TrafficSystem ts(cfg);
  const auto& sys = ts.sys();
  const Expected e = formulas(cfg);
  EXPECT_EQ(sys.nodes(), e.nodes);
  EXPECT_EQ(sys.routers(), e.routers);
  EXPECT_EQ(sys.switches(), e.switches);
  EXPECT_EQ(static_cast<int>(sys.trees().size()), e.trees);
  const auto links = sys.connections_per_class();
  EXPECT_EQ(links[0], e.board_links);
  EXPECT_EQ(links[1], e.cable_links);
  EXPECT_EQ(links[2], e.terminal_links);
  EXPECT_EQ(sys.net().blocks(), e.routers + e.switches + e.nodes);
  // Every node's route to node 0 and back is well formed.
  for (int n = 0; n < sys.nodes(); n += std::max(1, sys.nodes() / 64)) {
    EXPECT_TRUE(sysc::trace_path(sys, n, 0).ok) << n;
    EXPECT_TRUE(sysc::trace_path(sys, 0, n).ok) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, ShippedConfig,
                         ::testing::Values("hx2mesh-16", "hx2mesh-64", "hx4mesh-64",
                                           "hx4mesh-1024", "hx2mesh-1024", "torus-64",
                                           "fattree-64", "fattree-64-4plane", "mesh-8x8", "dragonfly-64",
                                           "dragonfly-1024"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& ch : s) {
                             if (ch == '-') ch = '_';
                           }
                           return s;
                         });

// The paper-scale configurations, counted by hand from the topology (docs/topology.md), not from the
// formulas above:
//   hx2mesh-1024: 2x2 boards, 16x16 grid. 256 boards x 4 on-board links = 1,024 board links.
//     32 row trees (16 grid rows x 2 accelerator rows) of 2 x 16 = 32 ports and 32 column trees
//     of 32 ports; radix 8: 8 leaves (4 down, 4 up) + 4 spines = 12 switches and 8 x 4 = 32
//     leaf-spine links per tree. Switches 64 x 12 = 768; cables 64 x (32 + 32) = 4,096.
//   hx4mesh-16k: 4x4 boards, 32x32 grid, 16,384 accelerators. 1,024 boards x 24 on-board links =
//     24,576. 128 row trees (32 x 4) of 64 ports and 128 column trees of 64 ports; radix 16:
//     8 leaves (8 down, 8 up) + 8 spines = 16 switches and 64 leaf-spine links per tree.
//     Switches 256 x 16 = 4,096; cables 256 x (64 + 64) = 32,768.
struct ScaleCase {
  const char* name;
  Expected e;
  int leaves, spines, tree_ports;
};

void PrintTo(const ScaleCase& c, std::ostream* os) { *os << c.name; }

class ScaleConfig : public ::testing::TestWithParam<ScaleCase> {};

TEST_P(ScaleConfig, ExactCountsAndWellFormedRoutes) {
  const ScaleCase& k = GetParam();
  const auto cfg = shipped(k.name);
  tb::TrafficSystem ts(cfg);
  const auto& sys = ts.sys();
  EXPECT_EQ(sys.nodes(), k.e.nodes);
  EXPECT_EQ(sys.routers(), k.e.routers);
  EXPECT_EQ(sys.switches(), k.e.switches);
  EXPECT_EQ(static_cast<int>(sys.trees().size()), k.e.trees);
  const auto links = sys.connections_per_class();
  EXPECT_EQ(links[0], k.e.board_links);
  EXPECT_EQ(links[1], k.e.cable_links);
  EXPECT_EQ(links[2], k.e.terminal_links);
  EXPECT_EQ(sys.net().blocks(), k.e.routers + k.e.switches + k.e.nodes);
  for (const auto& t : sys.trees()) {
    ASSERT_EQ(t.built.leaves, k.leaves) << t.name;
    ASSERT_EQ(t.built.spines, k.spines) << t.name;
    ASSERT_EQ(static_cast<int>(t.built.tree_ports.size()), k.tree_ports) << t.name;
  }
  // Node ids up to the last one fit the 16-bit header fields; routes between far corners, along a
  // row, along a column and inside a board are well formed and minimal in tree crossings.
  const int last = sys.nodes() - 1;
  for (const auto& [s, d] : std::vector<std::pair<int, int>>{
           {0, last}, {last, 0}, {0, 1}, {1, last - 1}, {last / 2, last / 3}, {last, last - 17}}) {
    const auto p = sysc::trace_path(sys, s, d);
    EXPECT_TRUE(p.ok) << s << " -> " << d << ": " << p.error;
  }
  for (int n = 0; n < sys.nodes(); n += std::max(1, sys.nodes() / 64)) {
    EXPECT_TRUE(sysc::trace_path(sys, n, last).ok) << n;
    EXPECT_TRUE(sysc::trace_path(sys, last, n).ok) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Paper, ScaleConfig,
    ::testing::Values(
        ScaleCase{"hx2mesh-1024", {1024, 1024, 768, 1024, 4096, 1024, 64}, 8, 4, 32},
        ScaleCase{"hx4mesh-16k", {16384, 16384, 4096, 24576, 32768, 16384, 256}, 8, 8, 64}),
    [](const auto& info) {
      std::string s = info.param.name;
      for (char& ch : s) {
        if (ch == '-') ch = '_';
      }
      return s;
    });

// Node numbering: node = board * (a*b) + local_row * b + local_col, boards row-major.
TEST(SystemStructure, NodeNumberingIsBoardMajorRowMajor) {
  const auto cfg = shipped("hx4mesh-64");
  tb::TrafficSystem ts(cfg);
  const auto c = ts.sys().coord(2 * 16 + 1 * 4 + 3);   // board 2, row 1, col 3
  EXPECT_EQ(c.grid_row, 1);
  EXPECT_EQ(c.grid_col, 0);
  EXPECT_EQ(c.local_row, 1);
  EXPECT_EQ(c.local_col, 3);
}

}  // namespace
}  // namespace hxemu::test
