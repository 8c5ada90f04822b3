// Synthetic traffic on a paper-scale machine: hx2mesh-1024 (1,024 accelerators, row and column trees
// of 32 ports built as two-level fat trees of radix-8 switches). A short uniform run at a low load
// delivers every measured packet intact, exactly once, to the right node, and its packets cross the
// two-level trees (leaf, spine, leaf) as the routing model says.
#include <gtest/gtest.h>

#include <string>

#include "tb/traffic/traffic_run.h"
#include "tests/util/system_test_util.h"

namespace hxemu::test {
namespace {

TEST(ScaleTraffic, Hx2mesh1024UniformShortRunIsClean) {
  tb::TrafficRunConfig rc;
  rc.pattern = "uniform";
  rc.load = 0.05;
  rc.packet_flits = "4";
  rc.warmup = 200;
  rc.measure = 400;
  rc.drain_limit = 3000;
  rc.watchdog.stall_cycles = 3000;
  const auto r = tb::run_traffic(shipped("hx2mesh-1024"), rc);
  std::string errors;
  for (const auto& e : r.errors) errors += e + "\n";
  ASSERT_TRUE(r.checks_passed) << errors;
  EXPECT_EQ(r.nodes, 1024);
  EXPECT_TRUE(r.clean());
  EXPECT_TRUE(r.drained);
  EXPECT_FALSE(r.saturated);
  EXPECT_EQ(r.withdrawn_packets, 0u);
  // 1,024 nodes x 400 cycles x 0.05 / 4 flits = 5,120 packets expected; Bernoulli noise is ~1.4%.
  EXPECT_GT(r.measured_packets, 4700u);
  EXPECT_LT(r.measured_packets, 5600u);
  EXPECT_EQ(r.delivered_packets, r.measured_packets);
  EXPECT_TRUE(r.has_trees);
  EXPECT_GT(r.tree_latency_mean, 0.0);
  // Uniform traffic mostly changes board row and column: most packets cross a row tree and a
  // column tree, each 4 links through leaf, spine and leaf, plus board hops.
  EXPECT_GT(r.hops_mean, 6.0);
  EXPECT_NEAR(r.accepted, r.offered, 0.05 * r.offered);
}

}  // namespace
}  // namespace hxemu::test
