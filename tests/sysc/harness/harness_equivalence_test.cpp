// The SystemC composition (one module per board and per tree) and the plain C++ loop step the same
// verilated blocks; with every block output registered, the order of evaluation cannot matter, so
// both give bit-identical results: the same packets delivered in the same cycles.
#include <gtest/gtest.h>

#include <systemc>

#include <random>

#include "tests/util/system_test_util.h"
#include "sysc/harness/sc_harness.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

std::vector<std::uint64_t> run(sysc::HarnessFactory harness) {
  tb::TrafficSystem ts(shipped("hx2mesh-16"), harness);
  std::mt19937_64 rng(99);
  for (int c = 0; c < 3000; c += 10) {
    for (int src = 0; src < 16; ++src) {
      if (rng() % 10 < 3) ts.send(src, static_cast<int>(rng() % 16), 1 + static_cast<int>(rng() % 8));
    }
    ts.run(10);
  }
  EXPECT_TRUE(ts.drain(100000));
  std::vector<std::uint64_t> out;
  for (const auto& r : ts.scoreboard().records()) {
    out.push_back(r.delivery.tail_arrival);
    out.push_back(static_cast<std::uint64_t>(r.delivery.vc));
  }
  EXPECT_TRUE(ts.scoreboard().clean());
  return out;
}

TEST(HarnessEquivalence, SystemCAndPlainLoopAreBitIdentical) {
  const auto plain = run(sysc::make_plain_harness);
  const auto sc = run(sysc::make_systemc_harness);
  ASSERT_GT(plain.size(), 1000u);
  EXPECT_EQ(plain, sc);
}

}  // namespace
}  // namespace hxemu::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
