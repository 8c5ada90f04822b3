// The DOR-only board routers (rtl/router/hx_board_router.sv DOR_ONLY=1; cmake/HxVariants.cmake
// HX_DOR_ROUTERS): a system with deterministic HammingMesh or mesh routing and no link failures is
// built with them, and its packets arrive in exactly the cycles they do through the general routers
// (SystemConfig::specialised_models = false). A run that fails a link gets the general routers;
// adaptive routing and the torus never get DOR-only routers.
#include <gtest/gtest.h>

#include <string>

#include "tb/traffic/traffic_run.h"
#include "tb/traffic_system.h"
#include "traffic_test_util.h"

namespace hxemu::test {
namespace {

bool built_dor_only(const sysc::SystemConfig& cfg) {
  tb::TrafficSystem ts(cfg);
  return ts.sys().dor_only_routers();
}

TEST(DorRouterTraffic, DeterministicSystemsTakeTheDorOnlyRouters) {
  // hx2mesh-16 (6 VCs) and mesh-8x8 (2 VCs): shapes the build has DOR-only variants of.
  EXPECT_TRUE(built_dor_only(shipped_with("hx2mesh-16", {})));
  EXPECT_TRUE(built_dor_only(shipped_with("mesh-8x8", {})));
  auto with_failures = shipped_with("hx2mesh-16", {});
  with_failures.link_failures = true;
  EXPECT_FALSE(built_dor_only(with_failures));
  auto general = shipped_with("hx2mesh-16", {});
  general.specialised_models = false;
  EXPECT_FALSE(built_dor_only(general));
  EXPECT_FALSE(built_dor_only(shipped_with("hx2mesh-16", {"router.routing=adaptive"})));
  EXPECT_FALSE(built_dor_only(shipped_with("torus-64", {})));
}

// The same run through DOR-only and through general routers: every packet arrives in the same
// cycles on the same VC (the arrival digest), with the same latencies.
void expect_same_run(const std::string& config, double load) {
  const auto dor = shipped_with(config, {});
  auto general = dor;
  general.specialised_models = false;
  const auto point = traffic_point("uniform", load, 300, 1500, 7);
  const auto a = tb::run_traffic(dor, point);
  const auto b = tb::run_traffic(general, point);
  ASSERT_TRUE(a.clean()) << a.verdict();
  ASSERT_TRUE(b.clean()) << b.verdict();
  EXPECT_GT(a.delivered_packets, 500u);
  EXPECT_EQ(a.arrival_digest, b.arrival_digest) << config;
  EXPECT_EQ(a.delivered_packets, b.delivered_packets);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.packet_latency.mean(), b.packet_latency.mean());
}

TEST(DorRouterTraffic, ArrivalsMatchTheGeneralRouterOnAHammingMesh) { expect_same_run("hx2mesh-16", 0.3); }

TEST(DorRouterTraffic, ArrivalsMatchTheGeneralRouterOnAMeshNearSaturation) {
  expect_same_run("mesh-8x8", 0.35);
}

// A link failure needs the general routers: traffic's --fail-link builds them (the run works), and a
// failure applied to a system built without them is refused before anything is scheduled.
TEST(DorRouterTraffic, LinkFailuresTakeTheGeneralRouters) {
  auto point = traffic_point("uniform", 0.1, 200, 600, 3);
  point.drain_limit = 2000;
  point.watchdog.stall_cycles = 1000;
  point.faults.failures.push_back({"router5.E", 400});
  const auto r = tb::run_traffic(shipped_with("mesh-8x8", {}), point);
  EXPECT_EQ(r.faults.failures.size(), 1u);

  tb::TrafficSystem ts(shipped_with("mesh-8x8", {}));
  ASSERT_TRUE(ts.sys().dor_only_routers());
  sysc::FaultPlan plan;
  plan.failures.push_back({"router5.E", 400});
  try {
    sysc::apply_fault_plan(ts.sys(), plan);
    FAIL() << "a failure on DOR-only routers was applied";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("SystemConfig::link_failures"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hxemu::test
