// Random stress of the NIC: 4 NICs exchanging random puts through a C++ crossbar model (random VC
// allocation and arbitration, so packets of one message overtake each other) for 10^5 cycles with
// random DMA, completion-queue and link timing; every byte of every memory is checked.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <utility>
#include <random>
#include <string>

#include "nic_bench.h"

namespace hxemu::nictest {
namespace {

constexpr std::uint32_t kSrcBytes = 1u << 20;
constexpr std::uint32_t kDst = 2u << 20;
constexpr std::size_t kMem = 10u << 20;
constexpr int kNodes = 4;
constexpr std::uint64_t kPostCycles = 100000;

class NicStress : public ::testing::TestWithParam<int> {};

TEST_P(NicStress, FourNicsRandomPutsThroughCrossbar) {
  const int vcs = GetParam();
  std::mt19937 rng(1234 + vcs);
  auto uni = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

  World w;
  constexpr int kXbarDepth = 8;
  Crossbar xbar(kNodes, vcs, kXbarDepth, 32, 99 + vcs);
  for (int i = 0; i < kNodes; ++i) {
    // Node 0 injects on VC 0 only (a router's class 0); the others on every VC.
    const std::uint32_t inj = i == 0 ? 0x1u : (1u << vcs) - 1;
    NicNode& n = w.add_node(vcs, NicSetup{i, uni(2, 16), inj, kXbarDepth}, kMem, uni(1, 20));
    n.record_flits = true;
    Link& up = w.add_link(uni(1, 4));
    Link& down = w.add_link(uni(1, 4));
    n.tx = &up;
    n.rx = &down;
    xbar.connect(i, &up, &down);
  }
  w.fabrics.push_back([&](std::uint64_t now) { xbar.step(now); });

  // Back-pressure everywhere, and one long completion-queue stall.
  std::mt19937 bp(7);
  for (int i = 0; i < kNodes; ++i) {
    NicNode& n = w.node(i);
    n.rd_ready = [&bp](std::uint64_t) { return bp() % 10 != 0; };
    n.wr_ready = [&bp](std::uint64_t) { return bp() % 10 != 0; };
    n.txc_ready = [&bp](std::uint64_t) { return bp() % 5 != 0; };
    n.rxc_ready = [&bp, i](std::uint64_t now) {
      if (i == 2 && now >= 30000 && now < 40000) return false;
      return bp() % 4 != 0;
    };
  }

  std::uint32_t next_dst[kNodes];
  for (auto& d : next_dst) d = kDst;
  PutCost expect_tx[kNodes] = {};
  std::uint64_t expect_writes[kNodes] = {};
  std::uint64_t bytes = 0;
  int puts = 0;
  while (w.now < kPostCycles) {
    for (int i = 0; i < kNodes; ++i) {
      NicNode& n = w.node(i);
      if (n.pending.size() >= 2 || uni(0, 99) >= 3) continue;
      const int to = uni(0, 9) == 0 ? i : (i + uni(1, kNodes - 1)) % kNodes;   // 10% loopback
      const int kind = uni(0, 99);
      std::uint32_t len = kind < 1 ? 0 : kind < 50 ? uni(1, 96) : kind < 95 ? uni(97, 3000)
                                                                           : uni(3001, 40000);
      NicCommand c;
      c.dst = static_cast<std::uint16_t>(to);
      c.route = static_cast<std::uint32_t>(rng());
      c.src_addr = static_cast<std::uint32_t>(uni(0, kSrcBytes - 40001));
      c.dst_addr = next_dst[to] + static_cast<std::uint32_t>(uni(0, 40));
      c.len = len;
      c.tag = static_cast<std::uint16_t>(rng());
      next_dst[to] = c.dst_addr + len;
      ASSERT_LT(next_dst[to], kMem);
      w.put(n, c);
      const PutCost pc = put_cost(c.src_addr, c.dst_addr, len, n.setup().pkt_flits);
      expect_tx[i].flits += pc.flits;
      expect_tx[i].reads += pc.reads;
      expect_tx[i].packets += pc.packets;
      expect_writes[to] += pc.writes;
      bytes += len;
      ++puts;
    }
    w.step();
  }
  const bool drained = w.run_until([&] { return w.all_done(); }, 200000);
  if (!drained) {
    for (int i = 0; i < kNodes; ++i) {
      NicNode& n = w.node(i);
      std::cout << "node " << i << ": posted " << n.posted.size() << " pending " << n.pending.size()
                << " txc " << n.txcs.size() << " rxc " << n.rxcs.size() << " flits "
                << n.flits_sent << "/" << w.puts_queued(i) << " idle " << n.nic().idle()
                << " err " << n.nic().error() << "\n";
      for (int s = 0; s < kNodes; ++s) {
        std::size_t k = 0;
        for (const auto& r : n.rxcs) k += r.c.src == s;
        std::cout << "   from " << s << ": " << k << "/" << w.puts(s, i).size() << "\n";
      }
    }
    xbar.dump(std::cout);
  }
  ASSERT_TRUE(drained) << "did not drain";
  for (int i = 0; i < 200; ++i) w.step();

  for (const auto& e : xbar.errors()) ADD_FAILURE() << e;
  EXPECT_TRUE(xbar.empty());
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
  for (int d = 0; d < kNodes; ++d) {
    NicNode& n = w.node(d);
    EXPECT_FALSE(n.nic().error()) << "node " << d;
    EXPECT_TRUE(n.nic().idle()) << "node " << d;
    // Exact costs: flits and packets injected, DMA reads, DMA writes.
    EXPECT_EQ(n.flits_sent, static_cast<std::uint64_t>(expect_tx[d].flits)) << d;
    EXPECT_EQ(n.heads_sent, static_cast<std::uint64_t>(expect_tx[d].packets)) << d;
    EXPECT_EQ(n.mem().reads(), static_cast<std::uint64_t>(expect_tx[d].reads)) << d;
    EXPECT_EQ(n.mem().writes(), expect_writes[d]) << d;
    // TX completions: every posted put exactly once (in the order messages finish).
    ASSERT_EQ(n.txcs.size(), n.posted.size());
    EXPECT_TRUE(n.tx_completed_each_once());
    // RX completions: per source exactly the posted sequence.
    for (int s = 0; s < kNodes; ++s) {
      const auto& sent = w.puts(s, d);
      std::size_t k = 0;
      for (const auto& r : n.rxcs) {
        if (r.c.src != s) continue;
        ASSERT_LT(k, sent.size());
        EXPECT_EQ(r.c.tag, sent[k].tag) << s << "->" << d << " #" << k;
        EXPECT_EQ(r.c.len, sent[k].len) << s << "->" << d << " #" << k;
        ++k;
      }
      EXPECT_EQ(k, sent.size()) << s << "->" << d;
    }
  }
  // The crossbar reorders: packets of a message overtake each other, and packets of a later
  // message from the same source arrive before an earlier message is complete.
  std::uint64_t packet_inversions = 0, message_overtakes = 0;
  for (int d = 0; d < kNodes; ++d) {
    std::map<std::pair<int, int>, std::uint32_t> last_addr;   // (src, seq) -> packet address
    std::map<int, int> max_seq;                                 // src -> newest seq seen
    for (const auto& r : w.node(d).heads_in) {
      const int src = static_cast<int>(sysc::get_field(r.flit, sysc::hdr::kSrc));
      const int seq = static_cast<int>(sysc::get_field(r.flit, sysc::hdr::kSeq));
      const auto addr = static_cast<std::uint32_t>(sysc::get_field(r.flit, sysc::hdr::kPacketAddr));
      auto it = last_addr.find({src, seq});
      if (it != last_addr.end() && addr < it->second) ++packet_inversions;
      last_addr[{src, seq}] = addr;
      auto ms = max_seq.find(src);
      if (ms != max_seq.end() && seq < ms->second) ++message_overtakes;
      if (ms == max_seq.end() || seq > ms->second) max_seq[src] = seq;
    }
  }
  // (The sending NIC interleaves the packets of messages to different destinations, which spaces a
  // message's packets apart, so far fewer of them overtake each other than messages do.)
  EXPECT_GT(packet_inversions, 5u);
  EXPECT_GT(message_overtakes, 100u);
  std::cout << "[ stress   ] V=" << vcs << ": " << puts << " puts, " << bytes << " bytes, "
            << xbar.flits() << " flits through the crossbar in " << w.now << " cycles; "
            << packet_inversions << " packets overtaken within a message, " << message_overtakes
            << " heads of a message arriving after a later message's\n";
  RecordProperty("puts", puts);
  RecordProperty("cycles", static_cast<int>(w.now));
}

INSTANTIATE_TEST_SUITE_P(Vcs, NicStress, ::testing::Values(2, 4),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "V" + std::to_string(i.param);
                         });

}  // namespace
}  // namespace hxemu::nictest
