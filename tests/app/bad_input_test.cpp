// Bad inputs to the hxemu command line, each as a user would type it: exit status 2, a message on
// standard error that names the field (or option) and what is allowed, nothing on standard output
// (everything is checked before the first line is printed), and no crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

// Runs hxemu and checks the bad-input contract; `must_contain` are pieces of the error message.
void expect_bad_input(const std::vector<std::string>& args, const std::vector<std::string>& must_contain,
                      const std::vector<std::string>& env = {}) {
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  const RunResult r = run_hxemu(args, env, 60);
  ASSERT_FALSE(r.timed_out) << "hxemu" << cmd;
  EXPECT_EQ(r.status, 2) << "hxemu" << cmd << "\nstderr: " << r.err;
  EXPECT_EQ(r.out, "") << "hxemu" << cmd << " printed before failing";
  for (const auto& want : must_contain) {
    EXPECT_NE(r.err.find(want), std::string::npos) << "hxemu" << cmd << ": stderr lacks \"" << want << "\":\n" << r.err;
  }
}

// ---- configuration ------------------------------------------------------------------------------

TEST(BadConfig, NumberTooLargeForJsonNamesTheFieldAndRange) {
  expect_bad_input({"describe", "--config", config("hx2mesh-16"), "--set", "clock_ghz=1e400"},
                   {"clock_ghz", "0.001..100"});
  expect_bad_input({"describe", "--config", config("hx2mesh-16"), "--set", "clock_ghz=nan"},
                   {"clock_ghz", "0.001..100"});
  expect_bad_input({"describe", "--config", config("hx2mesh-16"), "--set", "clock_ghz=inf"},
                   {"clock_ghz", "0.001..100"});
  expect_bad_input({"describe", "--config", config("hx2mesh-16"), "--set", "links.cable_latency=1e400"},
                   {"links.cable_latency", "0..1000"});
  // 2^64-1 must not wrap to -1 on its way to an int field.
  expect_bad_input({"describe", "--config", config("hx2mesh-16"), "--set", "router.vcs_per_class=18446744073709551615"},
                   {"router.vcs_per_class", "1..8", "18446744073709551615"});
}

TEST(BadConfig, NumberTooLargeInTheFileNamesTheField) {
  TempDir d;
  const auto f = d.write("big.json", R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2},
      "grid": {"rows": 2, "cols": 2}, "links": {"cable_latency": 1e400}})");
  expect_bad_input({"describe", "--config", f}, {"links.cable_latency", f});
}

// The Dragonfly's fields through the command line: exit 2, the field and its allowed values.
TEST(BadConfig, DragonflyFieldsNameTheFieldAndTheAllowedValues) {
  expect_bad_input({"describe", "--config", config("dragonfly-64"), "--set", "dragonfly.groups=12"},
                   {"dragonfly.groups", "at most routers_per_group x global_per_router + 1 = 9"});
  expect_bad_input({"describe", "--config", config("dragonfly-64"), "--set", "dragonfly.global_per_router=3"},
                   {"dragonfly.global_per_router", "power of two"});
  expect_bad_input({"describe", "--config", config("dragonfly-64"), "--set", "dragonfly.terminals_per_router=4"},
                   {"switch.radix", "more than radix 8"});
  expect_bad_input({"traffic", "--config", config("dragonfly-64"), "--set", "dragonfly.ugal_threshold=-1"},
                   {"dragonfly.ugal_threshold", "0..255"});
  expect_bad_input({"traffic", "--config", config("dragonfly-64"), "--pattern", "shift:64"},
                   {"shift", "1..63"});
}

TEST(BadConfig, DevicesFoldersAndHugeFilesAreRefusedWithoutReadingThem) {
  expect_bad_input({"describe", "--config", "/dev/zero"}, {"/dev/zero", "not a regular file"});
  TempDir d;
  expect_bad_input({"describe", "--config", d.path()}, {d.path(), "directory"});
  const auto big = d.write("huge.json", std::string(5u << 20, ' '));
  expect_bad_input({"describe", "--config", big}, {big, "4 MiB"});
  expect_bad_input({"describe", "--config", d.file("missing.json")}, {"missing.json", "No such file"});
}

// ---- job files ----------------------------------------------------------------------------------

TEST(BadJobs, OverflowWrapAndWrongTypesNameTheJobAndField) {
  TempDir d;
  const auto jobs = [&](const std::string& job) {
    return d.write("jobs.json", R"({"jobs": [)" + job + "]}");
  };
  const std::vector<std::string> base = {"jobs", "--config", config("hx2mesh-16"), "--jobs"};
  auto args = [&](const std::string& file) {
    auto a = base;
    a.push_back(file);
    return a;
  };
  // R0 + H overflows int when added naively.
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [2147483647, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})")),
                   {"jobs[0] (A).boards[0] (R0)", "0..1", "2147483647"});
  // 2^32 must not become 0.
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [0, 0, 4294967296, 1], "tp_bytes": 4, "dp_bytes": 4})")),
                   {"jobs[0] (A).boards[2] (H)", "1..2", "4294967296"});
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [0, 0, 1, 1], "steps": 4294967297, "tp_bytes": 4, "dp_bytes": 4})")),
                   {"jobs[0] (A).steps", "1..1000"});
  expect_bad_input(args(jobs(R"({"name": 42, "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})")),
                   {"jobs[0].name", "string", "42"});
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": -4, "dp_bytes": 4})")),
                   {"jobs[0] (A).tp_bytes", "0..268435456"});
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4, "tp_algo": 7})")),
                   {"jobs[0] (A).tp_algo", "ring, biring, halving-doubling"});
  expect_bad_input(args(jobs(R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4, "dp_algo": "torus2d"})")),
                   {"jobs[0] (A).dp_algo", "torus2d", "2D communicator", "ring, biring, halving-doubling"});
  expect_bad_input(args("/dev/zero"), {"job file", "/dev/zero"});
}

// ---- collective options -------------------------------------------------------------------------

// hxemu collective on hx2mesh-16 with `more` options (4K and the plain harness unless given).
std::vector<std::string> collective(const std::vector<std::string>& more) {
  std::vector<std::string> a = {"collective", "--config", config("hx2mesh-16"), "--harness", "plain"};
  a.insert(a.end(), more.begin(), more.end());
  if (std::find(more.begin(), more.end(), "--sizes") == more.end()) a.insert(a.end(), {"--sizes", "4K"});
  return a;
}

TEST(BadCollective, BroadcastRootOutsideTheCommunicator) {
  expect_bad_input(collective({"--op", "broadcast", "--root", "99"}), {"--root 99", "0..15"});
  expect_bad_input(collective({"--op", "broadcast", "--group", "rows", "--root", "4"}), {"--root 4", "0..3"});
  expect_bad_input(collective({"--op", "allreduce", "--root", "1"}), {"--root", "broadcast"});
}

TEST(BadCollective, NonFiniteReduceCost) {
  for (const char* v : {"nan", "inf", "-1", "1e400"}) {
    expect_bad_input(collective({"--reduce-cost", v}), {"--reduce-cost", "0..1000", v});
  }
}

TEST(BadCollective, MemoryBandwidthOutsideItsRange) {
  for (const char* v : {"nan", "-5", "0.5", "2e6"}) {
    expect_bad_input(collective({"--memory-bandwidth", v}), {"--memory-bandwidth", "0 (unlimited)", "1..1000000", v});
  }
}

TEST(BadCollective, NegativeSeedOnEveryCommand) {
  const std::string cfg = config("hx2mesh-16");
  const std::vector<std::vector<std::string>> commands = {
      collective({}),
      {"traffic", "--config", cfg},
      {"sweep", "--config", cfg},
      {"run", "--config", cfg},
      {"pairs", "--config", cfg},
      {"router-demo"},
  };
  for (auto args : commands) {
    args.insert(args.end(), {"--seed", "-1"});
    expect_bad_input(args, {"--seed", "0..18446744073709551615", "-1"});
  }
}

TEST(BadCollective, SizeThatDoesNotFitInMemoryIsRefusedBeforeAllocating) {
  // 16 nodes x 3 GiB of host memory: refused against a fixed limit, so the test does not depend on
  // the machine (and never tries to allocate 48 GiB).
  expect_bad_input(collective({"--sizes", "1G"}), {"--sizes 1G", "GiB", "16 nodes", "HXEMU_MEMORY_LIMIT"},
                   {"HXEMU_MEMORY_LIMIT=8G"});
  expect_bad_input(collective({"--sizes", "4M"}), {"--sizes 4M", "limit of 16.0 MiB"},
                   {"HXEMU_MEMORY_LIMIT=16M"});
  expect_bad_input({"run", "--sizes", "1G", "--harness", "plain"}, {"--sizes 1G", "64 nodes"},
                   {"HXEMU_MEMORY_LIMIT=8G"});
  expect_bad_input(collective({}), {"HXEMU_MEMORY_LIMIT", "byte count"}, {"HXEMU_MEMORY_LIMIT=lots"});
}

TEST(BadCollective, UnknownAlgorithmIsReportedBeforeTheTable) {
  expect_bad_input(collective({"--algo", "foo"}),
                   {"--algo 'foo'", "allreduce", "ring, biring, torus2d, hamiltonian (alias rings), halving-doubling"});
  expect_bad_input(collective({"--op", "alltoall", "--algo", "ring"}), {"--algo 'ring'", "pairwise, all-at-once"});
  // Known, but not on this communicator: also before the table.
  expect_bad_input(collective({"--group", "rows", "--algo", "torus2d"}), {"--algo torus2d", "--group rows", "2D"});
  expect_bad_input(collective({"--group", "diagonal"}), {"--group", "subgrid:R0,C0,H,W"});
  expect_bad_input(collective({"--op", "scatter"}), {"--op 'scatter'", "allreduce, reduce-scatter"});
}

TEST(BadTraffic, PatternAndLoadAreCheckedBeforeTheHeader) {
  const std::string cfg = config("hx2mesh-16");
  expect_bad_input({"sweep", "--config", cfg, "--pattern", "nonsense"}, {"nonsense"});
  expect_bad_input({"traffic", "--config", cfg, "--packet-flits", "99"}, {"99"});
  expect_bad_input({"traffic", "--config", cfg, "--load", "nan"}, {"--load", "0..1"});
  expect_bad_input({"sweep", "--config", cfg, "--loads", "0.1,nan"}, {"nan"});
  expect_bad_input({"traffic", "--config", cfg, "--max-age", "-5"}, {"--max-age"});
}

TEST(BadTraffic, FaultSpecsNameTheOptionAndTheForm) {
  const std::string cfg = config("hx2mesh-16");
  expect_bad_input({"traffic", "--config", cfg, "--fail-link", "router0.W"}, {"--fail-link 'router0.W'", "@<cycle>"});
  expect_bad_input({"traffic", "--config", cfg, "--fail-link", "router0.Q@100"}, {"router0 has no port 'Q'", "N, E, S, W"});
  expect_bad_input({"traffic", "--config", cfg, "--fail-link", "router77.W@100"}, {"no block named 'router77'"});
  expect_bad_input({"traffic", "--config", cfg, "--flip-bits", "2"}, {"--flip-bits '2'", "[0, 1)"});
  expect_bad_input({"traffic", "--config", cfg, "--flip-bits", "1e-6:wires"}, {"unknown link class 'wires'", "board, cable, terminal"});
}

}  // namespace
}  // namespace hxemu::test
