// sysc/fabric/vc_track.h, VcTrack (Network::vc_state): what the watchdog's wait-for report and the fault logs
// read of a link's VC (occupancy, the packets its flits belong to, whether a packet owns it) from
// two running counts and one record per head, against counts worked out by hand.
#include <gtest/gtest.h>

#include "sysc/fabric/vc_track.h"

namespace hxemu::sysc {
namespace {

// One VC as Network keeps it, driven as Network::step_block drives it.
struct Vc {
  VcTrack t;
  int occupancy() const { return t.occupancy(); }
  bool open() const { return t.open(); }
  std::size_t packets() const { return t.packets(); }
  std::optional<VcPacket> front() const { return t.front(); }
  std::optional<VcPacket> back() const { return t.back(); }
};

// The sender puts a flit on the VC (a head: of packet `key`, from key to key + 100).
void send(Vc& st, bool head, bool tail, std::uint64_t key = 0) {
  if (head) {
    VcTrack::Head h;
    h.key = key;
    h.src = static_cast<std::int32_t>(key);
    h.dst = static_cast<std::int32_t>(key) + 100;
    st.t.send_head(h, tail);
  } else {
    st.t.send(tail);
  }
}
void credit(Vc& st) { st.t.credit(); }

TEST(VcState, EmptyVcHoldsNothing) {
  Vc st;
  EXPECT_EQ(st.occupancy(), 0);
  EXPECT_FALSE(st.open());
  EXPECT_EQ(st.packets(), 0u);
  EXPECT_FALSE(st.front().has_value());
  EXPECT_FALSE(st.back().has_value());
}

TEST(VcState, PacketsFollowFlitsAndCredits) {
  Vc st;
  // Packet 1: 3 flits, all sent; packet 2: head and one body sent, tail not yet.
  send(st, true, false, 1);
  send(st, false, false);
  send(st, false, true);
  send(st, true, false, 2);
  send(st, false, false);
  EXPECT_EQ(st.occupancy(), 5);
  EXPECT_TRUE(st.open());
  ASSERT_EQ(st.packets(), 2u);
  auto front = st.front();
  ASSERT_TRUE(front.has_value());
  EXPECT_EQ(front->key, 1u);
  EXPECT_EQ(front->src, 1);
  EXPECT_EQ(front->dst, 101);
  EXPECT_EQ(front->sent, 3);
  EXPECT_EQ(front->flits, 3);
  EXPECT_TRUE(front->tail_sent);
  auto back = st.back();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->key, 2u);
  EXPECT_EQ(back->sent, 2);
  EXPECT_EQ(back->flits, 2);
  EXPECT_FALSE(back->tail_sent);

  // Two credits: packet 1 has one flit left downstream.
  credit(st);
  credit(st);
  EXPECT_EQ(st.occupancy(), 3);
  EXPECT_EQ(st.front()->flits, 1);
  EXPECT_EQ(st.packets(), 2u);
  // Its last credit: packet 1 is through and no longer listed (its record stays until a head).
  credit(st);
  EXPECT_EQ(st.packets(), 1u);
  EXPECT_EQ(st.front()->key, 2u);
  EXPECT_EQ(st.front()->flits, 2);
  // Packet 2's flits all credited, tail not sent: still listed, still owning the VC.
  credit(st);
  credit(st);
  EXPECT_EQ(st.occupancy(), 0);
  EXPECT_TRUE(st.open());
  ASSERT_EQ(st.packets(), 1u);
  EXPECT_EQ(st.front()->flits, 0);
  EXPECT_EQ(st.front()->sent, 2);
  // Its tail goes out and comes back: the VC holds nothing.
  send(st, false, true);
  EXPECT_EQ(st.front()->flits, 1);
  EXPECT_EQ(st.front()->sent, 3);
  EXPECT_FALSE(st.open());
  credit(st);
  EXPECT_EQ(st.packets(), 0u);
  EXPECT_FALSE(st.front().has_value());
  EXPECT_FALSE(st.back().has_value());
  // The next head is the only packet listed; the two records of packets that are through stay
  // until the ring (4 records at first) is full.
  send(st, true, true, 3);
  EXPECT_EQ(st.t.records(), 3u);
  EXPECT_EQ(st.packets(), 1u);
  EXPECT_EQ(st.front()->key, 3u);
  EXPECT_EQ(st.back()->key, 3u);
  EXPECT_EQ(st.back()->sent, 1);
  EXPECT_EQ(st.occupancy(), 1);
}

TEST(VcState, AFullRingDropsThePacketsThatAreThroughInsteadOfGrowing) {
  Vc st;
  // Two-flit packets, each credited back before the next: a record per packet, every one through
  // by the time the next head is sent.
  for (std::uint64_t k = 0; k < 100; ++k) {
    send(st, true, false, k);
    send(st, false, true);
    EXPECT_LE(st.t.records(), 4u) << "packet " << k;
    ASSERT_EQ(st.packets(), 1u);
    EXPECT_EQ(st.front()->key, k);
    EXPECT_EQ(st.front()->flits, 2);
    credit(st);
    credit(st);
    EXPECT_EQ(st.packets(), 0u);
  }
}

TEST(VcState, ManyPacketsInFlightKeepTheirOrder) {
  Vc st;
  for (std::uint64_t k = 0; k < 40; ++k) send(st, true, true, k);   // one-flit packets
  EXPECT_EQ(st.packets(), 40u);
  EXPECT_EQ(st.t.records(), 40u);   // the ring grew: none of them is through
  for (std::uint64_t k = 0; k < 40; ++k) {
    ASSERT_EQ(st.front()->key, k);
    EXPECT_EQ(st.front()->flits, 1);
    credit(st);
  }
  EXPECT_EQ(st.packets(), 0u);
  EXPECT_EQ(st.occupancy(), 0);
}

}  // namespace
}  // namespace hxemu::sysc
