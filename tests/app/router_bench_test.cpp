// hxemu-router-bench (app/bench/router_bench.cpp) as a user runs it: flits are conserved through
// the router, a run is reproducible from its seed, and bad input names the field and exits 2.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/app/run_hxemu.h"

namespace hxemu::test {
namespace {

struct Counts {
  long in = -1, out = -1;
};

Counts flits(const std::string& out) {
  std::smatch m;
  Counts c;
  if (std::regex_search(out, m, std::regex(R"(flits\s+(\d+) in, (\d+) out)"))) {
    c.in = std::stol(m[1]);
    c.out = std::stol(m[2]);
  }
  return c;
}

std::string fingerprint(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex(R"(fingerprint ([^\n]*))")) ? m[1].str() : "";
}

TEST(RouterBench, FlitsAreConservedAndTheRunIsReproducible) {
  // 5 ports, 2 VCs, 8 slots: at most 5 x 2 x 8 flits buffered plus one per output register.
  const auto a = run_hxemu({"--cycles", "3000", "--load", "0.5", "--seed", "7"});
  ASSERT_EQ(a.status, 0) << a.err;
  const Counts c = flits(a.out);
  ASSERT_GT(c.out, 3000);            // about 2 flits per cycle at this load
  EXPECT_LE(c.out, c.in);
  EXPECT_LE(c.in - c.out, 5 * 2 * 8 + 5);
  const auto b = run_hxemu({"--cycles", "3000", "--load", "0.5", "--seed", "7"});
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(fingerprint(a.out), fingerprint(b.out));
  EXPECT_FALSE(fingerprint(a.out).empty());
  const auto other = run_hxemu({"--cycles", "3000", "--load", "0.5", "--seed", "8"});
  EXPECT_NE(fingerprint(a.out), fingerprint(other.out));
}

TEST(RouterBench, TheLargeHammingMeshRouterRuns) {
  // hx4mesh-1024's router: 8 ports, 6 VCs, 32 slots.
  const auto r = run_hxemu({"--local-ports", "4", "--vcs", "6", "--slots", "32", "--cycles", "2000"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("8 ports, 6 VCs, 32 slots"), std::string::npos) << r.out;
  const Counts c = flits(r.out);
  EXPECT_GT(c.out, 0);
  EXPECT_LE(c.in - c.out, 8 * 6 * 32 + 8);
}

TEST(RouterBench, TheDorOnlyRouterBehavesLikeTheGeneralOne) {
  // The bench routes deterministically (HammingMesh mode, one board): the DOR-only variant, which
  // leaves out the adaptive, torus and failed-link logic, must send every flit the same way.
  const auto general = run_hxemu({"--cycles", "3000", "--load", "0.5", "--seed", "3"});
  const auto dor = run_hxemu({"--cycles", "3000", "--load", "0.5", "--seed", "3", "--dor-only"});
  ASSERT_EQ(general.status, 0) << general.err;
  ASSERT_EQ(dor.status, 0) << dor.err;
  EXPECT_NE(dor.out.find("2 VCs, 8 slots per VC, DOR-only"), std::string::npos) << dor.out;
  EXPECT_EQ(general.out.find("DOR-only"), std::string::npos) << general.out;
  EXPECT_FALSE(fingerprint(dor.out).empty());
  EXPECT_EQ(fingerprint(dor.out), fingerprint(general.out));
  // A shape with no DOR-only variant in the default build runs the general router and says so.
  const auto four = run_hxemu({"--cycles", "200", "--vcs", "4", "--dor-only"});
  ASSERT_EQ(four.status, 0) << four.err;
  EXPECT_NE(four.out.find("general (no DOR-only variant of this shape is built)"), std::string::npos)
      << four.out;
}

TEST(RouterBench, BadInputNamesTheFieldAndExits2) {
  const auto load = run_hxemu({"--load", "1.5"});
  EXPECT_EQ(load.status, 2);
  EXPECT_NE(load.err.find("--load"), std::string::npos) << load.err;
  const auto vcs = run_hxemu({"--vcs", "3"});   // no 3-VC board router is built
  EXPECT_EQ(vcs.status, 2);
  EXPECT_NE(vcs.err.find("vcs=3"), std::string::npos) << vcs.err;   // names what was asked ...
  EXPECT_NE(vcs.err.find("vcs=2"), std::string::npos) << vcs.err;   // ... and what exists
  EXPECT_TRUE(vcs.out.empty()) << vcs.out;
}

}  // namespace
}  // namespace hxemu::test
