// One packet between every ordered pair of nodes, one at a time: it arrives at the right node,
// intact; the links it crossed (measured by the links' flit counters) are the minimal route of
// docs/topology.md as the routing model traces it; and its zero-load latency equals the pipeline
// model exactly: 2 cycles per router or switch + the latency of every link on the path, plus
// serialization for the tail.
#include <gtest/gtest.h>

#include <random>

#include "sysc/system/route_model.h"
#include "tests/util/system_test_util.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

struct PairResult {
  int links = 0;             // measured, network links only
  std::uint64_t head = 0;    // head latency: on the source's output -> on the destination's input
  std::uint64_t tail = 0;
  bool delivered = false;
};

PairResult send_one(tb::TrafficSystem& ts, int src, int dst, int flits) {
  auto& net = ts.sys().net();
  std::vector<std::uint64_t> before(net.links());
  for (int l = 0; l < net.links(); ++l) before[l] = net.link_flits(l);
  const auto id = ts.send(src, dst, flits);
  PairResult r;
  r.delivered = ts.drain(5000);
  const auto& rec = ts.scoreboard().record(id);
  int crossed = 0;
  for (int l = 0; l < net.links(); ++l) {
    if (net.link_info(l).cls == sysc::LinkClass::kTerminal) continue;
    crossed += static_cast<int>(net.link_flits(l) - before[l]);
  }
  r.links = crossed / flits;
  r.head = rec.delivery.head_arrival - rec.injected;
  r.tail = rec.delivery.tail_arrival - rec.injected;
  return r;
}

void check_all_pairs(const std::string& name, int flits) {
  tb::TrafficSystem ts(shipped(name));
  const int n = ts.nodes();
  for (int src = 0; src < n; ++src) {
    for (int dst = 0; dst < n; ++dst) {
      if (src == dst) continue;
      const auto path = sysc::trace_path(ts.sys(), src, dst);
      ASSERT_TRUE(path.ok) << path.error;
      const PairResult r = send_one(ts, src, dst, flits);
      ASSERT_TRUE(r.delivered) << name << " " << src << " -> " << dst;
      ASSERT_EQ(r.links, path.links) << name << " " << src << " -> " << dst;
      ASSERT_EQ(r.head, static_cast<std::uint64_t>(path.latency)) << name << " " << src << " -> " << dst;
      ASSERT_EQ(r.tail, static_cast<std::uint64_t>(path.latency + flits - 1));
    }
  }
  EXPECT_EQ(ts.scoreboard().delivered_count(), static_cast<std::size_t>(n * (n - 1)));
  for (const auto& e : ts.scoreboard().errors()) ADD_FAILURE() << e;
  EXPECT_FALSE(ts.sys().any_error());
}

TEST(AllPairs, Hx2Mesh16) { check_all_pairs("hx2mesh-16", 3); }
TEST(AllPairs, Hx4Mesh64) { check_all_pairs("hx4mesh-64", 2); }
TEST(AllPairs, Torus64) { check_all_pairs("torus-64", 2); }
TEST(AllPairs, FatTree64) { check_all_pairs("fattree-64", 2); }
TEST(AllPairs, Mesh8x8) { check_all_pairs("mesh-8x8", 1); }
TEST(AllPairs, Dragonfly64) { check_all_pairs("dragonfly-64", 2); }

// On hx2mesh-16 the route lengths follow directly from the topology: 1-2 on-board links within a
// board; 2 links through one switch to another board in the same accelerator row or column; and
// otherwise one row tree and one column tree, 4 links (every accelerator of a 2x2 board sits on
// both a W/E and an N/S edge).
TEST(AllPairs, Hx2Mesh16RouteLengthsByCase) {
  tb::TrafficSystem ts(shipped("hx2mesh-16"));
  const auto& sys = ts.sys();
  for (int src = 0; src < 16; ++src) {
    for (int dst = 0; dst < 16; ++dst) {
      if (src == dst) continue;
      const auto a = sys.coord(src), b = sys.coord(dst);
      const bool same_board = a.grid_row == b.grid_row && a.grid_col == b.grid_col;
      const int grow = a.grid_row * 2 + a.local_row, gcol = a.grid_col * 2 + a.local_col;
      const int drow = b.grid_row * 2 + b.local_row, dcol = b.grid_col * 2 + b.local_col;
      int expected;
      if (same_board) {
        expected = std::abs(a.local_row - b.local_row) + std::abs(a.local_col - b.local_col);
      } else if (grow == drow || gcol == dcol) {
        expected = 2;
      } else if (a.grid_row == b.grid_row || a.grid_col == b.grid_col) {
        // Other board in the same board row (or column), different accelerator row (column):
        // one tree plus one on-board link.
        expected = 3;
      } else {
        expected = 4;
      }
      const PairResult r = send_one(ts, src, dst, 1);
      ASSERT_TRUE(r.delivered);
      EXPECT_EQ(r.links, expected) << src << " -> " << dst;
    }
  }
}

// 1,024 accelerators (4x4 boards in an 8x8 grid) build in one process and deliver a random
// sample of pairs with the exact zero-load latency.
TEST(AllPairs, Hx4Mesh1024RandomSample) {
  tb::TrafficSystem ts(shipped("hx4mesh-1024"));
  ASSERT_EQ(ts.nodes(), 1024);
  std::mt19937_64 rng(42);
  for (int i = 0; i < 150; ++i) {
    const int src = static_cast<int>(rng() % 1024);
    int dst = static_cast<int>(rng() % 1024);
    if (dst == src) dst = (dst + 1) % 1024;
    const auto path = sysc::trace_path(ts.sys(), src, dst);
    ASSERT_TRUE(path.ok) << path.error;
    const PairResult r = send_one(ts, src, dst, 4);
    ASSERT_TRUE(r.delivered) << src << " -> " << dst;
    EXPECT_EQ(r.links, path.links);
    EXPECT_EQ(r.head, static_cast<std::uint64_t>(path.latency));
  }
  for (const auto& e : ts.scoreboard().errors()) ADD_FAILURE() << e;
}

}  // namespace
}  // namespace hxemu::test
