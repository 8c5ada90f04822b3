// `hxemu describe --check-deadlock`: the verdict on a shipped configuration, in the text, in the
// JSON and in the exit status (0: acyclic).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

TEST(DescribeDeadlock, ShippedMeshIsAcyclicInTextJsonAndExitStatus) {
  TempDir dir;
  const std::string json_path = dir.file("d.json");
  const RunResult r = run_hxemu(
      {"describe", "--config", config("mesh-8x8"), "--check-deadlock", "--json", json_path});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // Counts: tests/sysc/system/deadlock_check_test.cpp (Mesh8x8CountsMatchXyRouting).
  EXPECT_NE(r.out.find("deadlock check: channel-dependency graph of 224 channels, 388 "
                       "dependencies: acyclic"),
            std::string::npos)
      << r.out;

  std::ifstream in(json_path);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  ASSERT_TRUE(j.contains("deadlock_check")) << j.dump(2);
  const auto& d = j.at("deadlock_check");
  EXPECT_TRUE(d.at("acyclic").get<bool>());
  EXPECT_EQ(d.at("channels").get<int>(), 224);
  EXPECT_EQ(d.at("dependencies").get<long long>(), 388);
}

// Both shipped Dragonflies in both routing modes: acyclic, exit 0 (counts for dragonfly-64:
// tests/sysc/system/deadlock_check_test.cpp, Dragonfly64CountsMatchMinimalAndUgal).
TEST(DescribeDeadlock, ShippedDragonfliesAreAcyclicInBothRoutingModes) {
  for (const char* name : {"dragonfly-64", "dragonfly-1024"}) {
    for (const char* routing : {"deterministic", "adaptive"}) {
      const RunResult r = run_hxemu({"describe", "--config", config(name), "--set",
                                     std::string("router.routing=") + routing, "--check-deadlock"});
      ASSERT_EQ(r.status, 0) << name << " " << routing << ": " << r.out << r.err;
      EXPECT_NE(r.out.find("dependencies: acyclic"), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("Dragonfly: "), std::string::npos) << r.out;
    }
  }
  const RunResult r = run_hxemu({"describe", "--config", config("dragonfly-64"), "--check-deadlock"});
  EXPECT_NE(r.out.find("248 channels, 336 dependencies: acyclic"), std::string::npos) << r.out;
}

// The multidim platforms: acyclic, and the description gives every dimension's links, lanes and
// bandwidth per NPU (JSON: multidim.dimensions).
TEST(DescribeDeadlock, MultidimPlatformsAreAcyclicAndDescribedPerDimension) {
  for (const char* name : {"md-ring4-fc4-sw4", "md-ring4-fc4-ring4-sw2", "md-ring8-ring8"}) {
    TempDir dir;
    const std::string json_path = dir.file("d.json");
    const RunResult r = run_hxemu({"describe", "--config", config(name), "--check-deadlock", "--json", json_path});
    ASSERT_EQ(r.status, 0) << name << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("dependencies: acyclic"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("multi-dimensional: "), std::string::npos) << r.out;
    std::ifstream in(json_path);
    std::stringstream ss;
    ss << in.rdbuf();
    const auto j = nlohmann::json::parse(ss.str());
    ASSERT_TRUE(j.contains("multidim")) << j.dump(2);
    for (const auto& d : j.at("multidim").at("dimensions")) {
      EXPECT_GT(d.at("links").get<int>(), 0);
      EXPECT_GT(d.at("gbps_per_npu").get<double>(), 0.0);
    }
  }
  // md-ring4-fc4-sw4: package ring (2 links out per NPU, 64 links), node FC (3, 96), pod switch
  // (2 planes: 2 uplinks per NPU, 128 links, 32 switches); 400 Gb/s per link at 256 bits x 1.5625 GHz.
  const RunResult r = run_hxemu({"describe", "--config", config("md-ring4-fc4-sw4")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ring of 4, 1 lane each way: 2 links out per NPU = 800 Gb/s; 64 links"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fully connected 4, 1 lane per peer: 3 links out per NPU = 1200 Gb/s; 96 links"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("switch of 4, 2 planes (32 switches): 2 links out per NPU = 800 Gb/s; 128 links"),
            std::string::npos) << r.out;
}

TEST(DescribeDeadlock, NotAskedNotReported) {
  const RunResult r = run_hxemu({"describe", "--config", config("mesh-8x8")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("deadlock check"), std::string::npos) << r.out;
}

TEST(DescribeDeadlock, HelpSaysWhichNetworkIsChecked) {
  const RunResult r = run_hxemu({"describe", "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("--check-deadlock"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("adaptive ones included"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hxemu::test
