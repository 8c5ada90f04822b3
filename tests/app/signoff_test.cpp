// hxemu signoff (docs/signoff.md) as a user runs it, on hx2mesh-16 with small sizes and short
// sweeps: every section in the Markdown and the JSON, the figures beside them, the exit status a
// threshold sets (0 when every one holds, 1 when one fails), the area section when Yosys cannot
// finish, and bad threshold files and options refused with exit 2 before anything is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"
#include "tiny_workload.h"

namespace hxemu::test {
namespace {

using nlohmann::json;


// Small and short: two collective sizes, two patterns, few load points.
std::vector<std::string> fast(const std::string& out, const std::string& sizes = "64K,256K",
                              const std::string& patterns = "uniform,transpose", bool area = false) {
  std::vector<std::string> a = {"signoff", "--config", config("hx2mesh-16"), "--out", out, "--sizes", sizes,
                                "--patterns", patterns, "--loads", "0.2:1:0.2", "--warmup", "200", "--measure",
                                "800", "-q"};
  if (!area) a.push_back("--no-area");
  return a;
}

// `args` with `more` added; an option both name takes the value from `more` (CLI11 refuses an
// option given twice).
std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  for (std::size_t i = 0; i < more.size(); ++i) {
    const auto it = std::find(args.begin(), args.end(), more[i]);
    if (more[i].rfind("--", 0) == 0 && i + 1 < more.size() && it != args.end() && it + 1 != args.end()) {
      *(it + 1) = more[++i];
    } else {
      args.push_back(more[i]);
    }
  }
  return args;
}

const char* kMustPass =
    "# every one holds on any healthy hx2mesh-16\n"
    "deadlock_free\n"
    "wrong_elements == 0\n"
    "zero_load_latency_max <= 1000 cycles\n"
    "zero_load_model_mismatches == 0\n"
    "saturation uniform >= 0.05\n"
    "saturation transpose >= 1% bound   # the pattern's channel-load bound\n"
    "allreduce 256KiB busbw >= 1% bound\n"
    "alltoall 64K busbw > 0 GB/s\n"
    "allreduce 64KiB busbw <= 100% injection\n"
    "network_cost > 0 USD\n"
    "iteration_time > 0 us\n";

TEST(Signoff, WritesEverySectionAndPassesThresholdsThatHold) {
  TempDir t;
  const std::string out = t.file("report");   // made by the command
  const auto th = t.write("pass.txt", kMustPass);
  const auto w = t.write("tiny.txt", kTinyWorkload);
  const auto r = run_hxemu(with(fast(out), {"--thresholds", th, "--workload", w, "--seed", "3"}), {}, 600);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS: 11 of 11 thresholds met"), std::string::npos) << r.out;

  const std::string md = slurp(out + "/signoff.md");
  for (const char* s : {"# Sign-off report: hx2mesh-16", "**PASS**", "## Summary", "## 1. Structure and cost",
                        "## 2. Area", "skipped (--no-area)", "## 3. Deadlock freedom", "deterministic (configured)",
                        "adaptive", "## 4. Zero-load latency", "## 5. Saturation throughput", "Run lengths:",
                        "200 warm-up + 800 measured cycles", "## 6. Collectives", "allreduce", "alltoall", "256KiB",
                        "## 7. Workload", "tiny", "## 8. Thresholds", "Exit status 0", "## Reproducibility",
                        "source revision", "tool versions", "(saturation.svg)", "(collectives.svg)"}) {
    EXPECT_NE(md.find(s), std::string::npos) << "missing: " << s;
  }
  for (const char* f : {"saturation.svg", "latency.svg", "collectives.svg", "zero-load.svg", "area.svg"}) {
    EXPECT_NE(slurp(out + "/" + f).find("<svg"), std::string::npos) << f;
  }

  const json j = json::parse(slurp(out + "/signoff.json"));
  EXPECT_EQ(j["exit_status"], 0);
  EXPECT_EQ(j["stamp"]["seed"], 3);
  EXPECT_EQ(j["stamp"]["config"]["name"], "hx2mesh-16");
  EXPECT_FALSE(j["stamp"]["source_revision"].get<std::string>().empty());
  EXPECT_FALSE(j["stamp"]["tool_versions"].get<std::string>().empty());
  const json& s = j["sections"];
  EXPECT_EQ(s["structure"]["nodes"], 16);
  EXPECT_FALSE(s["area"]["ran"].get<bool>());
  EXPECT_TRUE(s["deadlock"]["deadlock_free"].get<bool>());
  EXPECT_EQ(s["deadlock"]["modes"].size(), 2u);
  EXPECT_EQ(s["zero_load"]["pairs"], 16 * 15);
  EXPECT_EQ(s["zero_load"]["mismatches"], 0);
  ASSERT_EQ(s["saturation"]["patterns"].size(), 2u);
  for (const auto& p : s["saturation"]["patterns"]) {
    EXPECT_TRUE(p["checks_passed"].get<bool>());
    EXPECT_TRUE(p["bound"]["known"].get<bool>());
    EXPECT_GT(p["bound"]["throughput"].get<double>(), 0.0);
    EXPECT_LE(p["bound"]["throughput"].get<double>(), 1.0);
  }
  ASSERT_EQ(s["collectives"]["runs"].size(), 4u);   // allreduce and alltoall at two sizes
  for (const auto& c : s["collectives"]["runs"]) {
    EXPECT_EQ(c["wrong"], 0);
    EXPECT_GT(c["bound_busbw_GBps"].get<double>(), 0.0);
  }
  EXPECT_GT(s["workload"]["iteration_cycles"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["thresholds"].size(), 11u);
  for (const auto& v : j["thresholds"]) EXPECT_TRUE(v["passed"].get<bool>()) << v.dump();
  EXPECT_EQ(j["metrics"]["wrong_elements"]["value"], 0);
}

TEST(Signoff, AThresholdThatFailsMakesExitOneAndTheReportSaysSo) {
  TempDir t;
  const auto th = t.write("fail.txt", "deadlock_free\nzero_load_latency_max <= 1 cycles\n");
  const auto r = run_hxemu(with(fast(t.path(), "64K"), {"--thresholds", th}), {}, 600);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("threshold failed: zero_load_latency_max <= 1 cycles"), std::string::npos) << r.out;
  const std::string md = slurp(t.file("signoff.md"));
  EXPECT_NE(md.find("**FAIL** -- 1 of 2 thresholds met"), std::string::npos) << md.substr(0, 400);
  EXPECT_NE(md.find("Exit status 1"), std::string::npos);
  const json j = json::parse(slurp(t.file("signoff.json")));
  EXPECT_EQ(j["exit_status"], 1);
  EXPECT_EQ(j["thresholds_failed"], 1);
  EXPECT_TRUE(j["thresholds"][0]["passed"].get<bool>());
  EXPECT_FALSE(j["thresholds"][1]["passed"].get<bool>());
}

// Yosys given one second per block cannot finish: the area section says which blocks failed and
// why, the report still completes, and a second run reports the failures from the cache.
TEST(Signoff, AreaThatCannotFinishIsReportedAndTheReportCompletes) {
  TempDir t;
  const std::string cache = "HXEMU_AREA_CACHE=" + t.file("cache");
  std::vector<std::string> args = with(fast(t.file("a"), "64K", "uniform", true), {"--area-timeout", "1"});
  const auto out_at = std::find(args.begin(), args.end(), "--out") + 1;
  const auto first = run_hxemu(args, {cache}, 600);
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  const std::string md = slurp(t.file("a/signoff.md"));
  if (md.find("yosys is not installed") != std::string::npos) GTEST_SKIP() << "yosys not installed";
  EXPECT_NE(md.find("**failed**"), std::string::npos) << md;
  EXPECT_NE(md.find("**partial**"), std::string::npos);
  EXPECT_NE(md.find("within 1 s (--area-timeout)"), std::string::npos);
  const json j = json::parse(slurp(t.file("a/signoff.json")));
  EXPECT_FALSE(j["sections"]["area"]["complete"].get<bool>());
  EXPECT_FALSE(j["metrics"]["area_cells"]["measured"].get<bool>());

  *out_at = t.file("b");
  const auto second = run_hxemu(args, {cache}, 600);
  ASSERT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_NE(slurp(t.file("b/signoff.md")).find("not tried again"), std::string::npos);

  // --area-retry runs Yosys again (and it fails again within one second).
  *out_at = t.file("c");
  const auto third = run_hxemu(with(args, {"--area-retry"}), {cache}, 600);
  ASSERT_EQ(third.status, 0) << third.out << third.err;
  const std::string md3 = slurp(t.file("c/signoff.md"));
  EXPECT_EQ(md3.find("not tried again"), std::string::npos);
  EXPECT_NE(md3.find("within 1 s (--area-timeout)"), std::string::npos);
}

struct BadCase {
  std::string thresholds;     // file content ("" = no file)
  std::vector<std::string> args;
  std::vector<std::string> names;   // each must be in the error
};

TEST(Signoff, BadThresholdFilesAreExitTwoNamingFileLineAndWhatIsAllowed) {
  const std::vector<BadCase> cases = {
      {"deadlock_free\nlatency <= 60\n", {}, {":2:", "unknown metric 'latency'", "operators: >=", "zero_load_latency_max"}},
      {"zero_load_latency_max\n", {}, {":1:", "needs an operator and a value"}},
      {"zero_load_latency_max 60\n", {}, {":1:", "no operator"}},
      {"zero_load_latency_max =< 60\n", {}, {":1:", "no operator", "operators: >="}},
      {"zero_load_latency_max <=\n", {}, {":1:", "no value after '<='"}},
      {"zero_load_latency_max <= sixty\n", {}, {":1:", "'sixty' is not a number"}},
      {"zero_load_latency_max <= 60 GB/s\n", {}, {":1:", "unit 'GB/s' does not fit", "cycles"}},
      {"zero_load_latency_max <= 60% bound\n", {}, {":1:", "has no bound"}},
      {"allreduce 16MiB busbw >= 90% bound\n", {}, {":1:", "size '16MiB' is not run", "64KiB"}},
      {"allreduce 64K busbw >= 90%\n", {}, {":1:", "N% bound or N% injection"}},
      {"allreduce 64K >= 10\n", {}, {":1:", "allreduce SIZE busbw"}},
      {"saturation bitrev >= 0.1\n", {}, {":1:", "'bitrev' is not swept", "uniform, transpose"}},
      {"deadlock_free == 1\n", {}, {":1:", "yes/no check"}},
      {"iteration_time <= 5 us\n", {}, {":1:", "only with --workload"}},
      {"area_cells <= 5\n", {}, {":1:", "--no-area"}},
      {"# nothing\n\n", {}, {"no thresholds in it"}},
      {"", {"--thresholds", "/nonexistent/t.txt"}, {"--thresholds", "/nonexistent/t.txt"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.thresholds + (c.args.empty() ? "" : c.args.back()));
    TempDir t;
    const std::string out = t.file("out");
    std::vector<std::string> args = fast(out);
    if (!c.thresholds.empty()) args = with(args, {"--thresholds", t.write("t.txt", c.thresholds)});
    args = with(args, c.args);
    const auto r = run_hxemu(args);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << "missing '" << n << "' in " << r.err;
    if (!c.thresholds.empty()) EXPECT_NE(r.err.find(t.file("t.txt")), std::string::npos) << r.err;
    EXPECT_FALSE(exists(out)) << "the report folder was made";
    EXPECT_EQ(r.out, "");
  }
}

TEST(Signoff, BadOptionsAreExitTwoAndWriteNothing) {
  const std::vector<BadCase> cases = {
      {"", {"--harness", "systemc"}, {"--harness systemc"}},
      {"", {"--sizes", "3"}, {"--sizes"}},
      {"", {"--patterns", "nonsense"}, {"--patterns", "unknown pattern 'nonsense'"}},
      {"", {"--patterns", "uniform,uniform"}, {"named twice"}},
      {"", {"--loads", "x"}, {"--loads"}},
      {"", {"--packet-flits", "99"}, {"--packet-flits"}},
      {"", {"--area-timeout", "0"}, {"--area-timeout"}},
      {"", {"--set", "router.routing=sideways"}, {"router.routing"}},
      {"", {"--workload", "/nonexistent/w.txt"}, {"/nonexistent/w.txt"}},
      {"", {"--out", "/nonexistent/dir/report"}, {"--out", "/nonexistent/dir/report"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.front() + " " + c.args.back());
    TempDir t;
    const auto r = run_hxemu(with(fast(t.file("out")), c.args));
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << "missing '" << n << "' in " << r.err;
    EXPECT_FALSE(exists(t.file("out")));
  }
  // --out naming a file, not a folder.
  TempDir t;
  const auto f = t.write("file", "x");
  const auto r = run_hxemu(fast(f));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("not a folder"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(f), "x");
}

}  // namespace
}  // namespace hxemu::test
