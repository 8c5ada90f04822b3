// sysc/fabric/network.h, Network::VcState (over VcCount and VcHeads): what the watchdog's wait-for report and the fault logs
// read of a link's VC (occupancy, the packets its flits belong to, whether a packet owns it) from
// two running counts and one record per head, against counts worked out by hand.
#include <gtest/gtest.h>

#include "sysc/fabric/network.h"

namespace hxemu::sysc {
namespace {

// One VC as Network keeps it (its counts and its head records), read through a VcState view.
struct Vc {
  Network::VcCount n;
  Network::VcHeads h;
  Network::VcState view() const { return Network::VcState(n, h); }
  int occupancy() const { return view().occupancy(); }
  bool open() const { return view().open(); }
  std::size_t packets() const { return view().packets(); }
  std::optional<Network::VcPacket> front() const { return view().front(); }
  std::optional<Network::VcPacket> back() const { return view().back(); }
};

// What Network::step_block does when the sender puts a flit on the VC / a credit comes back.
void send(Vc& st, bool head, bool tail, std::uint64_t key = 0) {
  if (head) {
    while (!st.h.heads.empty() && st.view().done(0)) st.h.heads.pop_front();
    Network::VcHeads::Head h;
    h.start = st.n.sent;
    h.packet.key = key;
    h.packet.src = static_cast<int>(key);
    h.packet.dst = static_cast<int>(key) + 100;
    st.h.heads.push_back(h);
  }
  ++st.n.sent;
  st.n.tail_sent = tail;
}
void credit(Vc& st) { ++st.n.credited; }

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
  // The next head drops the two records of packets that are through.
  send(st, true, true, 3);
  EXPECT_EQ(st.h.heads.size(), 1u);
  EXPECT_EQ(st.back()->key, 3u);
  EXPECT_EQ(st.back()->sent, 1);
  EXPECT_EQ(st.occupancy(), 1);
}

TEST(VcState, ManyPacketsInFlightKeepTheirOrder) {
  Vc st;
  for (std::uint64_t k = 0; k < 40; ++k) send(st, true, true, k);   // one-flit packets
  EXPECT_EQ(st.packets(), 40u);
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
