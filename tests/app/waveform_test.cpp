// Waveforms (hxemu --trace, docs/waveforms.md): a traced run of one board of hx2mesh-16 over cycles
// 1000-2000, read back with fst2vcd (GTKWave's converter; the tests skip without it), holds that
// board's blocks and nothing else, its clock toggles and its valid signals change inside the window
// and nothing is dumped outside it; tracing changes no result, whichever harness runs it; a
// collective traces a board's NICs too; and bad options are refused before anything runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

// What fst2vcd printed, parsed: every variable by its dot-separated path, and every value change.
struct Vcd {
  std::map<std::string, std::string> id_of;              // "board0.router0.clk_i" -> VCD id
  std::set<std::string> top_scopes;                       // outermost scopes
  std::set<std::string> block_scopes;                     // scopes two deep ("board0.router0")
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>> changes;   // id -> (time, value)
  std::vector<std::uint64_t> times;                       // every #time, in order
  std::string body;                                       // everything after $enddefinitions
  bool ok = false;

  // Changes of `path` after the first dump (the initial values).
  std::size_t changes_after_first(const std::string& path) const {
    const auto id = id_of.find(path);
    if (id == id_of.end()) return 0;
    const auto c = changes.find(id->second);
    if (c == changes.end() || times.empty()) return 0;
    std::size_t n = 0;
    for (const auto& [t, v] : c->second) n += t > times.front();
    return n;
  }
};

bool have_fst2vcd() { return std::system("command -v fst2vcd >/dev/null 2>&1") == 0; }

Vcd read_fst(const std::string& fst) {
  Vcd v;
  FILE* p = ::popen(("fst2vcd '" + fst + "' 2>/dev/null").c_str(), "r");
  if (!p) return v;
  std::string text;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  if (::pclose(p) != 0) return v;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> scope;
  bool header = true;
  std::uint64_t now = 0;
  while (std::getline(in, line)) {
    if (header) {
      std::istringstream w(line);
      std::string tok;
      w >> tok;
      if (tok == "$scope") {
        std::string kind, name;
        w >> kind >> name;
        scope.push_back(scope.empty() ? name : scope.back() + "." + name);
        if (scope.size() == 1) v.top_scopes.insert(name);
        if (scope.size() == 2) v.block_scopes.insert(scope.back());
      } else if (tok == "$upscope") {
        if (!scope.empty()) scope.pop_back();
      } else if (tok == "$var") {
        std::string kind, width, id, name;
        w >> kind >> width >> id >> name;
        if (!scope.empty()) v.id_of[scope.back() + "." + name] = id;
      } else if (tok == "$enddefinitions") {
        header = false;
      }
      continue;
    }
    if (line.rfind("$date", 0) == 0) continue;
    v.body += line + "\n";
    if (line.empty() || line[0] == '$') continue;
    if (line[0] == '#') {
      now = std::stoull(line.substr(1));
      v.times.push_back(now);
    } else if (line[0] == 'b' || line[0] == 'r') {
      const auto sp = line.find(' ');
      v.changes[line.substr(sp + 1)].push_back({now, line.substr(1, sp - 1)});
    } else {
      v.changes[line.substr(1)].push_back({now, line.substr(0, 1)});
    }
  }
  v.ok = !v.times.empty();
  return v;
}

std::vector<std::string> traffic(const std::string& json, const std::vector<std::string>& more = {}) {
  std::vector<std::string> a = {"traffic", "--config", config("hx2mesh-16"), "--load", "0.3", "--warmup", "1000",
                                "--measure", "1500", "--json", json, "--quiet"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

std::string arrival_digest(const std::string& json_path) {
  return nlohmann::json::parse(slurp(json_path)).at("arrival_digest").get<std::string>();
}

TEST(Waveform, OneBoardOverCycles1000To2000HoldsOnlyThatBoardAndOnlyThatWindow) {
  if (!have_fst2vcd()) GTEST_SKIP() << "fst2vcd (Debian package gtkwave) is not installed";
  TempDir d;
  const RunResult r = run_hxemu(traffic(d.file("r.json"), {"--trace", d.file("board0.fst"), "--trace-cycles",
                                                           "1000:2000", "--trace-blocks", "board0.*"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("waveform " + d.file("board0.fst") + ": 4 blocks, cycles 1000..1999"), std::string::npos)
      << r.err;
  const Vcd v = read_fst(d.file("board0.fst"));
  ASSERT_TRUE(v.ok) << "fst2vcd could not read " << d.file("board0.fst");

  // Board 0 of hx2mesh-16 (2x2 accelerators, synthetic endpoints: no NICs) is its four routers.
  EXPECT_EQ(v.top_scopes, (std::set<std::string>{"board0"}));
  EXPECT_EQ(v.block_scopes, (std::set<std::string>{"board0.router0", "board0.router1", "board0.router2",
                                                   "board0.router3"}));

  // FST time = 2 x cycle (rising edge) and 2 x cycle + 1 (falling edge): cycles 1000..1999 only.
  ASSERT_FALSE(v.times.empty());
  EXPECT_EQ(v.times.front(), 2000u);
  EXPECT_EQ(v.times.back(), 3999u);
  for (std::uint64_t t : v.times) {
    EXPECT_GE(t, 2000u);
    EXPECT_LE(t, 3999u);
  }
  // Every router's clock toggles on every edge of the window; links carry flits in and out.
  for (int k = 0; k < 4; ++k) {
    const std::string router = "board0.router" + std::to_string(k);
    EXPECT_EQ(v.changes_after_first(router + ".clk_i"), 1999u) << router;
    EXPECT_GT(v.changes_after_first(router + ".in_valid_i"), 0u) << router;
    EXPECT_GT(v.changes_after_first(router + ".out_valid_o"), 0u) << router;
  }

  // The GTKWave save file beside it: one group per router, its ports, the view at the window.
  const std::string gtkw = slurp(d.file("board0.gtkw"));
  EXPECT_NE(gtkw.find("[dumpfile] \""), std::string::npos) << gtkw;
  EXPECT_NE(gtkw.find("[timestart] 2000"), std::string::npos) << gtkw;
  for (int k = 0; k < 4; ++k) {
    const std::string router = "board0.router" + std::to_string(k);
    EXPECT_NE(gtkw.find("@800200\n-" + router + "\n"), std::string::npos) << router;
    EXPECT_NE(gtkw.find(router + ".clk_i\n"), std::string::npos) << router;
    EXPECT_NE(gtkw.find(router + ".in_valid_i[4:0]\n"), std::string::npos) << router;
  }
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"board0.fst", "board0.gtkw", "r.json"}));
}

// The traced run's packets arrive when the untraced run's do, and the same waveform comes out of
// every harness.
TEST(Waveform, TracingChangesNoResultAndEveryHarnessDumpsTheSameWaves) {
  if (!have_fst2vcd()) GTEST_SKIP() << "fst2vcd (Debian package gtkwave) is not installed";
  TempDir d;
  ASSERT_EQ(run_hxemu(traffic(d.file("plain.json"), {"--harness", "plain"})).status, 0);
  const std::string untraced = arrival_digest(d.file("plain.json"));
  std::string first_body;
  for (const std::vector<std::string>& harness : {std::vector<std::string>{"--harness", "plain"},
                                                 std::vector<std::string>{"--threads", "2"},
                                                 std::vector<std::string>{"--harness", "systemc"}}) {
    const std::string name = harness.back();
    std::vector<std::string> more = {"--trace", d.file(name + ".fst"), "--trace-cycles", "1200:1300",
                                     "--trace-blocks", "board3.*,rowtree1"};
    more.insert(more.end(), harness.begin(), harness.end());
    const RunResult r = run_hxemu(traffic(d.file(name + ".json"), more));
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_EQ(arrival_digest(d.file(name + ".json")), untraced) << name;
    const Vcd v = read_fst(d.file(name + ".fst"));
    ASSERT_TRUE(v.ok) << name;
    EXPECT_EQ(v.top_scopes, (std::set<std::string>{"board3", "rowtree1"})) << name;
    if (first_body.empty()) {
      first_body = v.body;
    } else {
      EXPECT_TRUE(v.body == first_body) << name << ": its waveform differs from the plain harness's";
    }
  }
}

// Traced NICs under NIC-driven traffic: the same packets arrive in the same cycles, and the run
// still ends (the host side must tell "drained" apart from "may skip a tick", which a traced NIC
// never does).
TEST(Waveform, TracedNicsChangeNoResultOfNicTraffic) {
  TempDir d;
  std::vector<std::string> base = {"traffic", "--config", config("hx2mesh-16"), "--endpoints", "nic", "--load", "0.2",
                                   "--warmup", "200", "--measure", "500", "--quiet", "--threads", "2"};
  std::vector<std::string> untraced = base, traced = base;
  untraced.insert(untraced.end(), {"--json", d.file("u.json")});
  traced.insert(traced.end(), {"--json", d.file("t.json"), "--trace", d.file("n.fst"), "--trace-cycles", "100:300",
                               "--trace-blocks", "board2.node9.*,board2.router9"});
  const RunResult u = run_hxemu(untraced);
  ASSERT_EQ(u.status, 0) << u.err;
  const RunResult t = run_hxemu(traced);
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(arrival_digest(d.file("t.json")), arrival_digest(d.file("u.json")));
  EXPECT_NE(t.err.find("waveform " + d.file("n.fst") + ": 5 blocks"), std::string::npos) << t.err;
}

// With NICs (a collective), a board's NICs are traced with its routers, named per rail.
TEST(Waveform, ACollectiveTracesABoardsNics) {
  if (!have_fst2vcd()) GTEST_SKIP() << "fst2vcd (Debian package gtkwave) is not installed";
  TempDir d;
  const std::vector<std::string> base = {"collective", "--config", config("hx2mesh-16"), "--op", "allreduce",
                                         "--algo", "ring", "--sizes", "16K", "--quiet"};
  std::vector<std::string> untraced = base, traced = base;
  untraced.insert(untraced.end(), {"--json", d.file("u.json")});
  traced.insert(traced.end(), {"--json", d.file("t.json"), "--trace", d.file("c.fst"), "--trace-cycles", "0:400",
                               "--trace-blocks", "board1.*"});
  ASSERT_EQ(run_hxemu(untraced).status, 0);
  const RunResult r = run_hxemu(traced);
  ASSERT_EQ(r.status, 0) << r.err;
  // The same cycles and result buffers as untraced.
  const auto uj = nlohmann::json::parse(slurp(d.file("u.json"))).at("results").at(0);
  const auto tj = nlohmann::json::parse(slurp(d.file("t.json"))).at("results").at(0);
  EXPECT_EQ(tj.at("cycles"), uj.at("cycles"));
  EXPECT_EQ(tj.at("result_digest"), uj.at("result_digest"));
  const Vcd v = read_fst(d.file("c.fst"));
  ASSERT_TRUE(v.ok);
  EXPECT_EQ(v.top_scopes, (std::set<std::string>{"board1"}));
  for (int node = 4; node < 8; ++node) {
    const std::string n = "board1.node" + std::to_string(node);
    EXPECT_EQ(v.block_scopes.count(n), 1u) << n;
    EXPECT_EQ(v.block_scopes.count("board1.router" + std::to_string(node)), 1u) << node;
    EXPECT_GT(v.id_of.count(n + ".nic0.cmd_valid_i"), 0u) << n;
    EXPECT_GT(v.id_of.count(n + ".nic3.out_valid_o"), 0u) << n;
  }
  // The ring allreduce starts with every NIC fetching from host memory.
  EXPECT_GT(v.changes_after_first("board1.node4.nic0.rd_req_valid_o"), 0u);
}

void expect_refused(const std::vector<std::string>& more, const std::vector<std::string>& must_contain) {
  TempDir d;
  std::vector<std::string> args = traffic(d.file("r.json"), more);
  for (auto& a : args) {
    if (a == "OUT") a = d.file("w.fst");
  }
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  const RunResult r = run_hxemu(args, {}, 60);
  EXPECT_EQ(r.status, 2) << "hxemu" << cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "") << "hxemu" << cmd;
  for (const auto& want : must_contain) {
    EXPECT_NE(r.err.find(want), std::string::npos) << "hxemu" << cmd << ": stderr lacks \"" << want << "\":\n" << r.err;
  }
  EXPECT_TRUE(d.entries().empty()) << "hxemu" << cmd << " left files behind";
}

TEST(Waveform, BadOptionsAreRefusedBeforeTheRunAndWriteNothing) {
  expect_refused({"--trace", "OUT", "--trace-cycles", "2000:1000", "--trace-blocks", "board0.*"},
                 {"--trace-cycles '2000:1000'", "A < B"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "1000:1000", "--trace-blocks", "board0.*"},
                 {"--trace-cycles '1000:1000'", "empty"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "1000", "--trace-blocks", "board0.*"},
                 {"--trace-cycles '1000'", "A:B"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "a:b", "--trace-blocks", "board0.*"},
                 {"--trace-cycles 'a:b'", "A:B"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "5:99999999999999999999", "--trace-blocks", "board0.*"},
                 {"--trace-cycles '5:99999999999999999999'", "A:B"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "0:10", "--trace-blocks", "board9.*"},
                 {"--trace-blocks 'board9.*'", "names no verilated block", "board0.router0"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "0:10", "--trace-blocks", "board0.*,,x"},
                 {"--trace-blocks", "empty pattern"});
  expect_refused({"--trace", "OUT", "--trace-cycles", "0:10"}, {"--trace needs --trace-blocks"});
  expect_refused({"--trace", "OUT", "--trace-blocks", "board0.*"}, {"--trace needs --trace-cycles"});
  expect_refused({"--trace-cycles", "0:10", "--trace-blocks", "board0.*"}, {"--trace-cycles needs --trace"});
  expect_refused({"--trace", "/no/such/folder/w.fst", "--trace-cycles", "0:10", "--trace-blocks", "board0.*"},
                 {"--trace '/no/such/folder/w.fst'", "does not exist"});
  // A block whose variant has no traced copy in this build (12 VCs: not among HX_TRACE_VARIANTS).
  expect_refused({"--trace", "OUT", "--trace-cycles", "0:10", "--trace-blocks", "board0.*", "--set",
                  "router.vcs_per_class=4"},
                 {"--trace-blocks: board0.router0 runs model variant Vhx_board_router_l1_v12_w256",
                  "HX_TRACE_VARIANTS"});
}

// A window the run never reaches: a warning, no file.
TEST(Waveform, AWindowAfterTheRunWritesNothingAndSaysSo) {
  TempDir d;
  const RunResult r = run_hxemu({"traffic", "--config", config("hx2mesh-16"), "--warmup", "0", "--measure", "100",
                                 "--quiet", "--trace", d.file("late.fst"), "--trace-cycles", "900000:900010",
                                 "--trace-blocks", "router0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("before --trace-cycles 900000:900010 began; no waveform written"), std::string::npos) << r.err;
  EXPECT_TRUE(d.entries().empty());
}

}  // namespace
}  // namespace hxemu::test
