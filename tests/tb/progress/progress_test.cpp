// tb::Progress with a fake clock and a string sink: the line's format, the time-left estimates,
// the rate limit (at most one line per interval, the clock read only every few hundred cycles),
// clearing, and silence when disabled or when stderr is not a terminal.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tb/progress.h"

namespace hxemu::test {
namespace {

struct Fake {
  double now = 0;
  int clock_reads = 0;
  std::vector<std::string> writes;
  tb::Progress make(bool enabled = true, double interval = 0.25) {
    return tb::Progress(
        enabled, [this](std::string_view s) { writes.emplace_back(s); },
        [this] {
          ++clock_reads;
          return now;
        },
        interval);
  }
};

TEST(Progress, FormatsCountsRateAndTimeLeft) {
  EXPECT_EQ(tb::Progress::format("load 0.300 (3/10)", 41216, 120000, 8410, 9),
            "load 0.300 (3/10): 41,216 / 120,000 cycles, 8,410 cycles/s, ~9 s left");
  EXPECT_EQ(tb::Progress::format("", 5000000, 0, 2.5e6, -1), "5,000,000 cycles, 2.50 M cycles/s");
  EXPECT_EQ(tb::Progress::format("x", 999, 0, 0, -1), "x: 999 cycles");
  EXPECT_EQ(tb::Progress::format("x", 0, 0, 0, 125), "x: 0 cycles, ~2 min 05 s left");
  EXPECT_EQ(tb::Progress::format("x", 0, 0, 0, 3725), "x: 0 cycles, ~1 h 02 min left");
  // A long stage is shortened so that the line fits 79 columns and the figures stay whole.
  const std::string line = tb::Progress::format(std::string(200, 's'), 1234567, 7654321, 12345, 59);
  EXPECT_EQ(line.size(), 79u);
  const std::string figures = "1,234,567 / 7,654,321 cycles, 12,345 cycles/s, ~59 s left";
  EXPECT_EQ(line.substr(line.size() - figures.size()), figures);
  EXPECT_EQ(line.substr(0, 79 - figures.size()), std::string(79 - figures.size() - 5, 's') + "...: ");
}

TEST(Progress, DrawsAtMostOncePerIntervalAndReadsTheClockRarely) {
  Fake f;
  auto p = f.make();
  p.stage("run");
  // 10 s at 10,000 cycles/s, reported every 10 cycles (every millisecond).
  int calls = 0;
  for (std::uint64_t c = 0; c <= 100000; c += 10) {
    f.now = static_cast<double>(c) / 10000;
    p.cycles(c);
    ++calls;
  }
  // A line at t = 0 and then at most one per 0.25 s: at most 41 (a few fewer, as the clock is only
  // read every ~13 ms).
  EXPECT_GE(f.writes.size(), 36u);
  EXPECT_LE(f.writes.size(), 41u);
  // The clock is read about 20 times per interval, not at every call.
  EXPECT_LE(f.clock_reads, 1 + 41 * 25);
  EXPECT_LT(f.clock_reads, calls / 5);
  // Every line starts with '\r' and shows the stage and the measured rate.
  const std::string& last = f.writes.back();
  EXPECT_EQ(last.substr(0, 6), "\rrun: ") << last;
  const std::string tail = " cycles, 10,000 cycles/s";
  EXPECT_EQ(last.substr(last.size() - tail.size()), tail) << last;
  for (const auto& w : f.writes) EXPECT_EQ(w[0], '\r');
}

TEST(Progress, TimeLeftFromTotalCyclesOrFromWork) {
  Fake f;
  auto p = f.make();
  p.stage("sweep");
  p.phase("warm-up");
  p.set_total_cycles(10000);
  p.cycles(0);   // first line, no rate yet
  ASSERT_EQ(f.writes.size(), 1u);
  EXPECT_EQ(f.writes[0], "\rsweep, warm-up: 0 / 10,000 cycles");
  f.now = 1.0;
  p.cycles(2000);
  ASSERT_EQ(f.writes.size(), 2u);
  EXPECT_EQ(f.writes[1], "\rsweep, warm-up: 2,000 / 10,000 cycles, 2,000 cycles/s, ~4 s left");
  // Past the expected total: neither the total nor an estimate.
  f.now = 7.0;
  p.cycles(12000);
  EXPECT_EQ(f.writes.back().substr(0, 32), "\rsweep, warm-up: 12,000 cycles, ");
  EXPECT_EQ(f.writes.back().find("left"), std::string::npos);

  // Unknown total cycles: by the work done (10 s for 1 of 4 units: 30 s left).
  Fake g;
  auto q = g.make();
  q.stage("allreduce");
  g.now = 10.0;
  q.set_work(1, 4);
  q.cycles(5000);
  ASSERT_EQ(g.writes.size(), 1u);
  EXPECT_EQ(g.writes[0], "\rallreduce: 5,000 cycles, 500 cycles/s, ~30 s left");
  // 10 s into the next item the estimate has counted down by 10 s.
  g.now = 20.0;
  q.cycles(10000);
  ASSERT_EQ(g.writes.size(), 2u);
  EXPECT_EQ(g.writes[1], "\rallreduce: 10,000 cycles, 500 cycles/s, ~20 s left");
}

TEST(Progress, ClearErasesTheLineAndTheNextUpdateRedraws) {
  Fake f;
  auto p = f.make();
  p.stage("a long stage name");
  p.cycles(0);
  const std::size_t len = f.writes.back().size() - 1;   // without '\r'
  p.clear();
  EXPECT_EQ(f.writes.back(), "\r" + std::string(len, ' ') + "\r");
  p.clear();   // nothing shown: nothing written
  EXPECT_EQ(f.writes.size(), 2u);
  // Within the same interval, the next update draws again (the line is gone).
  f.now = 0.01;
  p.cycles(1);
  EXPECT_EQ(f.writes.size(), 3u);
  // A shorter line pads over the longer one it replaces.
  p.stage("b");
  f.now = 1.0;
  p.cycles(2);
  const std::string& last = f.writes.back();
  const std::size_t prev = f.writes[2].size() - 1;
  EXPECT_EQ(last.size() - 1, prev);
  EXPECT_EQ(last.back(), ' ');
}

TEST(Progress, DisabledIsSilentAndNeverReadsTheClock) {
  Fake f;
  {
    auto p = f.make(false);
    EXPECT_FALSE(p.enabled());
    p.stage("x");
    p.phase("y");
    p.set_total_cycles(100);
    for (std::uint64_t c = 0; c < 100000; c += 7) p.cycles(c);
    p.clear();
  }
  EXPECT_TRUE(f.writes.empty());
  EXPECT_EQ(f.clock_reads, 0);
}

// Shown only on a terminal and without --quiet: a file and a pipe are not terminals; a
// pseudo-terminal is.
TEST(Progress, WantedOnlyOnATerminalWithoutQuiet) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_FALSE(tb::Progress::wanted(false, pipe_fds[1]));
  EXPECT_FALSE(tb::Progress::wanted(true, pipe_fds[1]));
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  EXPECT_FALSE(tb::Progress::wanted(false, ::fileno(file)));
  std::fclose(file);

  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminal available";
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const int tty = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(tty, 0);
  EXPECT_TRUE(tb::Progress::wanted(false, tty));
  EXPECT_FALSE(tb::Progress::wanted(true, tty));
  ::close(tty);
  ::close(master);
}

}  // namespace
}  // namespace hxemu::test
