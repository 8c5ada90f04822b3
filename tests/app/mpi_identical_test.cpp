// mpirun -np 2 and -np 3 runs of traffic and of a collective on hx2mesh-64 (and of UGAL traffic on
// dragonfly-64) give exactly what one process gives: the same arrival cycles of every packet (arrival_digest), latencies, cycle counts,
// link counts and result buffers (result_digest). Only wall time and the harness label may differ.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

// Drops what may differ between runs that computed the same thing.
void strip(nlohmann::json& j) {
  if (j.is_object()) {
    j.erase("wall_seconds");
    j.erase("harness");
    j.erase("stamp");
    j.erase("process");   // cycles/s and memory per rank
    for (auto& [k, v] : j.items()) strip(v);
  } else if (j.is_array()) {
    for (auto& v : j) strip(v);
  }
}

nlohmann::json run_ranks(int ranks, std::vector<std::string> args, const TempDir& dir) {
  const std::string json = dir.file("r" + std::to_string(ranks) + ".json");
  std::string cmd;
  if (ranks > 1) {
    cmd = std::string(HX_MPIEXEC) + " --allow-run-as-root --oversubscribe -np " + std::to_string(ranks) + " ";
  }
  cmd += HXEMU_BIN;
  for (const auto& a : args) cmd += " " + a;
  cmd += " --threads 1 -q --json " + json + " > " + dir.file("out") + " 2> " + dir.file("err");
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  std::ifstream in(json);
  EXPECT_TRUE(in.good()) << cmd;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << cmd;
  strip(j);
  return j;
}

TEST(MpiRanks, TrafficOnHx2Mesh64IsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"traffic", "--config", config("hx2mesh-64"), "--load", "0.3",
                                         "--warmup", "300", "--measure", "1000"};
  const auto one = run_ranks(1, args, dir);
  ASSERT_GT(one.at("delivered_packets").get<int>(), 1000);
  ASSERT_TRUE(one.at("checks_passed").get<bool>());
  EXPECT_EQ(one, run_ranks(2, args, dir));
  EXPECT_EQ(one, run_ranks(3, args, dir));
}

// The Dragonfly under UGAL (credit-driven choices at every source router): its groups split over
// the ranks, the same arrival cycles as one process.
TEST(MpiRanks, UgalTrafficOnDragonfly64IsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"traffic", "--config", config("dragonfly-64"), "--set",
                                         "router.routing=adaptive", "--pattern", "shift:8", "--load", "0.3",
                                         "--warmup", "300", "--measure", "1000"};
  const auto one = run_ranks(1, args, dir);
  ASSERT_GT(one.at("delivered_packets").get<int>(), 500);
  ASSERT_TRUE(one.at("checks_passed").get<bool>());
  EXPECT_EQ(one, run_ranks(2, args, dir));
  EXPECT_EQ(one, run_ranks(3, args, dir));
}

TEST(MpiRanks, CollectiveOnHx2Mesh64IsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"collective", "--config", config("hx2mesh-64"), "--algo",
                                         "ring,torus2d", "--sizes", "16K"};
  const auto one = run_ranks(1, args, dir);
  const auto& results = one.at("results");
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_TRUE(r.at("ok").get<bool>());
    EXPECT_EQ(r.at("wrong").get<int>(), 0);
    EXPECT_EQ(r.at("result_digest").get<std::string>().size(), 16u);
  }
  EXPECT_EQ(one, run_ranks(2, args, dir));
  EXPECT_EQ(one, run_ranks(3, args, dir));
}

}  // namespace
}  // namespace hxemu::test
