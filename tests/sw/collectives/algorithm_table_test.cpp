// The algorithm table is the one list of names: every name and alias dispatches, an unknown name's
// error lists exactly the table, and the table's suitability check agrees with what the builders
// accept. Schedules are built on communicators of plain node ids (no system needed).
#include <gtest/gtest.h>

#include <string>

#include "sw/collectives/algorithms.h"

namespace hxemu::test {
namespace {

constexpr sw::CollectiveOp kOps[] = {sw::CollectiveOp::kAllreduce, sw::CollectiveOp::kReduceScatter,
                                     sw::CollectiveOp::kAllgather, sw::CollectiveOp::kAlltoall,
                                     sw::CollectiveOp::kBroadcast, sw::CollectiveOp::kSendRecv};

sw::Communicator grid(int rows, int cols) {
  sw::Communicator c;
  c.name = "test";
  c.rows = rows;
  c.cols = cols;
  for (int i = 0; i < rows * cols; ++i) c.nodes.push_back(i);
  return c;
}

// Builds `name` on `c` with 1024 elements; returns the number of operations of all nodes.
int build(sw::CollectiveOp op, const std::string& name, const sw::Communicator& c) {
  sw::ScheduleBuilder b(c.size(), sw::BufferLayout::for_bytes(4096));
  sw::BuildOptions opt;
  opt.count = 1024;
  sw::build_collective(b, op, name, {c}, opt);
  int ops = 0;
  for (int n = 0; n < c.size(); ++n) ops += b.at(n).size();
  return ops;
}

TEST(AlgorithmTable, EveryNameAndAliasDispatches) {
  const auto c = grid(4, 4);
  for (auto op : kOps) {
    ASSERT_FALSE(sw::algorithm_table(op).empty()) << sw::op_name(op);
    for (const auto& a : sw::algorithm_table(op)) {
      EXPECT_GT(build(op, a.name, c), 0) << sw::op_name(op) << " " << a.name;
      EXPECT_EQ(&sw::find_algorithm(op, a.name), &a);
      for (const auto& alias : a.aliases) {
        EXPECT_EQ(&sw::find_algorithm(op, alias), &a) << alias;
        // An alias builds exactly the schedule of its algorithm.
        EXPECT_EQ(build(op, alias, c), build(op, a.name, c)) << alias;
      }
    }
  }
}

TEST(AlgorithmTable, RingsIsTheHamiltonianCycleAlgorithm) {
  EXPECT_EQ(sw::find_algorithm(sw::CollectiveOp::kAllreduce, "rings").name, "hamiltonian");
  EXPECT_THROW(sw::find_algorithm(sw::CollectiveOp::kReduceScatter, "rings"), std::invalid_argument);
}

TEST(AlgorithmTable, UnknownNameListsExactlyTheTable) {
  for (auto op : kOps) {
    std::string expected;
    for (const auto& a : sw::algorithm_table(op)) {
      expected += (expected.empty() ? "" : ", ") + a.name;
      for (const auto& alias : a.aliases) expected += " (alias " + alias + ")";
    }
    EXPECT_EQ(sw::algorithm_names(op), expected);
    try {
      sw::find_algorithm(op, "no-such-algorithm");
      FAIL() << sw::op_name(op);
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "--algo 'no-such-algorithm' is not an algorithm of " +
                                           std::string(sw::op_name(op)) + " (allowed: " + expected + ")");
    }
    // build_collective reports the same.
    sw::ScheduleBuilder b(16, sw::BufferLayout::for_bytes(4096));
    EXPECT_THROW(sw::build_collective(b, op, "no-such-algorithm", {grid(4, 4)}, {}), std::invalid_argument);
  }
}

TEST(AlgorithmTable, HelpHasOneLinePerAlgorithm) {
  const std::string help = sw::algorithms_help();
  for (auto op : kOps) {
    EXPECT_NE(help.find(std::string(sw::op_name(op)) + ":\n"), std::string::npos);
    for (const auto& a : sw::algorithm_table(op)) {
      EXPECT_NE(help.find("  " + a.name), std::string::npos) << a.name;
      EXPECT_NE(help.find(a.summary), std::string::npos) << a.name;
    }
  }
}

TEST(AlgorithmTable, SuitabilityAgreesWithTheBuilders) {
  for (const auto& c : {grid(1, 4), grid(4, 1), grid(2, 3), grid(3, 3), grid(4, 4), grid(2, 2)}) {
    for (auto op : kOps) {
      for (const auto& a : sw::algorithm_table(op)) {
        const std::string why = a.unsuitable(c);
        const std::string what = std::string(sw::op_name(op)) + " " + a.name + " on " + std::to_string(c.rows) +
                                 "x" + std::to_string(c.cols);
        if (why.empty()) {
          EXPECT_NO_THROW(build(op, a.name, c)) << what;
        } else {
          EXPECT_THROW(build(op, a.name, c), std::invalid_argument) << what << ": " << why;
        }
      }
    }
  }
}

}  // namespace
}  // namespace hxemu::test
