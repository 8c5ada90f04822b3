// sysc/fabric/link.h: what an idle block's look at its links relies on (Network::step_block).
// flits_pending() / credits_pending() say whether anything was sent and not yet taken, without
// reading a ring slot; false means nothing arrives in any cycle until the next send.
#include <gtest/gtest.h>

#include "sysc/fabric/link.h"

namespace hxemu::sysc {
namespace {

TEST(Link, PendingCountersFollowSendsAndTakes) {
  Link l(3);
  EXPECT_FALSE(l.flits_pending());
  EXPECT_FALSE(l.credits_pending());
  Flit f;
  f.valid = true;
  l.send_flit(10, f);                       // arrives in cycle 14
  l.send_credit(10, Credit{true, 1});
  l.send_credit(11, Credit{});              // an invalid credit is nothing sent
  EXPECT_TRUE(l.flits_pending());
  EXPECT_TRUE(l.credits_pending());
  for (std::uint64_t t = 11; t < 14; ++t) {
    EXPECT_FALSE(l.has_flit(t));
    EXPECT_FALSE(l.has_credit(t));
  }
  ASSERT_TRUE(l.has_flit(14));
  l.consume_flit(14);
  EXPECT_FALSE(l.flits_pending());
  EXPECT_TRUE(l.credits_pending());
  EXPECT_EQ(l.take_credit(14).vc, 1);
  EXPECT_FALSE(l.credits_pending());
  EXPECT_FALSE(l.take_credit(15).valid);    // taking an empty slot counts nothing
  EXPECT_FALSE(l.credits_pending());
  EXPECT_EQ(l.flits_in_flight(), 0);
}

// arriving_flit / credit_arriving: what a block's step takes in cycle `now`, exactly in the cycle
// it arrives.
TEST(Link, ArrivingFlitAndCreditOnlyInTheirArrivalCycle) {
  Link l(2);
  EXPECT_EQ(l.arriving_flit(3), nullptr);
  EXPECT_FALSE(l.credit_arriving(3));
  Flit f;
  f.valid = true;
  f.vc = 1;
  l.send_flit(3, f);                        // arrives in cycle 6
  l.send_credit(4, Credit{true, 0});        // arrives in cycle 7
  for (std::uint64_t t = 4; t < 6; ++t) EXPECT_EQ(l.arriving_flit(t), nullptr);
  const Flit* a = l.arriving_flit(6);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->vc, 1);
  EXPECT_FALSE(l.credit_arriving(6));
  l.consume_flit(6);
  EXPECT_EQ(l.arriving_flit(6), nullptr);
  EXPECT_TRUE(l.credit_arriving(7));
  l.take_credit(7);
  EXPECT_FALSE(l.credit_arriving(7));
}

// The halves of a link split over two processes (sysc/dist/): put on the receiver's copy counts as
// sent, pull on the sender's copy as taken.
TEST(Link, PendingCountersFollowRankExchange) {
  Link sender(2), receiver(2);
  Flit f;
  f.valid = true;
  sender.send_flit(5, f);                   // arrival 8
  sender.send_credit(5, Credit{true, 0});
  Flit g;
  Credit c;
  ASSERT_TRUE(sender.pull_flit(8, g));
  ASSERT_TRUE(sender.pull_credit(8, c));
  EXPECT_FALSE(sender.flits_pending());
  EXPECT_FALSE(sender.credits_pending());
  receiver.put_flit(8, g);
  receiver.put_credit(8, c);
  EXPECT_TRUE(receiver.flits_pending());
  EXPECT_TRUE(receiver.credits_pending());
  ASSERT_TRUE(receiver.has_flit(8));
  receiver.take_flit(8);
  receiver.take_credit(8);
  EXPECT_FALSE(receiver.flits_pending());
  EXPECT_FALSE(receiver.credits_pending());
}

// What LinkExchange sizes a window's message by: flits and valid credits sent and not yet taken.
TEST(Link, WaitingCountsWhatWasSentAndNotTaken) {
  Link link(3);
  EXPECT_EQ(link.flits_waiting(), 0u);
  Flit f;
  f.valid = true;
  link.send_flit(10, f);                    // arrival 14
  link.send_flit(11, f);                    // arrival 15
  link.send_credit(10, Credit{true, 1});
  link.send_credit(11, Credit{false, 0});   // an invalid credit is not counted
  EXPECT_EQ(link.flits_waiting(), 2u);
  EXPECT_EQ(link.credits_waiting(), 1u);
  Flit g;
  Credit c;
  ASSERT_TRUE(link.pull_flit(14, g));
  EXPECT_EQ(link.flits_waiting(), 1u);
  ASSERT_TRUE(link.pull_credit(14, c));
  EXPECT_FALSE(link.pull_credit(15, c));
  EXPECT_EQ(link.credits_waiting(), 0u);
  link.take_flit(15);
  EXPECT_EQ(link.flits_waiting(), 0u);
}

}  // namespace
}  // namespace hxemu::sysc
