// --topology-svg, --link-json and --link-windows on traffic, collective and train, as a user runs
// them (docs/network-picture.md): the files are written and agree with the system, bad uses are
// refused before the run (exit 2, nothing written).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

using nlohmann::json;

std::size_t count(const std::string& doc, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = doc.find(needle); at != std::string::npos; at = doc.find(needle, at + 1)) ++n;
  return n;
}

// The windows of a --link-json file: every link has one figure per window, each 0..1.
void check_windows(const json& j, std::uint64_t w) {
  EXPECT_EQ(j["window_cycles"], w);
  const std::size_t windows = j["edges"].size() - 1;
  ASSERT_GT(windows, 0u);
  ASSERT_GT(j["links"].size(), 0u);
  for (const auto& l : j["links"]) {
    ASSERT_EQ(l["utilisation"].size(), windows);
    for (const auto& u : l["utilisation"]) {
      EXPECT_GE(u.get<double>(), 0.0);
      EXPECT_LE(u.get<double>(), 1.0);
    }
  }
  EXPECT_GT(j["totals"]["flits"].get<std::uint64_t>(), 0u);
}

TEST(NetworkPictureCli, TrafficWritesThePictureAndTheWindows) {
  TempDir t;
  const auto r = run_hxemu({"traffic", "--config", config("hx2mesh-16"), "--harness", "plain", "--warmup", "100",
                            "--measure", "300", "--load", "0.3", "--topology-svg", t.file("t.svg"), "--link-json",
                            t.file("t.json"), "--link-windows", "100", "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string svg = slurp(t.file("t.svg"));
  EXPECT_EQ(count(svg, "<circle class=\"router\""), 16u);
  EXPECT_EQ(count(svg, "class=\"colour-bar\""), 1u);
  EXPECT_EQ(count(svg, "class=\"link terminal\""), 16u);   // one synthetic endpoint per node
  check_windows(json::parse(slurp(t.file("t.json"))), 100);
}

TEST(NetworkPictureCli, NicTrafficDrawsEveryNic) {
  TempDir t;
  const auto r = run_hxemu({"traffic", "--config", config("hx2mesh-16"), "--harness", "plain", "--endpoints", "nic",
                            "--packet-flits", "4", "--warmup", "100", "--measure", "300", "--topology-svg",
                            t.file("n.svg"), "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(slurp(t.file("n.svg")), "class=\"link terminal\""), 64u);   // four NICs per node
}

TEST(NetworkPictureCli, CollectiveColoursTheWholeCommand) {
  TempDir t;
  const auto r = run_hxemu({"collective", "--config", config("hx2mesh-16"), "--harness", "plain", "--op", "alltoall",
                            "--sizes", "4K:8K", "--topology-svg", t.file("c.svg"), "--link-json", t.file("c.json"),
                            "--link-windows", "128", "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(t.file("c.json")));
  check_windows(j, 128);
  for (std::size_t k = 0; k + 1 < j["edges"].size(); ++k) EXPECT_EQ(j["edges"][k].get<std::uint64_t>() % 128, 0u);
  const std::string svg = slurp(t.file("c.svg"));
  EXPECT_NE(svg.find("over the whole command"), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"link terminal\""), 64u);
}

TEST(NetworkPictureCli, TrainColoursEveryEmulatedStep) {
  TempDir t;
  const auto w = t.write("tiny.txt",
                         "HYBRID_DATA_MODEL model_parallel_NPU_group: 2\n1\n"
                         "l0 -1 100 ALLREDUCE 4096 100 NONE 0 200 ALLREDUCE 8192 0\n");
  const auto r = run_hxemu({"train", "--config", config("hx2mesh-16"), "--workload", w, "--harness", "plain",
                            "--topology-svg", t.file("s.svg"), "--link-json", t.file("s.json"), "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  check_windows(json::parse(slurp(t.file("s.json"))), 1024);
  EXPECT_EQ(count(slurp(t.file("s.svg")), "class=\"colour-bar\""), 1u);
}

TEST(NetworkPictureCli, BadUsesAreRefusedBeforeTheRun) {
  TempDir t;
  const std::string cfg = config("hx2mesh-16");
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"collective", "--config", cfg, "--sizes", "4K", "--link-json", t.file("a.json"), "--link-windows", "100"},
       "multiple of 64"},
      {{"traffic", "--config", cfg, "--link-windows", "100"}, "give --link-json"},
      {{"traffic", "--config", cfg, "--topology-svg", "/proc/x.svg"}, "--topology-svg '/proc/x.svg'"},
      {{"train", "--config", cfg, "--workload", std::string(HX_CONFIG_DIR) + "/workloads/resnet50-like.txt",
        "--link-json", "/proc/x.json"},
       "--link-json '/proc/x.json'"},
      {{"traffic", "--config", cfg, "--json", t.file("a.json"), "--link-json", t.file("a.json")}, "also given to"},
  };
  for (const auto& c : cases) {
    const auto r = run_hxemu(c.args, {}, 60);
    EXPECT_EQ(r.status, 2) << c.args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << c.args[0];
  }
  EXPECT_TRUE(t.entries().empty());
}

}  // namespace
}  // namespace hxemu::test
