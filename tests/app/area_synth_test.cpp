// hxemu area with Yosys (docs/area.md), on a configuration small enough to synthesize in about a
// minute: one 2x2 board, one VC, 2-flit buffers, one NIC per node (a router and a NIC). The first
// run synthesizes each block into a private cache; the second and `scripts/synth.sh` (what `make
// synth` runs) read the cache and report the same figures. Skipped when Yosys is not installed
// (`make deps-synth`); labelled slow.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

bool yosys_installed() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (!dir.empty() && ::access((dir + "/yosys").c_str(), X_OK) == 0) return true;
  }
  return false;
}

constexpr const char* kTinyMesh = R"({
  "name": "tiny-mesh", "topology": "hxmesh",
  "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1},
  "router": {"vcs_per_class": 1, "buffer_depth": 2},
  "flit_bits": 256, "max_packet_flits": 2
})";

// The child's exit status of `sh -c cmd`, its standard output in `out`.
int run_shell(const std::string& cmd, std::string& out) {
  out.clear();
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int st = ::pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(AreaSynth, SynthesizesEachBlockThenReadsTheCache) {
  if (!yosys_installed()) GTEST_SKIP() << "yosys not installed (make deps-synth)";
  TempDir dir;
  // TempDir removes files and empty folders; the cache and the RTL copy are folders with files.
  struct RemoveTrees {
    std::vector<std::string> paths;
    ~RemoveTrees() {
      for (const auto& p : paths) std::filesystem::remove_all(p);
    }
  } trees{{dir.file("cache"), dir.file("rtl")}};
  const std::string cfg = dir.write("tiny.json", kTinyMesh);
  const std::string cache = "HXEMU_AREA_CACHE=" + dir.file("cache");
  const std::vector<std::string> args = {"area", "--config", cfg, "--rails", "1", "--json"};

  auto first_args = args;
  first_args.push_back(dir.file("first.json"));
  const RunResult first = run_hxemu(first_args, {cache}, 1500);
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  const auto a = nlohmann::json::parse(slurp(dir.file("first.json")));
  ASSERT_EQ(a.at("blocks").size(), 2u);   // a board router and a NIC
  long long total = 0;
  for (const auto& b : a.at("blocks")) {
    SCOPED_TRACE(b.at("param_text").get<std::string>());
    EXPECT_GT(b.at("cells").get<long long>(), 0);
    EXPECT_GT(b.at("flip_flops").get<long long>(), 0);
    EXPECT_LT(b.at("flip_flops").get<long long>(), b.at("cells").get<long long>());
    EXPECT_FALSE(b.at("cached").get<bool>());
    EXPECT_EQ(b.at("cells_x_count"), b.at("cells").get<long long>() * b.at("count").get<long long>());
    total += b.at("cells").get<long long>() * b.at("count").get<long long>();
  }
  EXPECT_EQ(a.at("total").at("cells").get<long long>(), total);
  EXPECT_TRUE(a.at("total").at("complete").get<bool>());
  EXPECT_EQ(a.at("blocks")[0].at("param_text"), "NL=1 V=1 D=2 W=256");
  EXPECT_NE(first.err.find("area: synthesizing hx_board_router"), std::string::npos) << first.err;

  // Again: every block from the cache, no Yosys started, the same figures.
  auto second_args = args;
  second_args.push_back(dir.file("second.json"));
  const RunResult second = run_hxemu(second_args, {cache}, 120);
  ASSERT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_EQ(second.err.find("synthesizing"), std::string::npos) << second.err;
  const auto b = nlohmann::json::parse(slurp(dir.file("second.json")));
  for (std::size_t i = 0; i < b.at("blocks").size(); ++i) {
    EXPECT_TRUE(b.at("blocks")[i].at("cached").get<bool>());
    EXPECT_EQ(b.at("blocks")[i].at("cells"), a.at("blocks")[i].at("cells"));
    EXPECT_EQ(b.at("blocks")[i].at("flip_flops"), a.at("blocks")[i].at("flip_flops"));
  }
  EXPECT_EQ(b.at("total"), a.at("total"));

  // `make synth`'s script reports the same router.
  std::string out;
  const int st = run_shell(std::string(cache) + " HXEMU=" + HXEMU_BIN + " " + HX_SOURCE_DIR + "/scripts/synth.sh " + cfg +
                               " --rails 1 --quiet --json " + dir.file("synth.json"),
                           out);
  ASSERT_EQ(st, 0) << out;
  const auto s = nlohmann::json::parse(slurp(dir.file("synth.json")));
  EXPECT_EQ(s.at("blocks")[0].at("top"), "hx_board_router");
  EXPECT_EQ(s.at("blocks")[0].at("cells"), a.at("blocks")[0].at("cells"));
  EXPECT_EQ(s.at("blocks")[0].at("param_text"), a.at("blocks")[0].at("param_text"));
  EXPECT_TRUE(s.at("blocks")[0].at("cached").get<bool>());

  // A change to the RTL is a new digest, so the cache does not answer for it: a copy of the RTL
  // with one comment more starts Yosys again (here stopped by a 1-second --timeout: every block
  // reported failed, the total incomplete, exit status 1, nothing cached).
  const std::string rtl = dir.file("rtl");
  std::filesystem::copy(std::string(HX_SOURCE_DIR) + "/rtl", rtl, std::filesystem::copy_options::recursive);
  std::ofstream(rtl + "/router/hx_vc_buffer.sv", std::ios::app) << "// changed\n";
  auto third_args = args;
  for (const char* x : {"third.json"}) third_args.push_back(dir.file(x));
  for (const std::string x : {"--rtl", rtl.c_str(), "--timeout", "1"}) third_args.push_back(x);
  const RunResult third = run_hxemu(third_args, {cache}, 120);
  EXPECT_EQ(third.status, 1) << third.out << third.err;
  EXPECT_NE(third.err.find("area: synthesizing hx_board_router"), std::string::npos) << third.err;
  EXPECT_NE(third.err.find("within 1 s (--timeout)"), std::string::npos) << third.err;
  EXPECT_NE(third.out.find("failed"), std::string::npos) << third.out;
  const auto c = nlohmann::json::parse(slurp(dir.file("third.json")));
  EXPECT_FALSE(c.at("total").at("complete").get<bool>());
  for (const auto& blk : c.at("blocks")) {
    EXPECT_NE(blk.at("error").get<std::string>().find("--timeout"), std::string::npos);
    EXPECT_FALSE(blk.contains("cells"));
  }
}

}  // namespace
}  // namespace hxemu::test
