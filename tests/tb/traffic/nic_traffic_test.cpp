// run_nic_traffic: synthetic traffic through the real NICs (tb/traffic/nic_traffic_run.h). Every
// message posted lands once with every word checked, below and far above saturation, on
// HammingMesh (four NICs per accelerator, both routing modes) and a one-plane fat tree; planted
// link faults are caught; results do not depend on the harness or its thread count.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sysc/blocks/verilated_context.h"
#include "sysc/harness/parallel_harness.h"
#include "tb/traffic/nic_traffic_run.h"
#include "traffic_test_util.h"

namespace hxemu::test {
namespace {

using Fault = tb::TrafficRunConfig::Fault;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "\n";
  return s;
}

// The NIC tests all run seed 7.
tb::TrafficRunConfig point(const std::string& pattern, double load, std::uint64_t warmup,
                           std::uint64_t measure) {
  return traffic_point(pattern, load, warmup, measure, 7);
}

// Every posted message landed and was completed to its host; what was measured was delivered or
// withdrawn unsent.
void expect_all_accounted(const tb::TrafficRunResult& r) {
  EXPECT_TRUE(r.checks_passed) << joined(r.errors) << r.stuck_report;
  EXPECT_TRUE(r.drained);
  EXPECT_GT(r.posted, 0u);
  EXPECT_EQ(r.posted, r.landed);
  EXPECT_EQ(r.landed, r.released);
  EXPECT_EQ(r.delivered_packets + r.withdrawn_packets, r.measured_packets);
}

TEST(NicTraffic, BelowSaturationAcceptsWhatIsOffered) {
  const auto cfg = shipped_with("hx2mesh-16", {});
  const auto r = tb::run_nic_traffic(cfg, point("uniform", 0.15, 500, 3000));
  expect_all_accounted(r);
  EXPECT_EQ(r.endpoints, "nic");
  EXPECT_EQ(r.rails, 4);
  EXPECT_FALSE(r.saturated) << r.verdict();
  EXPECT_EQ(r.withdrawn_packets, 0u);
  EXPECT_EQ(r.delivered_packets, r.measured_packets);
  EXPECT_NEAR(r.accepted, r.offered, 0.02 * r.offered + 0.005);
  EXPECT_NEAR(r.offered, 0.15, 0.02);
  // A packet through a NIC takes at least the two terminal links and one router.
  EXPECT_GT(r.packet_latency.min(), 3u);
  EXPECT_GE(r.packet_latency.mean(), r.network_latency.mean());
}

TEST(NicTraffic, OverloadDeliversEveryPostedMessageInBothRoutingModes) {
  for (const char* routing : {"deterministic", "adaptive"}) {
    SCOPED_TRACE(routing);
    const auto cfg = shipped_with("hx2mesh-16", {std::string("router.routing=") + routing});
    for (const char* pattern : {"uniform", "randperm"}) {
      SCOPED_TRACE(pattern);
      auto c = point(pattern, 1.0, 300, 1500);
      c.drain_limit = 300;   // short: what is still queued at the hosts is withdrawn
      const auto r = tb::run_nic_traffic(cfg, c);
      expect_all_accounted(r);
      EXPECT_TRUE(r.saturated);
      EXPECT_GT(r.withdrawn_packets, 0u);   // offered 1.0 per NIC is far above what the mesh takes
    }
  }
}

TEST(NicTraffic, OnePlaneFatTreeHasOneNicPerAccelerator) {
  const auto cfg = shipped_with("fattree-64", {});
  const auto r = tb::run_nic_traffic(cfg, point("randperm", 0.5, 300, 1500));
  expect_all_accounted(r);
  EXPECT_EQ(r.rails, 1);
}

TEST(NicTraffic, PlantedLinkFaultsAreCaught) {
  const auto cfg = shipped_with("hx2mesh-16", {});
  for (Fault f : {Fault::kCorruptFlit, Fault::kDropFlit}) {
    auto c = point("uniform", 0.2, 300, 1000);
    c.fault = f;
    c.watchdog.stall_cycles = 2000;
    const auto r = tb::run_nic_traffic(cfg, c);
    EXPECT_FALSE(r.checks_passed) << (f == Fault::kCorruptFlit ? "corrupt" : "drop");
    ASSERT_FALSE(r.errors.empty());
    if (f == Fault::kCorruptFlit) {
      EXPECT_NE(joined(r.errors).find("wrong word written"), std::string::npos) << joined(r.errors);
    } else {
      EXPECT_FALSE(r.drained);   // the packet that lost a flit never lands
    }
    // A dropped flit breaks the next router's input-VC framing: the RTL's assertions say so
    // (what they say is checked by TrafficFaults.DroppedFlitIsCaught).
    const auto fired = sysc::take_rtl_assertions();
    if (f == Fault::kCorruptFlit) EXPECT_EQ(fired.count, 0u);
  }
}

TEST(NicTraffic, SameResultOnEveryHarnessAndThreadCount) {
  const auto cfg = shipped_with("hx2mesh-16", {"router.routing=adaptive"});
  const auto c = point("uniform", 0.6, 200, 1200);
  const auto plain = tb::run_nic_traffic(cfg, c, 4, sysc::make_plain_harness);
  const auto two = tb::run_nic_traffic(cfg, c, 4, [](sysc::System& s) { return sysc::make_parallel_harness(s, 2); });
  const auto three = tb::run_nic_traffic(cfg, c, 4, [](sysc::System& s) { return sysc::make_parallel_harness(s, 3); });
  expect_all_accounted(plain);
  for (const auto* r : {&two, &three}) {
    EXPECT_EQ(r->arrival_digest, plain.arrival_digest);
    EXPECT_EQ(r->cycles, plain.cycles);
    EXPECT_EQ(r->posted, plain.posted);
    EXPECT_EQ(r->accepted, plain.accepted);
    EXPECT_EQ(r->packet_latency.mean(), plain.packet_latency.mean());
  }
  // Another seed is another run.
  auto c2 = c;
  c2.seed = 8;
  EXPECT_NE(tb::run_nic_traffic(cfg, c2).arrival_digest, plain.arrival_digest);
}

TEST(NicTraffic, RefusesPacketsWithoutPayload) {
  const auto cfg = shipped_with("hx2mesh-16", {});
  auto c = point("uniform", 0.1, 10, 10);
  c.packet_flits = "uniform:1:4";
  try {
    (void)tb::run_nic_traffic(cfg, c);
    FAIL() << "1-flit packets accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--packet-flits"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hxemu::test
