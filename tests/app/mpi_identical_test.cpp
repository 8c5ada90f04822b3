// mpirun -np 2 and -np 3 runs of traffic and of a collective on hx2mesh-64 (and of UGAL traffic on
// dragonfly-64) give exactly what one process gives: the same arrival cycles of every packet (arrival_digest), latencies, cycle counts,
// link counts and result buffers (result_digest). Only wall time and the harness label may differ.
// So do the other commands that step a system: pairs, run, jobs, train, explore and compare.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "run_hxemu.h"
#include "tiny_workload.h"

namespace hxemu::test {
namespace {

// Drops what may differ between runs that computed the same thing.
void strip(nlohmann::json& j) {
  if (j.is_object()) {
    j.erase("wall_seconds");
    j.erase("wall_s");
    j.erase("harness");
    j.erase("stamp");
    j.erase("process");   // cycles/s and memory per rank
    for (auto& [k, v] : j.items()) strip(v);
  } else if (j.is_array()) {
    for (auto& v : j) strip(v);
  }
}

// The environment of an mpirun in this build: in an AddressSanitizer build, the ranks' leak check
// without Open MPI's own leaks at MPI_Finalize (tests/app/lsan-openmpi.supp says why).
std::string mpirun_environment() {
#ifdef HX_MPI_LSAN_SUPPRESSIONS
  const char* asan = std::getenv("ASAN_OPTIONS");
  const char* lsan = std::getenv("LSAN_OPTIONS");
  return std::string("env ASAN_OPTIONS='") + (asan ? std::string(asan) + ":" : "") +
         "fast_unwind_on_malloc=0' LSAN_OPTIONS='" + (lsan ? std::string(lsan) + ":" : "") +
         "suppressions=" + HX_MPI_LSAN_SUPPRESSIONS + "' ";
#else
  return "";
#endif
}

nlohmann::json run_ranks(int ranks, std::vector<std::string> args, const TempDir& dir) {
  const std::string json = dir.file("r" + std::to_string(ranks) + ".json");
  std::string cmd;
  if (ranks > 1) {
    cmd = mpirun_environment() + HX_MPIEXEC + " --allow-run-as-root --oversubscribe -np " +
          std::to_string(ranks) + " ";
  }
  cmd += HXEMU_BIN;
  for (const auto& a : args) cmd += " " + a;
  // (pairs prints no progress, so it has no -q.)
  cmd += std::string(" --threads 1") + (args.front() == "pairs" ? "" : " -q") + " --json " + json;
  cmd += " > " + dir.file("out") + " 2> " + dir.file("err");
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd << "\n" << slurp(dir.file("err")).substr(0, 4000);
  std::ifstream in(json);
  EXPECT_TRUE(in.good()) << cmd;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << cmd;
  strip(j);
  return j;
}

// `one` (the one-process result of args) is what 2 and 3 ranks give too.
void expect_same_on_two_and_three_ranks(const nlohmann::json& one, const std::vector<std::string>& args,
                                        const TempDir& dir) {
  EXPECT_EQ(one, run_ranks(2, args, dir)) << "2 ranks";
  EXPECT_EQ(one, run_ranks(3, args, dir)) << "3 ranks";
}

TEST(MpiRanks, TrafficOnHx2Mesh64IsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"traffic", "--config", config("hx2mesh-64"), "--load", "0.3",
                                         "--warmup", "300", "--measure", "1000"};
  const auto one = run_ranks(1, args, dir);
  ASSERT_GT(one.at("delivered_packets").get<int>(), 1000);
  ASSERT_TRUE(one.at("checks_passed").get<bool>());
  expect_same_on_two_and_three_ranks(one, args, dir);
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
  expect_same_on_two_and_three_ranks(one, args, dir);
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
  expect_same_on_two_and_three_ranks(one, args, dir);
}

// Zero-load latency and links of 200 random pairs, one packet at a time: the link counts add up
// over the ranks that step the senders.
TEST(MpiRanks, PairsOnHx2Mesh64AreIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"pairs", "--config", config("hx2mesh-64"), "--sample", "200", "--summary"};
  const auto one = run_ranks(1, args, dir);
  ASSERT_EQ(one.at("pairs").get<int>(), 200);
  ASSERT_EQ(one.at("mismatches").get<int>(), 0);
  EXPECT_GT(one.at("mean_links").get<double>(), 1.0);
  expect_same_on_two_and_three_ranks(one, args, dir);
}

// The main job (built-in hx2mesh-64), at small sizes.
TEST(MpiRanks, RunIsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"run", "--sizes", "16K", "--alltoall-sizes", "16K"};
  const auto one = run_ranks(1, args, dir);
  for (const char* op : {"allreduce", "alltoall"}) {
    ASSERT_FALSE(one.at(op).at("results").empty()) << op;
    for (const auto& r : one.at(op).at("results")) EXPECT_EQ(r.at("wrong").get<int>(), 0) << op;
  }
  expect_same_on_two_and_three_ranks(one, args, dir);
}

// Two jobs side by side: each rank checks the result buffers of the nodes it steps; the counts add
// up to every node's.
TEST(MpiRanks, JobsAreIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::string jobs = dir.write("jobs.json", R"({"jobs": [
    {"name": "A", "boards": [0, 0, 2, 4], "steps": 1, "tp_bytes": 8192, "dp_bytes": 16384},
    {"name": "B", "boards": [2, 0, 2, 4], "steps": 1, "tp_bytes": 8192, "dp_bytes": 16384}]})");
  const std::vector<std::string> args = {"jobs", "--config", config("hx2mesh-64"), "--jobs", jobs};
  const auto one = run_ranks(1, args, dir);
  const auto& list = one.at("jobs");
  ASSERT_EQ(list.size(), 2u);
  for (const auto& j : list) {
    EXPECT_TRUE(j.at("ok").get<bool>());
    EXPECT_EQ(j.at("wrong").get<int>(), 0);
    EXPECT_EQ(j.at("checked").get<int>(), 2 * 32 * 4096);   // alone and together, 32 nodes, 4096 words
  }
  expect_same_on_two_and_three_ranks(one, args, dir);
}

TEST(MpiRanks, TrainIsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::string w = dir.write("tiny.txt", kTinyWorkload);
  const std::vector<std::string> args = {"train", "--config", config("hx2mesh-64"), "--workload", w};
  const auto one = run_ranks(1, args, dir);
  EXPECT_GT(one.dump().size(), 100u);
  expect_same_on_two_and_three_ranks(one, args, dir);
}

// The design-space search emulates its splits across the ranks; only rank 0 writes the result file
// it rewrites after every split (no other rank leaves a file behind).
TEST(MpiRanks, ExploreIsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::string w = dir.write("tiny.txt", kTinyWorkload);
  const std::vector<std::string> args = {"explore", "--config", config("md-ring4-fc4-sw4"), "--workload", w,
                                         "--lanes", "4", "--top", "1", "--others", "1"};
  const auto one = run_ranks(1, args, dir);
  ASSERT_EQ(one.at("explore").at("emulated_now").get<int>(), 2);
  expect_same_on_two_and_three_ranks(one, args, dir);
  for (const auto& e : dir.entries()) EXPECT_EQ(e.find(".tmp."), std::string::npos) << e;
}

TEST(MpiRanks, CompareIsIdenticalForOneTwoAndThreeRanks) {
  TempDir dir;
  const std::vector<std::string> args = {"compare", "--configs", config("hx2mesh-16") + "," + config("hx2mesh-64"),
                                         "--experiment", "allreduce:16K"};
  const auto one = run_ranks(1, args, dir);
  expect_same_on_two_and_three_ranks(one, args, dir);
}

// What stays in one process is refused by name, with the commands that do run under mpirun.
TEST(MpiRanks, ServeIsRefusedUnderMpirun) {
  const std::string cmd = std::string(HX_MPIEXEC) + " --allow-run-as-root --oversubscribe -np 2 " + HXEMU_BIN +
                          " serve --config " + config("hx2mesh-16") + " > /dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_NE(WEXITSTATUS(rc), 0);
}

}  // namespace
}  // namespace hxemu::test
