// The compact schedule representation: an Op is 24 bytes and its dependency count comes from the
// next op's first_dep (Program::deps_of); a rejected op leaves nothing behind; ProgramState matches
// arrivals to recvs through its sorted (rail, peer, tag) index -- in any arrival order, early
// arrivals before their recv starts, and only running recvs.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sw/runtime/program.h"
#include "sw/runtime/program_state.h"

namespace hxemu::test {
namespace {

TEST(ScheduleMemory, OpIs24BytesAndDependencyRangesAreDerived) {
  EXPECT_EQ(sizeof(sw::Op), 24u);
  sw::Program p;
  const int a = p.recv(0, 3, 7);
  const int b = p.reduce(0, 0, 64, 64, {a, -1});
  const int c = p.put(1, 3, 0, 0, 64, 9, {a, b});
  p.depend_last_on(a);
  EXPECT_EQ(p.deps_of(a), 0u);
  EXPECT_EQ(p.deps_of(b), 1u);
  EXPECT_EQ(p.deps_of(c), 3u);
  // An op with a forward dependency is rejected and leaves no stray dependency on the last op.
  EXPECT_THROW(p.join({a, 99}), std::logic_error);
  EXPECT_EQ(p.size(), 3);
  EXPECT_EQ(p.deps_of(c), 3u);
  EXPECT_EQ(p.dep_list(), (std::vector<int>{a, a, b, a}));
  const int j = p.join({a, b, c});
  EXPECT_EQ(p.deps_of(j), 3u);
  p.shrink_to_fit();
  EXPECT_EQ(p.deps_of(c), 3u);
}

TEST(ScheduleMemory, RecvIndexMatchesArrivalsInAnyOrder) {
  sw::Program p;
  const int r0 = p.recv(0, 5, 1);
  const int r1 = p.recv(0, 5, 2);
  const int r2 = p.recv(1, 5, 1);   // same peer and tag on another rail
  const int gate = p.join({r0});
  const int r3 = p.recv(0, 6, 1, {gate});   // starts only after r0 finished
  p.join({r1, r2, r3});
  sw::ProgramState s(0);
  s.load(std::move(p), 2, 0);
  auto start = [&](std::uint64_t now) { s.start_ready(now, [](int, const sw::Op&) {}); };
  start(0);
  EXPECT_EQ(s.finished(), 0);
  // r3's message arrives before r3 starts: kept as early, finished when r3 starts.
  s.rx_arrived(0, sysc::RxCompletion{6, 1, 64}, 1);
  s.rx_arrived(1, sysc::RxCompletion{5, 1, 64}, 1);   // r2
  start(1);
  EXPECT_EQ(s.finished(), 1);
  s.rx_arrived(0, sysc::RxCompletion{5, 2, 64}, 2);   // r1 before r0
  start(2);
  EXPECT_EQ(s.finished(), 2);
  s.rx_arrived(0, sysc::RxCompletion{5, 1, 64}, 3);   // r0 -> gate -> r3 (early) -> final join
  start(3);
  EXPECT_TRUE(s.done());
  EXPECT_TRUE(s.errors().empty());
  EXPECT_EQ(s.finished_at(), 3u);
}

TEST(ScheduleMemory, JoinOfMoreDependenciesThanTwoBytesCount) {
  // ProgramState keeps two bytes per op; a join of 70,000 receives counts past them and finishes
  // only with the last arrival.
  constexpr int kRecvs = 70000;
  sw::Program p;
  std::vector<int> all;
  for (int i = 0; i < kRecvs; ++i) all.push_back(p.recv(0, i % 7, static_cast<std::uint16_t>(i / 7)));
  const int j = p.join(all);
  p.join({j});
  sw::ProgramState s(0);
  s.load(std::move(p), 1, 0);
  s.start_ready(0, [](int, const sw::Op&) {});
  for (int i = 0; i < kRecvs; ++i) {
    s.rx_arrived(0, sysc::RxCompletion{static_cast<std::uint16_t>(i % 7), static_cast<std::uint16_t>(i / 7), 4}, 1);
    s.start_ready(1, [](int, const sw::Op&) {});
    if (i + 1 < kRecvs) ASSERT_EQ(s.finished(), i + 1) << "the join finished early";
  }
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.finished(), kRecvs + 2);
  EXPECT_TRUE(s.errors().empty());
}

}  // namespace
}  // namespace hxemu::test
