// The SystemC composition (one module per board and per tree) and the plain C++ loop step the same
// verilated blocks; with every block output registered, the order of evaluation cannot matter, so
// both give bit-identical results: the same packets delivered in the same cycles.
#include <gtest/gtest.h>

#include <systemc>

#include <memory>
#include <random>
#include <stdexcept>

#include "tests/util/system_test_util.h"
#include "sysc/harness/parallel_harness.h"
#include "sysc/harness/sc_harness.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

std::vector<std::uint64_t> run(sysc::HarnessFactory harness, const char* config = "hx2mesh-16",
                               int step = 10) {
  tb::TrafficSystem ts(shipped(config), harness);
  const int n = ts.nodes();
  std::mt19937_64 rng(99);
  for (int c = 0; c < 3000; c += step) {
    for (int src = 0; src < n; ++src) {
      if (rng() % 10 < 3) ts.send(src, static_cast<int>(rng() % n), 1 + static_cast<int>(rng() % 8));
    }
    ts.run(step);
  }
  EXPECT_TRUE(ts.drain(100000));
  std::vector<std::uint64_t> out;
  for (const auto& r : ts.scoreboard().records()) {
    out.push_back(r.injected);
    out.push_back(r.delivery.head_arrival);
    out.push_back(r.delivery.tail_arrival);
    out.push_back(static_cast<std::uint64_t>(r.delivery.vc));
  }
  out.push_back(ts.now());
  EXPECT_TRUE(ts.scoreboard().clean());
  return out;
}

TEST(HarnessEquivalence, SystemCAndPlainLoopAreBitIdentical) {
  const auto plain = run(sysc::make_plain_harness);
  const auto sc = run(sysc::make_systemc_harness);
  ASSERT_GT(plain.size(), 1000u);
  EXPECT_EQ(plain, sc);
}

sysc::HarnessFactory threads(int t) {
  return [t](sysc::System& s) { return sysc::make_parallel_harness(s, t); };
}

// The windowed parallel harness: partitions up to a lookahead window (cable latency + 1) apart,
// observers merged after each run. Any thread count, and runs that stop mid-window (step 7 is
// not a multiple of the 11-cycle window), give the plain loop's cycles exactly.
TEST(HarnessEquivalence, ParallelAnyThreadCountIsBitIdenticalToPlainLoop) {
  for (const char* cfg : {"hx2mesh-16", "torus-64", "fattree-64", "dragonfly-64"}) {
    const auto plain = run(sysc::make_plain_harness, cfg, 7);
    ASSERT_GT(plain.size(), 1000u) << cfg;
    for (int t : {1, 2, 3, 5}) EXPECT_EQ(plain, run(threads(t), cfg, 7)) << cfg << ", " << t << " threads";
  }
}

// run_beside: the side work runs exactly once per run, on some thread, before the run returns;
// the cycles stepped and the results are those of run() alone; an exception from the side work
// reaches the caller (after the run's cycles are done) on any thread count.
TEST(HarnessEquivalence, RunBesideCallsTheSideWorkOnceAndChangesNothing) {
  for (int t : {1, 2, 3}) {
    tb::TrafficSystem plain(shipped("hx2mesh-16"), threads(t));
    tb::TrafficSystem beside(shipped("hx2mesh-16"), threads(t));
    std::mt19937_64 rng(7);
    int calls = 0;
    for (int c = 0; c < 600; c += 30) {
      for (int src = 0; src < plain.nodes(); ++src) {
        if (rng() % 4 != 0) continue;
        const int dst = static_cast<int>(rng() % plain.nodes());
        plain.send(src, dst, 4);
        beside.send(src, dst, 4);
      }
      plain.run(30);
      const int before = calls;
      beside.run(30, [&] { ++calls; });
      EXPECT_EQ(calls, before + 1) << t << " threads";
      EXPECT_EQ(beside.now(), plain.now());
    }
    // A zero-cycle run still does the side work.
    beside.run(0, [&] { ++calls; });
    EXPECT_EQ(calls, 21) << t << " threads";
    ASSERT_TRUE(plain.drain(100000));
    ASSERT_TRUE(beside.drain(100000));
    const auto& a = plain.scoreboard().records();
    const auto& b = beside.scoreboard().records();
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 50u);
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].delivery.tail_arrival, b[i].delivery.tail_arrival) << "packet " << i;
    }
    const std::uint64_t at = beside.now();
    EXPECT_THROW(beside.harness().run_beside(25, [] { throw std::runtime_error("side work failed"); }),
                 std::runtime_error)
        << t << " threads";
    EXPECT_EQ(beside.now(), at + 25) << t << " threads";
  }
}

TEST(HarnessEquivalence, LookaheadWindowIsTheShortestCrossPartitionLinkPlusOne) {
  sysc::SystemConfig cfg = shipped("hx2mesh-16");
  tb::TrafficSystem ts(cfg);
  EXPECT_EQ(sysc::lookahead_window(ts.sys()), static_cast<std::uint64_t>(cfg.cable_latency) + 1);
  // Dragonfly groups meet only at cables (local and global links), not at terminal links.
  tb::TrafficSystem df(shipped("dragonfly-64"));
  EXPECT_EQ(sysc::lookahead_window(df.sys()), static_cast<std::uint64_t>(cfg.cable_latency) + 1);
  tb::TrafficSystem mesh(shipped("mesh-8x8"));   // one board: one partition, no window
  EXPECT_EQ(sysc::lookahead_window(mesh.sys()), 0u);
}

// Spans (sysc/harness/parallel_harness.h): within a partition, every block is stepped through S
// cycles before the next, S = 1 + the shortest link inside it. The equivalence tests above run
// systems whose boards have span 2 and whose one-switch trees have no inner link, and get the
// plain loop's cycles exactly; here the spans themselves.
TEST(HarnessEquivalence, PartitionSpansFollowTheLinksInsideAndTheBlocks) {
  tb::TrafficSystem mesh(shipped("mesh-8x8"));   // routers and endpoints, links of latency 1
  EXPECT_EQ(sysc::partition_spans(mesh.sys()), (std::vector<std::uint64_t>{2}));

  sysc::SystemConfig cfg = shipped("hx2mesh-16");
  cfg.board_latency = 2;
  cfg.terminal_latency = 3;
  tb::TrafficSystem hx(cfg);
  const auto spans = sysc::partition_spans(hx.sys());
  const auto& parts = hx.sys().partitions();
  ASSERT_EQ(spans.size(), parts.size());
  int boards = 0, trees = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (parts[p].is_tree) {
      ++trees;   // one switch, no link inside: as long as the window
      EXPECT_EQ(spans[p], sysc::kWholeRun) << parts[p].name;
    } else {
      ++boards;  // the shorter of the board's traces (2) and its terminal links (3), plus one
      EXPECT_EQ(spans[p], 3u) << parts[p].name;
    }
  }
  EXPECT_GT(boards, 1);
  EXPECT_GT(trees, 0);

  // A block that shares more than its links (here a stand-in for a node's host program) puts its
  // partition back to one cycle at a time, and no other.
  struct HostStandIn final : sysc::PortlessBlock {
    void tick() override {}
    bool idle() const override { return true; }
    bool error() const override { return false; }
  };
  hx.sys().add_node_block(0, std::make_unique<HostStandIn>(), "node0.stand-in");
  const auto with_host = sysc::partition_spans(hx.sys());
  const int p0 = hx.sys().partition_of_block(hx.sys().net().blocks() - 1);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    EXPECT_EQ(with_host[p], static_cast<int>(p) == p0 ? 1u : spans[p]) << parts[p].name;
  }
}

}  // namespace
}  // namespace hxemu::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
