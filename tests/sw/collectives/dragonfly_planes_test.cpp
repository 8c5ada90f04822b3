// The Dragonfly baseline at equal injection (configs/dragonfly-64.json): four independent planes,
// NIC k of every accelerator on plane k. Collectives use all four rails and check their data, under
// minimal and UGAL routing; synthetic traffic builds only the first plane.
#include <gtest/gtest.h>

#include "sw/collectives/session.h"
#include "sysc/system/route_model.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig dragonfly(bool adaptive) {
  auto c = sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/dragonfly-64.json");
  c.adaptive = adaptive;
  return c;
}

TEST(DragonflyPlanes, FourPlanesFourRails) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession s(dragonfly(false), sc);
  ASSERT_EQ(s.rails(), 4);
  const auto& sys = s.system();
  EXPECT_EQ(sys.switches(), 4 * 32);
  EXPECT_TRUE(sys.trees().empty());
  for (int k = 0; k < 4; ++k) {
    const auto p = sysc::trace_path(sys, 0, 63, k);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.links, 3);   // node 0: router 0 of group 0; node 63: router 3 of group 7
    for (const auto& h : p.hops) {
      EXPECT_NE(sys.net().block_name(h.block).find("df.p" + std::to_string(k) + "."), std::string::npos)
          << sys.net().block_name(h.block);
    }
  }
}

// Allreduce (ring) and alltoall (all pieces posted at once; data checked bit-exactly) in both routing modes.
TEST(DragonflyPlanes, AllreduceAndAlltoallCheckTheirData) {
  for (bool adaptive : {false, true}) {
    sw::SessionConfig sc;
    sc.max_bytes = 64 * 1024;
    sw::CollectiveSession s(dragonfly(adaptive), sc);
    const auto ar = s.run(sw::CollectiveOp::kAllreduce, "ring", 64 * 1024);
    ASSERT_TRUE(ar.ok) << (ar.errors.empty() ? "" : ar.errors.front());
    EXPECT_EQ(ar.wrong, 0u);
    EXPECT_GT(ar.checked, 0u);
    EXPECT_DOUBLE_EQ(ar.injection, 4 * dragonfly(adaptive).link_gbps() / 8.0);
    const auto a2a = s.run(sw::CollectiveOp::kAlltoall, "all-at-once", 16 * 1024);
    ASSERT_TRUE(a2a.ok) << (a2a.errors.empty() ? "" : a2a.errors.front());
    EXPECT_EQ(a2a.wrong, 0u);
    EXPECT_GT(a2a.checked, 0u);
  }
}

TEST(DragonflyPlanes, SyntheticTrafficBuildsOnePlane) {
  tb::TrafficSystem ts(dragonfly(false));
  EXPECT_EQ(ts.sys().rails(), 1);
  EXPECT_EQ(ts.sys().switches(), 32);
  EXPECT_EQ(ts.sys().partitions().size(), 8u);   // one per group
}

}  // namespace
}  // namespace hxemu::test
