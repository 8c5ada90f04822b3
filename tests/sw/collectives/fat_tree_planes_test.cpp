// The fat-tree baseline at equal injection (configs/fattree-64-4plane.json): four independent
// planes, NIC k of every accelerator on plane k, so a node injects over four ports as a HammingMesh
// node does. Collectives use all four rails and check their data; synthetic traffic (one endpoint
// per node) builds only the first plane.
#include <gtest/gtest.h>

#include "sw/collectives/session.h"
#include "sysc/system/route_model.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig planes_config() {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/fattree-64-4plane.json");
}

TEST(FatTreePlanes, FourPlanesFourRailsAndAllreduceChecks) {
  sw::SessionConfig sc;
  sc.max_bytes = 256 * 1024;
  sw::CollectiveSession s(planes_config(), sc);
  ASSERT_EQ(s.rails(), 4);
  const auto& sys = s.system();
  ASSERT_EQ(sys.trees().size(), 4u);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(sys.trees()[k].index, k);
  // Every node's NIC k reaches every other node's NIC k over plane k only.
  for (int k = 0; k < 4; ++k) {
    const auto p = sysc::trace_path(sys, 0, 63, k);
    ASSERT_TRUE(p.ok) << p.error;
    for (const auto& h : p.hops) {
      EXPECT_NE(sys.net().block_name(h.block).find("fattree.p" + std::to_string(k)), std::string::npos)
          << sys.net().block_name(h.block);
    }
  }
  const auto r = s.run(sw::CollectiveOp::kAllreduce, "ring", 256 * 1024);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.wrong, 0u);
  // Injection: four network ports per accelerator at the link rate, as on a HammingMesh node.
  EXPECT_DOUBLE_EQ(r.injection, 4 * planes_config().link_gbps() / 8.0);
}

TEST(FatTreePlanes, SyntheticTrafficBuildsOnePlane) {
  tb::TrafficSystem ts(planes_config());
  EXPECT_EQ(ts.sys().rails(), 1);
  EXPECT_EQ(ts.sys().trees().size(), 1u);
}

}  // namespace
}  // namespace hxemu::test
