// Fault injection through the real traffic stack (docs/faults.md): a board-edge cable of
// hx2mesh-64 fails in the middle of a run. Under adaptive routing every packet created after the
// failure still arrives (the boards leave through their row's other edge, the tree delivers to the
// board's other edge); under deterministic routing the report names the packets lost on the failed
// link and those stuck behind it. Bit flips through the real NICs: the NICs' CRC count equals the
// number of packets the network log says had a flipped bit. And a run with faults is the same for
// any partitioning of the system.
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <string>
#include <tuple>

#include "sysc/harness/parallel_harness.h"
#include "tb/traffic/nic_traffic_run.h"
#include "tb/traffic/traffic_run.h"
#include "traffic_test_util.h"

namespace hxemu::test {
namespace {

constexpr std::uint64_t kFailAt = 1500;

// router0 is accelerator (0, 0) of board (0, 0); its W port is the cable to row tree 0.
tb::TrafficRunConfig cable_failure_point() {
  auto c = traffic_point("uniform", 0.15, 500, 3000, 3);
  c.drain_limit = 3000;
  c.watchdog.stall_cycles = 1500;
  c.faults.failures.push_back({"router0.W", kFailAt});
  return c;
}

TEST(FaultTraffic, AdaptiveRoutesAroundAFailedCable) {
  const auto cfg = shipped_with("hx2mesh-64", {"router.routing=adaptive", "switch.up_select=adaptive"});
  const auto r = tb::run_traffic(cfg, cable_failure_point());
  const auto& f = r.faults;
  std::cout << f.text();
  ASSERT_EQ(f.failures.size(), 1u);
  EXPECT_EQ(f.failures[0].peer, "rowtree0.p0");
  EXPECT_EQ(f.failures[0].cls, sysc::LinkClass::kCable);
  EXPECT_EQ(f.failures[0].routers_told, 2);   // the two routers of board row 0 on board (0, 0)
  EXPECT_GT(f.sent_after_failure, 1000u);
  EXPECT_EQ(f.delivered_after_failure, f.sent_after_failure);
  // Whatever was lost was on the failed connection, and was created before it failed.
  for (const auto& p : f.lost_packets) {
    EXPECT_TRUE(p.link == "router0.W -> rowtree0.p0" || p.link == "rowtree0.p0 -> router0.W") << p.link;
    EXPECT_GE(p.cycle, kFailAt);
  }
  EXPECT_EQ(f.lost_undelivered + f.stuck_undelivered, r.measured_packets - r.delivered_packets);
}

TEST(FaultTraffic, DeterministicRoutingNamesLostAndStuckPackets) {
  const auto cfg = shipped_with("hx2mesh-64", {"router.routing=deterministic", "switch.up_select=hash"});
  const auto r = tb::run_traffic(cfg, cable_failure_point());
  const auto& f = r.faults;
  std::cout << f.text();
  // Node 0's packets to other board columns and the tree's packets to node 0 all use the cable.
  EXPECT_LT(f.delivered_after_failure, f.sent_after_failure);
  EXPECT_GT(f.flits_lost_sent, 0u);
  ASSERT_GT(f.lost_undelivered, 0u);
  ASSERT_FALSE(f.lost_lines.empty());
  for (const auto& line : f.lost_lines) {
    EXPECT_TRUE(line.find("lost on router0.W -> rowtree0.p0") != std::string::npos ||
                line.find("lost on rowtree0.p0 -> router0.W") != std::string::npos) << line;
  }
  // Every measured packet that did not arrive is named as lost or stuck.
  EXPECT_GE(f.lost_undelivered + f.stuck_undelivered, r.measured_packets - r.delivered_packets);
  EXPECT_FALSE(r.checks_passed);
  for (const auto& p : f.lost_packets) {
    EXPECT_TRUE(p.link == "router0.W -> rowtree0.p0" || p.link == "rowtree0.p0 -> router0.W") << p.link;
  }
}

// Bit flips on the cables through the real NICs with their CRC on: each packet the network log
// says had a flipped bit is one the NICs count, no more, no fewer.
TEST(FaultTraffic, NicCrcCountsExactlyThePacketsWithFlippedBits) {
  auto cfg = shipped_with("hx2mesh-64", {"grid.rows=2", "grid.cols=2"});
  cfg.nic_crc = true;
  auto c = traffic_point("uniform", 0.3, 200, 1500, 5);
  c.drain_limit = 2000;
  c.faults.flips = sysc::parse_bit_flips("2e-5:cable");
  const auto r = tb::run_nic_traffic(cfg, c);
  const auto& f = r.faults;
  std::cout << f.text();
  EXPECT_TRUE(r.drained);
  EXPECT_TRUE(f.crc_on);
  EXPECT_GT(f.flipped_packets.size(), 5u);
  EXPECT_EQ(f.crc_errors, f.flipped_packets.size());
  for (const auto& p : f.flipped_packets) EXPECT_NE(p.link.find("tree"), std::string::npos) << p.link;
  EXPECT_EQ(r.posted, r.landed);   // flips corrupt bytes, they lose nothing
}

// The same failure and flips, stepped by one thread and by the windowed parallel harness: the same
// packets arrive in the same cycles and the same faults are logged.
TEST(FaultTraffic, FaultsGiveTheSameRunForAnyPartitioning) {
  const auto cfg = shipped_with("hx2mesh-64", {"router.routing=adaptive"});
  auto c = cable_failure_point();
  c.faults.flips = sysc::parse_bit_flips("1e-5");
  const auto a = tb::run_traffic(cfg, c);
  const auto b = tb::run_traffic(cfg, c, [](sysc::System& s) { return sysc::make_parallel_harness(s, 2); });
  EXPECT_EQ(a.arrival_digest, b.arrival_digest);
  EXPECT_EQ(a.faults.json().dump(), b.faults.json().dump());
  EXPECT_GT(a.faults.bits_flipped, 0u);
}

TEST(FaultTraffic, BadFaultSpecsNameTheOptionAndTheForm) {
  auto msg = [](auto&& fn) {
    try {
      fn();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg([] { sysc::parse_link_failure("router0.W"); }).find("--fail-link 'router0.W': expected"),
            std::string::npos);
  EXPECT_NE(msg([] { sysc::parse_link_failure("router0.W@-3"); }).find("not a whole number"), std::string::npos);
  EXPECT_NE(msg([] { sysc::parse_bit_flips("1.5"); }).find("--flip-bits '1.5'"), std::string::npos);
  EXPECT_NE(msg([] { sysc::parse_bit_flips("1e-6:wires"); }).find("unknown link class 'wires'"), std::string::npos);
  const auto cfg = shipped_with("hx2mesh-64", {});
  tb::TrafficSystem ts(cfg);
  EXPECT_NE(msg([&] { sysc::find_port(ts.sys(), "router0.Q"); }).find("router0 has no port 'Q'"), std::string::npos);
  EXPECT_NE(msg([&] { sysc::find_port(ts.sys(), "router99.W"); }).find("no block named 'router99'"), std::string::npos);
  // The names work both ways: the switch's end of the cable names the router's.
  const auto p = sysc::find_port(ts.sys(), "rowtree0.p0");
  EXPECT_EQ(sysc::port_label(ts.sys(), ts.sys().net().link_info(ts.sys().net().link_out(p)).to), "router0.W");
}

}  // namespace
}  // namespace hxemu::test
