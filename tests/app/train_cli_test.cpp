// hxemu train, hxemu explore and hxemu compare --experiment train:W as a user runs them: exact
// sums in the reports, a Chakra trace written by hxemu-chakra-gen trained on with exactly the text
// workload's step times, a resumed exploration, bad workloads refused (exit 2, nothing written).
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"
#include "tiny_workload.h"

namespace hxemu::test {
namespace {

using nlohmann::json;


json read_json(const std::string& path) { return json::parse(slurp(path)); }

TEST(TrainCli, IterationIsComputePlusCommunication) {
  TempDir t;
  const auto w = t.write("tiny.txt", kTinyWorkload);
  const auto r = run_hxemu({"train", "--config", config("hx2mesh-16"), "--workload", w, "--json", t.file("r.json"), "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = read_json(t.file("r.json"));
  EXPECT_EQ(j["wrong"], 0);
  EXPECT_GT(j["checked"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["iteration_cycles"].get<std::uint64_t>(),
            j["compute_cycles"].get<std::uint64_t>() + j["communication_cycles"].get<std::uint64_t>());
  // 100 + 150 + 150 + 300 + 100 + 200 ns at 1.5625 GHz, each rounded.
  EXPECT_EQ(j["compute_cycles"], 156 + 234 + 234 + 469 + 156 + 313);
  EXPECT_EQ(j["parallelism"]["tp"], 2);
  EXPECT_EQ(j["parallelism"]["dp"], 8);
  EXPECT_TRUE(j["stamp"].contains("cost"));
  EXPECT_NE(r.out.find("iteration "), std::string::npos);
  EXPECT_NE(r.out.find("exposed"), std::string::npos);
}

TEST(TrainCli, ChakraTraceFromTheGeneratorTrainsLikeTheTextWorkload) {
  TempDir t;
  const auto w = t.write("tiny.txt", kTinyWorkload);
  const std::string gen = std::string(HXEMU_CHAKRA_GEN_BIN) + " --workload " + w + " --npus 16 --out " +
                          t.file("trace/tiny") + " > /dev/null";
  ASSERT_EQ(std::system(gen.c_str()), 0);
  const auto a = run_hxemu({"train", "--config", config("hx2mesh-16"), "--workload", w, "--json", t.file("a.json"), "-q"});
  const auto b = run_hxemu({"train", "--config", config("hx2mesh-16"), "--chakra", t.file("trace/tiny"), "--json",
                            t.file("b.json"), "-q"});
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  const auto ja = read_json(t.file("a.json")), jb = read_json(t.file("b.json"));
  ASSERT_EQ(ja["steps"].size(), jb["steps"].size());
  for (std::size_t i = 0; i < ja["steps"].size(); ++i) {
    for (const char* k : {"kind", "layer", "pass", "stage", "cycles"}) {
      EXPECT_EQ(ja["steps"][i][k], jb["steps"][i][k]) << "step " << i << " " << k;
    }
  }
  EXPECT_EQ(ja["iteration_cycles"], jb["iteration_cycles"]);
}

TEST(TrainCli, BadWorkloadIsRefusedAndWritesNothing) {
  TempDir t;
  const auto w = t.write("bad.txt", "DATA\n1\nl0 -1 100 ALLREDUCE 4096 100 NONE 0 200 ALLREDUCE\n");
  const auto r = run_hxemu({"train", "--config", config("hx2mesh-16"), "--workload", w, "--json", t.file("r.json")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.txt:3: a layer line has exactly 12 fields"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(t.file("r.json")));
  const auto tp = run_hxemu({"train", "--config", config("hx2mesh-16"), "--workload", t.write("ok.txt", kTinyWorkload),
                             "--tp", "3"});
  EXPECT_EQ(tp.status, 2);
  EXPECT_NE(tp.err.find("tensor group 3"), std::string::npos) << tp.err;
  const auto none = run_hxemu({"train", "--config", config("hx2mesh-16")});
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("--workload FILE"), std::string::npos) << none.err;
}

// Lanes of at most 4 over three dimensions: 1-1-1, 2-1-1, 1-2-1 and 1-1-2.
TEST(TrainCli, ExploreRanksEmulatesAndResumes) {
  TempDir t;
  const auto w = t.write("tiny.txt", kTinyWorkload);
  std::vector<std::string> args{"explore", "--config", config("md-ring4-fc4-sw4"), "--workload", w, "--lanes", "4",
                                "--json", t.file("e.json"), "--plot", t.file("e.svg"), "-q"};
  auto first = args;
  first.insert(first.end(), {"--top", "1", "--others", "1"});
  const auto a = run_hxemu(first, {}, 600);
  ASSERT_EQ(a.status, 0) << a.err;
  auto j = read_json(t.file("e.json"))["explore"];
  ASSERT_EQ(j["points"].size(), 4u);
  EXPECT_EQ(j["emulated_now"], 2);
  int done = 0;
  for (const auto& p : j["points"]) done += p["done"].get<bool>();
  EXPECT_EQ(done, 2);
  EXPECT_TRUE(j["points"][0]["done"].get<bool>());    // the analytical best
  EXPECT_TRUE(j["points"][3]["done"].get<bool>());    // the analytical worst
  EXPECT_NE(slurp(t.file("e.svg")).find("Pareto front"), std::string::npos);
  auto second = args;
  second.insert(second.end(), {"--top", "2", "--others", "1"});
  const auto b = run_hxemu(second, {}, 600);
  ASSERT_EQ(b.status, 0) << b.err;
  j = read_json(t.file("e.json"))["explore"];
  EXPECT_EQ(j["resumed"], 2);
  EXPECT_EQ(j["emulated_now"], 1);
  for (const auto& p : j["points"]) {
    if (!p["done"].get<bool>()) continue;
    EXPECT_EQ(p["wrong"], 0);
    EXPECT_GE(p["emulated_over_analytic"].get<double>(), 1.0) << p["split"];
  }
  EXPECT_TRUE(j.contains("spearman"));
  EXPECT_NE(b.out.find("Spearman rank correlation"), std::string::npos);
}

// explore --area needs Yosys: without it, exit 2 naming the option and how to install it, before
// anything is emulated or written.
TEST(TrainCli, ExploreAreaWithoutYosysIsExitTwo) {
  TempDir t;
  const auto w = t.write("tiny.txt", kTinyWorkload);
  const auto r = run_hxemu({"explore", "--config", config("md-ring4-fc4-sw4"), "--workload", w, "--lanes", "4",
                            "--area", "--json", t.file("e.json"), "-q"},
                           {"PATH=/nonexistent"}, 120);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--area"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("make deps-synth"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(t.file("e.json")));
}

TEST(TrainCli, CompareTrainGivesCostTimesIteration) {
  TempDir t;
  const auto w = t.write("tiny.txt", kTinyWorkload);
  const auto r = run_hxemu({"compare", "--configs", config("hx2mesh-16") + "," + config("md-ring4-fc4-sw4"),
                            "--experiment", "train:" + w, "--json", t.file("c.json"), "-q"},
                           {}, 600);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = read_json(t.file("c.json"));
  ASSERT_EQ(j["rows"].size(), 2u);
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["wrong"], 0);
    EXPECT_DOUBLE_EQ(row["cost_x_iteration_usd_s"].get<double>(),
                     row["network_cost_usd"].get<double>() * row["iteration_us"].get<double>() * 1e-6);
  }
  EXPECT_FALSE(j["stamp"].contains("cost"));
  EXPECT_NE(r.out.find("cost x time relative to"), std::string::npos);
}

}  // namespace
}  // namespace hxemu::test
