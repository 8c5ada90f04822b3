// hxemu traffic --fail-link / --flip-bits as a user runs them (docs/faults.md): the run reports
// what the faults did on standard output and under "faults" in --json, and exits 0 (losing packets
// is what was asked for).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

TEST(FaultCli, FailedCableIsReportedWithItsLostPackets) {
  TempDir d;
  const RunResult r = run_hxemu({"traffic", "--config", config("hx2mesh-16"), "--load", "0.2", "--warmup", "200",
                                 "--measure", "1500", "--drain", "500", "--stall-cycles", "500", "-q",
                                 "--fail-link", "router0.W@600", "--json", d.file("t.json")});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link down from cycle 600: router0.W <-> rowtree0.p0 (cable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lost on router0.W -> rowtree0.p0"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(d.file("t.json")));
  ASSERT_TRUE(j.contains("faults"));
  EXPECT_EQ(j["faults"]["failures"][0]["peer"], "rowtree0.p0");
  EXPECT_GT(j["faults"]["lost_packets"].size(), 0u);
  EXPECT_LT(j["faults"]["delivered_after_failure"].get<std::uint64_t>(),
            j["faults"]["sent_after_failure"].get<std::uint64_t>());   // deterministic routing
}

TEST(FaultCli, BitFlipsThroughTheNicsTurnTheCrcOnAndAreAllCounted) {
  TempDir d;
  const RunResult r = run_hxemu({"traffic", "--config", config("hx2mesh-16"), "--endpoints", "nic", "--load", "0.3",
                                 "--warmup", "100", "--measure", "800", "-q", "--flip-bits", "3e-5",
                                 "--json", d.file("t.json")});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("turns their CRC on"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(d.file("t.json")));
  const auto& f = j["faults"];
  EXPECT_GT(f["flipped_packets"].size(), 0u);
  EXPECT_EQ(f["crc_errors"].get<std::size_t>(), f["flipped_packets"].size());
}

}  // namespace
}  // namespace hxemu::test
