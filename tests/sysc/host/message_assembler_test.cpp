// sysc/host/message_assembler.h: per-packet RX landings added up per message, released in posted
// order per source, whatever order the packets land in; landings that contradict their message are
// refused with an error naming the source and sequence number.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sysc/host/message_assembler.h"

namespace hxemu::sysc {
namespace {

std::vector<RxCompletion> drain(MessageAssembler& a) {
  std::vector<RxCompletion> out;
  RxCompletion c;
  while (a.pop(c)) out.push_back(c);
  return out;
}

TEST(MessageAssembler, ReleasesInPostedOrderPerSource) {
  MessageAssembler a;
  // Source 7: message 1 (one packet) lands before message 0 (two packets).
  a.add(RxLanding{7, 1, 11, 10, 10});
  EXPECT_FALSE(a.ready());
  a.add(RxLanding{7, 0, 10, 100, 60});
  EXPECT_FALSE(a.ready());
  // Another source is independent of source 7's order.
  a.add(RxLanding{3, 0, 30, 0, 0});   // a zero-length message: done on its only landing
  auto out = drain(a);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].src, 3);
  EXPECT_EQ(out[0].tag, 30);
  EXPECT_EQ(out[0].len, 0u);
  a.add(RxLanding{7, 0, 10, 100, 40});
  out = drain(a);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].tag, 10);
  EXPECT_EQ(out[0].len, 100u);
  EXPECT_EQ(out[1].tag, 11);
  EXPECT_EQ(a.in_reassembly(), 0u);
  EXPECT_EQ(a.most_in_reassembly(), 3u);   // 7/1, 7/0 and 3/0 (counted before its release)
  EXPECT_EQ(a.sources_heard(), 2u);
  EXPECT_TRUE(a.error().empty());
}

TEST(MessageAssembler, RandomArrivalOrderManySourcesAndWrap) {
  // 40 sources x 70,000 messages would be slow; 5 sources x 66,000 one- to three-packet messages
  // cross the 16-bit sequence wrap; packets of a window of 8 messages per source land shuffled.
  std::mt19937 rng(5);
  MessageAssembler a;
  constexpr int kSources = 5, kMsgs = 66000;
  std::vector<std::vector<RxCompletion>> got(kSources);
  for (int base = 0; base < kMsgs; base += 8) {
    std::vector<RxLanding> batch;
    for (int s = 0; s < kSources; ++s) {
      for (int m = base; m < base + 8; ++m) {
        const int packets = 1 + static_cast<int>(rng() % 3);
        const std::uint32_t len = static_cast<std::uint32_t>(packets) * 100;
        for (int p = 0; p < packets; ++p) {
          batch.push_back(RxLanding{static_cast<std::uint16_t>(s), static_cast<std::uint16_t>(m),
                                    static_cast<std::uint16_t>(m * 3), len, 100});
        }
      }
    }
    std::shuffle(batch.begin(), batch.end(), rng);
    for (const RxLanding& l : batch) a.add(l);
    RxCompletion c;
    while (a.pop(c)) got[c.src].push_back(c);
  }
  ASSERT_TRUE(a.error().empty()) << a.error();
  EXPECT_EQ(a.in_reassembly(), 0u);
  for (int s = 0; s < kSources; ++s) {
    ASSERT_EQ(got[s].size(), static_cast<std::size_t>(kMsgs)) << "source " << s;
    for (int m = 0; m < kMsgs; ++m) {
      ASSERT_EQ(got[s][m].tag, static_cast<std::uint16_t>(m * 3)) << "source " << s << " message " << m;
    }
  }
}

TEST(MessageAssembler, ContradictingLandingsAreErrors) {
  MessageAssembler a;
  a.add(RxLanding{2, 5, 1, 8, 32});   // 32 bytes of an 8-byte message
  EXPECT_EQ(a.error(), "RX landing from node 2 sequence 5: a packet of 32 bytes where the message "
                       "has 8 of its 8 bytes left");
  MessageAssembler b;
  b.add(RxLanding{2, 5, 1, 64, 32});
  b.add(RxLanding{2, 5, 9, 64, 32});  // same message, another tag
  EXPECT_EQ(b.error(), "RX landing from node 2 sequence 5 says tag 9 length 64, an earlier packet "
                       "of it said tag 1 length 64");
  EXPECT_FALSE(b.ready());
}

}  // namespace
}  // namespace hxemu::sysc
