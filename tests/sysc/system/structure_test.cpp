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
                                           "hx4mesh-1024", "torus-64", "fattree-64", "mesh-8x8"),
                         [](const auto& info) {
                           std::string s = info.param;
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
