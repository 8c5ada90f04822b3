// hxemu as a user runs it: --version, an unknown command, defaults in --help, --quiet on every
// long command, and the verdict of a saturated traffic point in text, JSON and CSV. Each test runs
// the built binary with stdout and stderr captured (neither is a terminal, so no progress line).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/build_info.h"

namespace hxemu::test {
namespace {

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "hxemu_verdicts_" + std::to_string(::getpid()) + "_" + name;
}

// Runs `[env] hxemu <args>` (args are shell words; env: VAR=value words for the environment) and
// returns its exit status, stdout and stderr.
Outcome hxemu_env(const std::string& env, const std::string& args) {
  const std::string err_path = temp_path("stderr.txt");
  const std::string cmd = (env.empty() ? "" : "env " + env + " ") + std::string(HXEMU_BIN) + " " + args + " 2>" + err_path;
  Outcome r;
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = slurp(err_path);
  std::remove(err_path.c_str());
  return r;
}

Outcome hxemu(const std::string& args) { return hxemu_env("", args); }

std::string config(const std::string& name) { return std::string(HX_CONFIG_DIR) + "/" + name + ".json"; }

std::string fmt_two(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The line of `text` that contains `key` (empty if none).
std::string line_with(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (contains(line, key)) return line;
  }
  return "";
}

TEST(CliVersion, PrintsTheSourceRevisionAndToolVersions) {
  const Outcome r = hxemu("--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, std::string("source revision ") + tb::kSourceRevision)) << r.out;
  EXPECT_TRUE(contains(r.out, tb::tool_versions())) << r.out;
  EXPECT_TRUE(contains(r.out, "Verilator")) << r.out;
  EXPECT_FALSE(contains(r.out + r.err, "A subcommand is required"));
}

// hxemu puts its heap on transparent huge pages by executing itself once with glibc's tunable set
// (app/cli/huge_pages.cpp), unless HXEMU_HUGE_PAGES=0 or the kernel has them off.
TEST(CliVersion, HeapOnHugePagesUnlessTurnedOff) {
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  const bool offered = std::getline(thp, modes) && !contains(modes, "[never]");
  const Outcome on = hxemu("--version");
  EXPECT_EQ(on.status, 0) << on.err;
  EXPECT_TRUE(contains(on.out, offered ? "heap: transparent huge pages (glibc.malloc.hugetlb=1)"
                                       : "heap: 4 KiB pages")) << on.out;
  const Outcome off = hxemu_env("HXEMU_HUGE_PAGES=0", "--version");
  EXPECT_EQ(off.status, 0) << off.err;
  EXPECT_TRUE(contains(off.out, "heap: 4 KiB pages")) << off.out;
}

TEST(CliUnknownCommand, ExitsTwoNamingItAndTheCommands) {
  const Outcome r = hxemu("frobnicate --load 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "unknown command 'frobnicate'")) << r.err;
  for (const char* cmd : {"run", "traffic", "sweep", "collective", "jobs", "serve"}) {
    EXPECT_TRUE(contains(r.err, cmd)) << cmd << " not listed in: " << r.err;
  }
  EXPECT_TRUE(r.out.empty()) << r.out;
  // No command at all is a different message.
  const Outcome none = hxemu("");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(contains(none.err, "A subcommand is required")) << none.err;
}

// CLI11 shows a default after the option's type: "--warmup UINT:INT in [0 - 100000000]=2000".
TEST(CliHelp, ShowsDefaults) {
  const Outcome t = hxemu("traffic --help");
  EXPECT_EQ(t.status, 0);
  const std::string warmup = line_with(t.out, "--warmup");
  ASSERT_NE(warmup.rfind('='), std::string::npos) << t.out;
  EXPECT_EQ(warmup.substr(warmup.rfind('=')), "=2000") << t.out;
  EXPECT_TRUE(contains(line_with(t.out, "--measure"), "=10000")) << t.out;
  EXPECT_TRUE(contains(line_with(t.out, "--drain"), "=40000")) << t.out;
  EXPECT_TRUE(contains(line_with(t.out, "--load"), "=0.1")) << t.out;
  EXPECT_TRUE(contains(line_with(t.out, "--pattern"), "=uniform")) << t.out;
  EXPECT_TRUE(contains(line_with(t.out, "--harness"), "=parallel")) << t.out;
  const Outcome s = hxemu("sweep --help");
  EXPECT_TRUE(contains(line_with(s.out, "--loads"), "=0.05:0.8:0.05")) << s.out;
  const Outcome c = hxemu("collective --help");
  EXPECT_TRUE(contains(line_with(c.out, "--sizes"), "=64K:1M")) << c.out;
  EXPECT_TRUE(contains(line_with(c.out, "--op"), "=allreduce")) << c.out;
  // collective, run and jobs all default to the parallel harness (bit-identical, faster on a
  // machine with idle cores).
  EXPECT_TRUE(contains(line_with(c.out, "--harness"), "=parallel")) << c.out;
  EXPECT_TRUE(contains(line_with(hxemu("jobs --help").out, "--harness"), "=parallel"));
  const Outcome run = hxemu("run --help");
  EXPECT_TRUE(contains(line_with(run.out, "--harness"), "=parallel")) << run.out;
  EXPECT_TRUE(contains(line_with(run.out, "--sizes"), "=64K:1M")) << run.out;
  // An empty list has no default worth showing.
  EXPECT_FALSE(contains(line_with(t.out, "--set"), "=[]")) << t.out;
}

TEST(CliHelp, EveryLongCommandTakesQuiet) {
  for (const char* cmd : {"traffic", "sweep", "collective", "jobs", "run"}) {
    const Outcome r = hxemu(std::string(cmd) + " --help");
    EXPECT_TRUE(contains(r.out, "--quiet")) << cmd;
  }
}

// hotspot:0.5:0 at 0.5 on hx2mesh-16 overloads node 0 four times over (see
// tests/tb/traffic/verdict_test.cpp): saturated, with measured packets withdrawn unsent. The
// report says so, in every format, and does not call the run clean; it is a result, not a
// failure of the emulator (exit 0). Stderr is not a terminal: no progress line.
TEST(CliTrafficVerdict, HotspotOverloadReportsWithdrawnPackets) {
  const std::string json = temp_path("hotspot.json"), csv = temp_path("hotspot.csv");
  const Outcome r = hxemu("traffic --config " + config("hx2mesh-16") +
                      " --pattern hotspot:0.5:0 --load 0.5 --warmup 500 --measure 2000 --drain 3000"
                      " --harness plain --json " + json + " --csv " + csv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const std::string result = line_with(r.out, "  result ");
  EXPECT_TRUE(contains(result, "result       saturated: accepted ")) << r.out;
  EXPECT_TRUE(contains(result, "withdrawn unsent")) << r.out;
  EXPECT_FALSE(contains(r.out, "every measured packet delivered")) << r.out;
  EXPECT_FALSE(contains(r.out, "every packet delivered")) << r.out;

  std::ifstream jin(json);
  ASSERT_TRUE(jin.good()) << json;
  const auto j = nlohmann::json::parse(jin);
  const std::uint64_t measured = j["measured_packets"], delivered = j["delivered_packets"],
                      withdrawn = j["withdrawn_packets"];
  EXPECT_GT(withdrawn, 0u);
  EXPECT_EQ(delivered + withdrawn, measured);
  EXPECT_EQ(j["clean"], false);
  EXPECT_EQ(j["checks_passed"], true);
  EXPECT_EQ(j["saturated"], true);
  EXPECT_EQ(j["saturation"]["accepted_below_offered"], true);
  EXPECT_EQ(j["saturation"]["drain_limit_hit"], true);
  // The text gives the same counts.
  EXPECT_TRUE(contains(line_with(r.out, "  packets "),
                       std::to_string(measured) + " measured (created in the window): " +
                           std::to_string(delivered) + " delivered, " + std::to_string(withdrawn) +
                           " withdrawn"))
      << r.out;
  const std::string c = slurp(csv);
  EXPECT_TRUE(contains(c, ",measured_packets,delivered_packets,withdrawn_packets,saturated,checks_passed,clean,accepted_not_judged\n")) << c;
  EXPECT_TRUE(contains(c, "," + std::to_string(measured) + "," + std::to_string(delivered) + "," +
                              std::to_string(withdrawn) + ",1,1,0,0\n"))
      << c;
  std::remove(json.c_str());
  std::remove(csv.c_str());
}

// A point below saturation says every measured packet arrived, with the count.
TEST(CliTrafficVerdict, UnsaturatedPointIsClean) {
  const Outcome r = hxemu("traffic --config " + config("hx2mesh-16") +
                      " --load 0.1 --warmup 200 --measure 1000 --harness plain");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string result = line_with(r.out, "  result ");
  EXPECT_TRUE(contains(result, "every measured packet delivered once, intact (")) << r.out;
  EXPECT_TRUE(contains(line_with(r.out, "  packets "), " withdrawn")) << r.out;
  EXPECT_TRUE(contains(line_with(r.out, "  packets "), ", 0 withdrawn")) << r.out;
}

// A warm-up shorter than the packets' zero-load latency (10 cycles against about 34 at these loads
// on hx2mesh-16) leaves the warm-up's packets in flight when the window opens: the window reads
// short at any load, so the accepted rate is not judged. The traffic verdict, each sweep point and
// the sweep's summary say so instead of calling the network saturated at 0.1.
TEST(CliTrafficVerdict, ShortWarmupLeavesTheAcceptedRateUnjudged) {
  const Outcome t = hxemu("traffic --config " + config("hx2mesh-16") +
                          " --load 0.1 --warmup 10 --measure 200 --harness plain");
  EXPECT_EQ(t.status, 0) << t.err;
  const std::string result = line_with(t.out, "  result ");
  EXPECT_TRUE(contains(result, "every measured packet delivered once, intact (")) << t.out;
  EXPECT_TRUE(contains(result, "; accepted rate not judged: the 10-cycle warm-up is shorter than the ")) << t.out;
  EXPECT_FALSE(contains(result, "saturated")) << t.out;

  // The last four CSV fields of the row of `load` ("0.1000"): saturated, checks passed, clean, not judged.
  auto row_flags = [](const std::string& c, const std::string& load) -> std::string {
    const std::size_t at = c.find("\n" + load + ",");
    if (at == std::string::npos) return "no row " + load;
    const std::string row = c.substr(at + 1, c.find('\n', at + 1) - at - 1);
    return row.substr(row.size() - 8);
  };
  const std::string csv = temp_path("short-warmup.csv");
  const Outcome s = hxemu("sweep --config " + config("hx2mesh-16") +
                          " --loads 0.1,0.2 --warmup 10 --measure 200 --harness plain --csv " + csv);
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(contains(line_with(s.out, "  0.100 "), "rate not judged")) << s.out;
  EXPECT_TRUE(contains(s.out, "  accepted rate not judged at 2 of 2 points: the 10-cycle warm-up")) << s.out;
  const std::string c = slurp(csv);
  EXPECT_TRUE(contains(c, ",saturated,checks_passed,clean,accepted_not_judged\n")) << c;
  EXPECT_EQ(std::count(c.begin(), c.end(), '\n'), 3) << c;
  EXPECT_EQ(row_flags(c, "0.1000"), ",0,1,1,1") << c;
  EXPECT_EQ(row_flags(c, "0.2000"), ",0,1,1,1") << c;
  std::remove(csv.c_str());

  // Past the latency the same sweep is judged and says nothing of it.
  const std::string judged_csv = temp_path("judged.csv");
  const Outcome judged = hxemu("sweep --config " + config("hx2mesh-16") +
                               " --loads 0.1 --warmup 200 --measure 200 --harness plain --csv " + judged_csv);
  EXPECT_EQ(judged.status, 0) << judged.err;
  EXPECT_FALSE(contains(judged.out, "not judged")) << judged.out;
  EXPECT_EQ(row_flags(slurp(judged_csv), "0.1000"), ",0,1,1,0") << slurp(judged_csv);
  std::remove(judged_csv.c_str());
}

// The sweep measures zero-load latency in a run of its own at 0.01 flits/node/cycle, whatever the
// swept loads, and reports it beside the pipeline model and apart from the lowest swept load. On a
// 16-node two-level fat tree of radix-8 switches swept from 0.3, the measured latency is within 1%
// of the model (and never below it), while the lowest swept point is well above.
TEST(CliSweepZeroLoad, MeasuredAtNearZeroLoadBesideTheModel) {
  const std::string json = temp_path("sweep.json");
  const Outcome r = hxemu("sweep --config " + config("fattree-64") +
                          " --set nodes=16 --set switch.radix=8 --loads 0.3,0.5 --warmup 500"
                          " --measure 3000 --harness plain --json " + json);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const std::string line = line_with(r.out, "zero-load packet latency");
  EXPECT_TRUE(contains(line, "cycles measured at load 0.01 (")) << r.out;
  EXPECT_TRUE(contains(line, "; at the lowest swept load 0.3: ")) << r.out;
  std::ifstream jin(json);
  ASSERT_TRUE(jin.good()) << json;
  const auto j = nlohmann::json::parse(jin);
  const auto& z = j["zero_load"];
  ASSERT_TRUE(z.is_object()) << j.dump(1);
  const double latency = z["packet_latency_mean"], model = z["packet_latency_model"];
  EXPECT_EQ(z["load"], 0.01);
  EXPECT_GE(latency, model);
  EXPECT_LE(latency, 1.01 * model);
  EXPECT_GT(z["packets"].get<std::uint64_t>(), 800u);   // ~1,000 at 0.01 on 16 nodes: 25,000 cycles
  const double lowest = j["lowest_load_packet_latency"];
  EXPECT_DOUBLE_EQ(lowest, j["points"][0]["packet_latency"]["mean"].get<double>());
  EXPECT_GT(lowest, 1.05 * latency);
  EXPECT_TRUE(contains(line, fmt_two(latency) + " cycles measured")) << line;
  EXPECT_TRUE(contains(line, "pipeline model " + fmt_two(model))) << line;
  std::remove(json.c_str());
}

}  // namespace
}  // namespace hxemu::test
