// The collective algorithm names as the command line shows them: --help lists every op's table,
// `rings` (the HammingMesh paper's name for its Hamiltonian-cycle allreduce) runs and is reported
// as hamiltonian, and a name list with a repeat runs each algorithm once.
#include <gtest/gtest.h>

#include <string>

#include "run_hxemu.h"
#include "sw/collectives/algorithms.h"

namespace hxemu::test {
namespace {

TEST(AlgorithmNames, HelpListsEveryAlgorithmOfEveryOp) {
  const RunResult r = run_hxemu({"collective", "--help"}, {}, 60);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(sw::algorithms_help()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hamiltonian (alias rings)"), std::string::npos) << r.out;
}

TEST(AlgorithmNames, RingsRunsTheHamiltonianCycles) {
  const RunResult r = run_hxemu({"collective", "--config", config("hx2mesh-16"), "--algo", "rings,hamiltonian",
                           "--sizes", "4K", "--harness", "plain"},
                          {}, 120);
  ASSERT_EQ(r.status, 0) << r.err;
  // One row: the alias and the name are the same algorithm, reported under its name.
  EXPECT_NE(r.out.find(" hamiltonian "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" rings "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# 1 runs"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hxemu::test
