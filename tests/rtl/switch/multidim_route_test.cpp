// Unit tests of the multidim route computer (rtl/route/hx_route_multidim.sv) inside the verilated
// switch (rtl/switch/hx_switch.sv, kind_i = 4): one radix-16 NPU router with a packet endpoint on
// every port it uses, so the port a head leaves through is the endpoint that receives it, and the
// VC it arrives on gives its class.
//
// The platform: ring of 4 (2 lanes) x FC of 4 (1 lane) x switch of 4 (2 lanes), one NIC. Ports: 0
// the NIC; ring 1, 2 (+ lanes) and 3, 4 (- lanes); FC 5, 6, 7 (to the members with FC coordinate
// 0, 1, 2, 3 skipping this one); switch 8, 9 (the two switch planes).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sysc/fabric/coord_word.h"
#include "one_switch_bench.h"

namespace hxemu::test {
namespace {

constexpr int kRadix = 16, kVcs = 4, kDepth = 8, kUsed = 10;
constexpr int kRingPlus = 1, kRingMinus = 3, kFc = 5, kSwitch = 8;

struct MultidimBench : OneSwitchBench {
  // `class1`: ports whose endpoint injects in class 1, as a head arriving there in class 1 would.
  MultidimBench(std::array<int, 3> pos, std::array<int, 4> order = {0, 1, 2, 0}, std::vector<int> class1 = {}) {
    setup.kind = sysc::TreeKind::kMultidim;
    setup.md_size = {4, 4, 4, 1};
    setup.md_kind = {0, 1, 2, 0};
    setup.md_lanes = {2, 1, 2, 1};
    setup.md_base = {kRingPlus, kFc, kSwitch, 0};
    setup.md_pos = {pos[0], pos[1], pos[2], 0};
    setup.md_order = order;
    setup.vc = sysc::make_vc_plan(kVcs, 2, 2, sysc::VcPolicy::kDynamic);
    build(kRadix, kVcs, kDepth, kUsed, "npu", [&](int p) {
      const bool c1 = std::find(class1.begin(), class1.end(), p) != class1.end();
      return setup.vc.class_vcs[c1 ? 1 : 0];
    });
  }

  // A packet from the endpoint on port `in` to the NPU at `dst`, expected to leave through `out`.
  std::uint64_t send(int in, std::array<int, 3> dst, int out, int flits = 1) {
    return send_route(in, sysc::pack_coord({dst[0], dst[1], dst[2], 0}), out, flits);
  }
};

// Dimension order from the NIC: the first differing coordinate decides; a ring the shorter way
// (ties +), an FC member straight, the switch plane. With both lanes empty the lane is the
// rotating start, which moves on with every head the input sends to a two-lane dimension.
TEST(MultidimRoute, DimensionOrderPortsAndLanes) {
  MultidimBench b({1, 2, 3});
  struct Case {
    std::array<int, 3> dst;
    int first;   // lane 0's port
    int lanes;
  };
  const Case cases[] = {
      {{1, 2, 3}, 0, 1},                                        // home: the NIC of its rail
      {{2, 2, 3}, kRingPlus, 2}, {{3, 2, 3}, kRingPlus, 2},     // +1; +2 = -2 (tie: +)
      {{0, 2, 3}, kRingMinus, 2},                               // -1
      {{1, 0, 3}, kFc, 1}, {{1, 1, 3}, kFc + 1, 1}, {{1, 3, 3}, kFc + 2, 1},
      {{1, 2, 0}, kSwitch, 2}, {{1, 2, 2}, kSwitch, 2},
      {{0, 0, 0}, kRingMinus, 2}, {{1, 0, 0}, kFc, 1},          // the ring first, then the FC
  };
  int rotations = 0;
  for (const auto& c : cases) {
    const int out = c.first + (c.lanes > 1 ? rotations % 2 : 0);
    const auto id = b.send(0, c.dst, out, 2);
    ASSERT_TRUE(b.drain()) << c.dst[0] << c.dst[1] << c.dst[2];
    EXPECT_EQ(b.arrival_port(id), out) << c.dst[0] << c.dst[1] << c.dst[2];
    EXPECT_EQ(b.arrival_class(id), 0) << c.dst[0] << c.dst[1] << c.dst[2];
    if (c.lanes > 1) ++rotations;
  }
  b.expect_clean();
}

// Dateline classes: the hop over the ring's wrap link (3 -> 0 going +, 0 -> 3 going -) asks for
// class 1; a head that stays in the ring keeps its class; entering another dimension restarts at 0.
TEST(MultidimRoute, DatelineClassPerRing) {
  {
    MultidimBench b({3, 0, 0});
    const auto wrap = b.send(0, {0, 0, 0}, kRingPlus, 1);        // 3 -> 0 going +
    ASSERT_TRUE(b.drain());
    EXPECT_EQ(b.arrival_class(wrap), 1);
    const auto no_wrap = b.send(0, {2, 0, 0}, kRingMinus + 1, 1);   // 3 -> 2 going -; lane rotated
    ASSERT_TRUE(b.drain());
    EXPECT_EQ(b.arrival_class(no_wrap), 0);
    b.expect_clean();
  }
  {
    MultidimBench b({0, 1, 1});
    const auto wrap = b.send(0, {3, 1, 1}, kRingMinus, 1);       // 0 -> 3 going -
    ASSERT_TRUE(b.drain());
    EXPECT_EQ(b.arrival_class(wrap), 1);
    b.expect_clean();
  }
  {
    // Heads arriving in class 1: from the ring (port 3, the - lane from coordinate 2) a head going
    // on around the ring keeps class 1; from an FC port, a head entering the ring starts at 0.
    MultidimBench b({1, 0, 0}, {0, 1, 2, 0}, {kRingMinus, kFc});
    const auto stay = b.send(kRingMinus, {2, 0, 0}, kRingPlus, 1);
    ASSERT_TRUE(b.drain());
    EXPECT_EQ(b.arrival_class(stay), 1);
    const auto enter = b.send(kFc, {2, 0, 0}, kRingPlus, 1);   // input kFc's own rotation: lane 0
    ASSERT_TRUE(b.drain());
    EXPECT_EQ(b.arrival_class(enter), 0);
    b.expect_clean();
  }
}

// The lane: the one with more VCs of the class free with credit. Lane 0 of + has a stalled
// endpoint: 8 flits sent there use up one class-0 VC's credits, so lane 0 scores 1 and lane 1
// scores 2, and every head then takes lane 1 whatever the rotation.
TEST(MultidimRoute, LeastLoadedLane) {
  MultidimBench b({1, 2, 3});
  b.endpoints[kRingPlus]->set_stalled(true);
  b.send(0, {2, 2, 3}, kRingPlus, 8);    // rotation 0, both lanes empty: lane 0
  b.run(40);
  for (int i = 0; i < 3; ++i) {
    const auto id = b.send(0, {2, 2, 3}, kRingPlus + 1, 2);
    b.run(30);
    EXPECT_EQ(b.sb.record(id).deliveries, 1) << i;
    EXPECT_EQ(b.arrival_port(id), kRingPlus + 1) << i;
  }
  b.endpoints[kRingPlus]->set_stalled(false);
  ASSERT_TRUE(b.drain());
  b.expect_clean();
}

// routing_order: with order (2, 1, 0) the switch dimension is corrected first.
TEST(MultidimRoute, ConfigurableOrder) {
  MultidimBench b({1, 2, 3}, {2, 1, 0, 2});
  const auto sw = b.send(0, {0, 0, 0}, kSwitch, 1);
  ASSERT_TRUE(b.drain());
  EXPECT_EQ(b.arrival_port(sw), kSwitch);
  const auto fc = b.send(0, {0, 0, 3}, kFc, 1);
  ASSERT_TRUE(b.drain());
  EXPECT_EQ(b.arrival_port(fc), kFc);
  b.expect_clean();
}

}  // namespace
}  // namespace hxemu::test
