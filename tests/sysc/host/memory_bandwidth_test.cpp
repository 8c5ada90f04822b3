// sysc/host/memory_bandwidth.h and HostMemory::limit_bandwidth: one budget of bytes per cycle
// shared by every DMA port onto a node's memory and its engines' reservations.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sysc/host/host_memory.h"
#include "sysc/host/memory_bandwidth.h"

namespace hxemu::sysc {
namespace {

TEST(MemoryBandwidth, WordsPerCycleFollowTheRate) {
  // 32 bytes per cycle, 32-byte words: one word every cycle; 16 bytes per cycle: every other.
  for (double rate : {32.0, 16.0, 8.0}) {
    MemoryBandwidth bw(rate);
    int words = 0;
    for (std::uint64_t t = 0; t < 1000; ++t) {
      if (bw.can_start(t)) {
        bw.spend(t, 32);
        ++words;
      }
    }
    // The rate over 1000 cycles, and at most one word more: the bucket starts full.
    EXPECT_GE(words, static_cast<int>(1000 * rate / 32)) << rate;
    EXPECT_LE(words, static_cast<int>(1000 * rate / 32) + 1) << rate;
  }
}

TEST(MemoryBandwidth, ReservationsLeaveTheRestToDma) {
  MemoryBandwidth bw(128);
  EXPECT_DOUBLE_EQ(bw.reserve(0, 96), 96);
  int words = 0;
  for (std::uint64_t t = 0; t < 1000; ++t) {
    while (bw.can_start(t)) {
      bw.spend(t, 32);
      ++words;
    }
  }
  // 32 bytes per cycle left: 1000 words, plus what the full bucket held at the start (128 bytes,
  // and the debt of one access: 5 words in cycle 0).
  EXPECT_EQ(words, 1000 + 4);
  // A second reservation gets what is left, but always at least a sixteenth of the rate.
  EXPECT_DOUBLE_EQ(bw.reserve(1000, 96), 32);
  EXPECT_DOUBLE_EQ(bw.reserve(1000, 96), 8);
  bw.release(1000, 96);
  bw.release(1000, 32);
  bw.release(1000, 8);
  EXPECT_GT(bw.dma_stalls(), 0u);
}

TEST(MemoryBandwidth, SkippedCyclesBankAtMostOneCycle) {
  MemoryBandwidth bw(64);
  bw.spend(0, 64);
  // 100 idle cycles later only 64 bytes are banked: two 32-byte words, then a debt.
  EXPECT_TRUE(bw.can_start(100));
  bw.spend(100, 32);
  EXPECT_TRUE(bw.can_start(100));
  bw.spend(100, 32);
  EXPECT_TRUE(bw.can_start(100));   // at 0: one more access may start and go into debt
  bw.spend(100, 32);
  EXPECT_FALSE(bw.can_start(100));
}

TEST(MemoryBandwidth, RateOutsideItsRangeIsAClearError) {
  for (double r : {0.5, -1.0, 2e6}) {
    try {
      MemoryBandwidth bw(r);
      ADD_FAILURE() << r;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("1..1000000"), std::string::npos) << e.what();
    }
  }
}

// Two DMA ports onto one memory, each reading every cycle: together they get the budget, not a
// word per cycle each; the first port in a cycle is served first.
TEST(MemoryBandwidth, PortsOfOneMemoryShareTheBudget) {
  HostMemory a(1 << 16, 256, 1);
  HostMemory b(a, 1);
  a.limit_bandwidth(48);   // 1.5 words per cycle for both
  ASSERT_NE(b.bandwidth(), nullptr);
  DmaOut rd;
  rd.rd_valid = true;
  for (std::uint64_t t = 0; t < 1000; ++t) {
    a.cycle(t, rd);
    b.cycle(t, rd);
  }
  // 1.5 words per cycle over 1000 cycles, and at most two more: the full bucket at the start.
  EXPECT_GE(a.reads() + b.reads(), 1500u);
  EXPECT_LE(a.reads() + b.reads(), 1502u);
  EXPECT_GT(a.reads(), b.reads());
  a.limit_bandwidth(0);
  EXPECT_EQ(b.bandwidth(), nullptr);
}

}  // namespace
}  // namespace hxemu::sysc
