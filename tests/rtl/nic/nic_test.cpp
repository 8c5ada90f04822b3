// Unit tests of the NIC (rtl/nic/hx_nic.sv) driven from C++ through NicBlock, with HostMemory
// behind its DMA ports and back-to-back links or small C++ network models (nic_bench.h).
// See testplan.md for the feature -> test map.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nic_bench.h"
#include "sysc/blocks/verilated_context.h"
#include "sysc/fabric/coord_word.h"

namespace hxemu::nictest {
namespace {

constexpr std::uint32_t kDst = 2u << 20;          // destination region; sources live below
constexpr std::size_t kMem = 4u << 20;
constexpr std::uint32_t kRoute = 0x0a0b0c0du;     // {dlc, dlr, dgc, dgr}

void expect_clean(World& w) {
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_FALSE(w.node(static_cast<int>(i)).nic().error()) << "node " << i;
  }
}

// Node A (id 0) faces "a router": it may inject on VCs 0 and 1 only (class 0 of a 4-VC router)
// with 8 credits each (the router's local buffer). Node B (id 1) injects on every VC with A's
// RX buffer depth as credits.
struct RouterLikePair {
  World w;
  NicNode* a;
  NicNode* b;
  RouterLikePair(std::size_t mem, int read_latency, int link_latency, int pkt_flits = 16) {
    a = &w.add_node(4, NicSetup{0, pkt_flits, 0x3, 8}, mem, read_latency);
    b = &w.add_node(4, NicSetup{1, pkt_flits, 0xf, 32}, mem, read_latency);
    w.connect_back_to_back(*a, *b, link_latency);
  }
};

std::uint64_t field(const Flit& f, sysc::Field fl) { return sysc::get_field(f, fl); }
std::uint32_t u32(std::mt19937& r) { return static_cast<std::uint32_t>(r()); }

// ---- lengths and alignments, back to back ----------------------------------------------------------

class NicLengths : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(NicLengths, BackToBackEveryAlignmentBothDirections) {
  const std::uint32_t len = GetParam();
  const bool big = len > 100000;
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> offsets =
      big ? std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}, {5, 27}}
          : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                {0, 0}, {1, 0}, {0, 1}, {31, 1}, {7, 30}, {31, 31}, {16, 16}};
  const std::uint32_t stride = (len + 64 + 31) & ~31u;
  const std::size_t mem = kDst + offsets.size() * stride + 64;
  RouterLikePair p(mem, 10, 2);
  p.a->record_flits = true;

  std::uint16_t seq = 0;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const auto [so, doff] = offsets[k];
    NicCommand ab{1, kRoute, 64 + so, kDst + static_cast<std::uint32_t>(k) * stride + doff, len,
                  static_cast<std::uint16_t>(0x100 + k)};
    NicCommand ba{0, kRoute ^ 0xffu, 32 + doff, kDst + static_cast<std::uint32_t>(k) * stride + so,
                  len, static_cast<std::uint16_t>(0x200 + k)};
    for (auto* n : {p.a, p.b}) n->mem().clear_stats();
    const std::size_t flits0 = p.a->flits_out.size();
    p.w.put(*p.a, ab);
    p.w.put(*p.b, ba);
    ASSERT_TRUE(p.w.run_until([&] { return p.w.all_done(); }, 200000 + 4 * len))
        << "len " << len << " offsets " << so << "/" << doff;

    const PutCost cab = put_cost(ab.src_addr, ab.dst_addr, len, 16);
    const PutCost cba = put_cost(ba.src_addr, ba.dst_addr, len, 16);
    EXPECT_EQ(p.a->mem().reads(), static_cast<std::uint64_t>(cab.reads));
    EXPECT_EQ(p.b->mem().writes(), static_cast<std::uint64_t>(cab.writes));
    EXPECT_EQ(p.b->mem().bytes_written(), len);
    EXPECT_EQ(p.b->mem().reads(), static_cast<std::uint64_t>(cba.reads));
    EXPECT_EQ(p.a->mem().writes(), static_cast<std::uint64_t>(cba.writes));
    EXPECT_EQ(p.a->flits_out.size() - flits0, static_cast<std::size_t>(cab.flits));

    // Completions: exact contents.
    ASSERT_EQ(p.b->rxcs.size(), k + 1);
    EXPECT_EQ(p.b->rxcs.back().c.src, 0);
    EXPECT_EQ(p.b->rxcs.back().c.tag, ab.tag);
    EXPECT_EQ(p.b->rxcs.back().c.len, len);
    EXPECT_EQ(p.a->rxcs.back().c.src, 1);
    EXPECT_EQ(p.a->rxcs.back().c.tag, ba.tag);
    EXPECT_EQ(p.a->txcs.back().c.tag, ab.tag);
    EXPECT_EQ(p.a->txcs.back().c.dst, 1);
    EXPECT_LT(p.a->txcs.back().cycle, p.b->rxcs.back().cycle);

    // Head flits: every header field, packet by packet.
    std::uint32_t off = 0;
    int packets = 0;
    for (std::size_t i = flits0; i < p.a->flits_out.size(); ++i) {
      const Flit& f = p.a->flits_out[i].flit;
      EXPECT_TRUE(f.vc == 0 || f.vc == 1) << "A injected on VC " << int(f.vc);
      if (!f.head) continue;
      ++packets;
      const std::uint32_t pb = std::min<std::uint32_t>(15 * kB, len - off);
      EXPECT_EQ(field(f, sysc::hdr::kDst), 1u);
      EXPECT_EQ(field(f, sysc::hdr::kSrc), 0u);
      EXPECT_EQ(sysc::pack_coord({static_cast<int>(field(f, sysc::hdr::kDstGridRow)),
                                  static_cast<int>(field(f, sysc::hdr::kDstGridCol)),
                                  static_cast<int>(field(f, sysc::hdr::kDstLocalRow)),
                                  static_cast<int>(field(f, sysc::hdr::kDstLocalCol))}),
                kRoute);
      EXPECT_EQ(field(f, sysc::hdr::kTag), ab.tag);
      EXPECT_EQ(field(f, sysc::hdr::kSeq), seq);
      EXPECT_EQ(field(f, sysc::hdr::kMsgLen), len);
      EXPECT_EQ(field(f, sysc::hdr::kPacketAddr), ab.dst_addr + off);
      ASSERT_EQ(field(f, sysc::hdr::kPacketBytes), pb);
      off += pb;
    }
    EXPECT_EQ(off, len);
    EXPECT_EQ(packets, cab.packets);
    ++seq;
  }
  // Round robin over the two injection VCs of the router-like side.
  int on_vc[2] = {0, 0};
  for (const auto& r : p.a->flits_out) {
    if (r.flit.head && r.flit.vc < 2) ++on_vc[r.flit.vc];
  }
  EXPECT_GT(on_vc[0], 0);
  EXPECT_GT(on_vc[1], 0);
  expect_clean(p.w);
  for (int i = 0; i < 3; ++i) p.w.step();   // the last completion pops, then idle registers
  EXPECT_TRUE(p.a->nic().idle());
  EXPECT_TRUE(p.b->nic().idle());
}

INSTANTIATE_TEST_SUITE_P(Lengths, NicLengths,
                         ::testing::Values(1u, kB - 1u, kB, kB + 1u, 15u * kB, 15u * kB + 1u,
                                           1u << 20),
                         [](const ::testing::TestParamInfo<std::uint32_t>& i) {
                           return "Len" + std::to_string(i.param);
                         });

// ---- packet length limit -------------------------------------------------------------------

TEST(Nic, PacketLengthLimitFrom2To16Flits) {
  for (int pf : {2, 3, 5, 16}) {
    World w;
    NicNode& a = w.add_node(2, NicSetup{0, pf, 0x3, 32}, kMem, 4);
    NicNode& b = w.add_node(2, NicSetup{1, pf, 0x3, 32}, kMem, 4);
    w.connect_back_to_back(a, b, 1);
    a.record_flits = true;
    const NicCommand c{1, 0, 3, kDst + 9, 5000, 7};
    w.put(a, c);
    ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 50000)) << "pkt_flits " << pf;
    const PutCost cost = put_cost(c.src_addr, c.dst_addr, c.len, pf);
    EXPECT_EQ(a.flits_out.size(), static_cast<std::size_t>(cost.flits));
    EXPECT_EQ(a.heads_sent, static_cast<std::uint64_t>(cost.packets));
    EXPECT_EQ(b.mem().writes(), static_cast<std::uint64_t>(cost.writes));
    // No packet is longer than the limit.
    int run = 0;
    for (const auto& r : a.flits_out) {
      run = r.flit.head ? 1 : run + 1;
      EXPECT_LE(run, pf);
      if (r.flit.tail) {
        EXPECT_GE(run, 2);   // every packet of a non-empty put has a body
      }
    }
    expect_clean(w);
  }
}

TEST(Nic, ZeroLengthPutIsAHeaderOnlyNotification) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 32}, kMem, 4);
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, kMem, 4);
  w.connect_back_to_back(a, b, 1);
  a.record_flits = true;
  w.put(a, NicCommand{1, 0, 5, kDst + 3, 0, 0x77});
  w.put(a, NicCommand{1, 0, 5, kDst + 3, 40, 0x78});
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 5000));
  ASSERT_EQ(b.rxcs.size(), 2u);
  EXPECT_EQ(b.rxcs[0].c.tag, 0x77);
  EXPECT_EQ(b.rxcs[0].c.len, 0u);
  EXPECT_EQ(b.rxcs[1].c.tag, 0x78);
  ASSERT_GE(a.flits_out.size(), 1u);
  EXPECT_TRUE(a.flits_out[0].flit.head && a.flits_out[0].flit.tail);
  EXPECT_EQ(a.flits_out.size(), 1u + 3u);   // notification + (head, 2 body) of the 40-byte put
  EXPECT_EQ(a.mem().reads(), 2u);
  EXPECT_EQ(b.mem().writes(), 2u);
  expect_clean(w);
}

// ---- completion queues -----------------------------------------------------------------------

TEST(NicCompletions, ManyQueuedAtOnceRxInPostedOrderTxEachOnce) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 8, 0x3, 32}, kMem, 7);
  NicNode& b = w.add_node(2, NicSetup{1, 8, 0x3, 32}, kMem, 7);
  w.connect_back_to_back(a, b, 3);
  std::mt19937 rng(5);
  std::uint32_t da = kDst, db = kDst;
  for (int i = 0; i < 40; ++i) {
    const std::uint32_t len = (i % 5 == 0) ? 3000 + u32(rng) % 3000 : 1 + u32(rng) % 300;
    w.put(a, NicCommand{1, 0, u32(rng) % 100000, da, len, static_cast<std::uint16_t>(1000 + i)});
    da += len + u32(rng) % 40;
    const std::uint32_t len2 = 1 + u32(rng) % 700;
    w.put(b, NicCommand{0, 0, u32(rng) % 100000, db, len2, static_cast<std::uint16_t>(2000 + i)});
    db += len2 + u32(rng) % 40;
  }
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 200000));
  for (auto [src, dst] : {std::pair<NicNode*, NicNode*>{&a, &b}, {&b, &a}}) {
    const auto& cmds = w.puts(src->node(), dst->node());
    ASSERT_EQ(dst->rxcs.size(), cmds.size());
    ASSERT_EQ(src->txcs.size(), cmds.size());
    for (std::size_t i = 0; i < cmds.size(); ++i) {
      EXPECT_EQ(dst->rxcs[i].c.tag, cmds[i].tag) << i;
      EXPECT_EQ(dst->rxcs[i].c.len, cmds[i].len) << i;
      EXPECT_EQ(dst->rxcs[i].c.src, src->node()) << i;
      // TX completions come in the order messages finish (posted order per destination); each
      // put's comes before its RX completion.
      EXPECT_LT(src->tx_completion_cycle(cmds[i].dst, cmds[i].tag), dst->rxcs[i].cycle) << i;
    }
    EXPECT_TRUE(src->tx_completed_each_once());
  }
  expect_clean(w);
}

// ---- back-pressure -----------------------------------------------------------------------------

TEST(NicBackPressure, FullCompletionQueuesLoseNothing) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 4, 0x3, 32}, kMem, 5);
  NicNode& b = w.add_node(2, NicSetup{1, 4, 0x3, 32}, kMem, 5);
  w.connect_back_to_back(a, b, 2);
  constexpr std::uint64_t kStall = 30000;
  b.rxc_ready = [](std::uint64_t now) { return now >= kStall; };
  a.txc_ready = [](std::uint64_t now) { return now >= kStall / 2; };
  std::mt19937 rng(11);
  std::uint32_t d = kDst;
  constexpr int kMsgs = 90;   // more than the landing queue (16) + what the links and buffers hold
  for (int i = 0; i < kMsgs; ++i) {
    const std::uint32_t len = 1 + u32(rng) % 900;
    w.put(a, NicCommand{1, 0, u32(rng) % 65536, d, len, static_cast<std::uint16_t>(i)});
    d += len + 3;
  }
  w.run_until([] { return false; }, kStall - 10);
  // Stalled: B holds what its queues can, A's TX is throttled by credits.
  EXPECT_TRUE(b.rxcs.empty());
  EXPECT_LT(a.txcs.size(), static_cast<std::size_t>(kMsgs));
  EXPECT_FALSE(a.nic().idle());
  EXPECT_FALSE(b.nic().idle());
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 200000))
      << "rxc " << b.rxcs.size() << " txc " << a.txcs.size() << " posted " << a.posted.size()
      << " flits " << a.flits_sent << " idle " << a.nic().idle() << b.nic().idle();
  ASSERT_EQ(b.rxcs.size(), static_cast<std::size_t>(kMsgs));
  for (int i = 0; i < kMsgs; ++i) EXPECT_EQ(b.rxcs[i].c.tag, i);
  EXPECT_TRUE(a.tx_completed_each_once());
  // Once released, the full landing queue streams out one record per cycle.
  EXPECT_EQ(b.landing_cycles.at(15) - b.landing_cycles.at(0), 15u);
  expect_clean(w);
}

TEST(NicBackPressure, StalledNetworkLosesNothing) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 32}, kMem, 12);
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, kMem, 12);
  Link& a_out = w.add_link(1);
  Link& b_in = w.add_link(1);
  Link& back = w.add_link(1);
  a.tx = &a_out;
  b.rx = &b_in;
  b.tx = &back;
  a.rx = &back;
  Pipe pipe(a_out, b_in);
  constexpr std::uint64_t kHoldFrom = 2000, kHoldTo = 12000;
  pipe.hold = [](std::uint64_t now) { return now >= kHoldFrom && now < kHoldTo; };
  w.fabrics.push_back([&](std::uint64_t now) { pipe.step(now); });
  // Random DMA back-pressure on both sides as well.
  std::mt19937 rng(3);
  for (NicNode* n : {&a, &b}) {
    n->rd_ready = [&rng](std::uint64_t) { return u32(rng) % 4 != 0; };
    n->wr_ready = [&rng](std::uint64_t) { return u32(rng) % 3 != 0; };
  }
  std::uint32_t d = kDst;
  for (int i = 0; i < 30; ++i) {
    const std::uint32_t len = 1 + u32(rng) % 20000;
    w.put(a, NicCommand{1, 0, u32(rng) % 1000000, d, len, static_cast<std::uint16_t>(i)});
    d += len + 17;
  }
  w.run_until([] { return false; }, kHoldFrom + 200);
  const std::uint64_t sent_at_hold = a.flits_sent;
  w.run_until([] { return false; }, kHoldTo - kHoldFrom - 200);
  // While credits are withheld A sends at most what the credits it had allow.
  EXPECT_LE(a.flits_sent - sent_at_hold, 2u * 32u);
  EXPECT_GT(pipe.held(), 0u);
  EXPECT_LT(a.txcs.size(), 30u);
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 400000));
  for (int i = 0; i < 30; ++i) EXPECT_EQ(b.rxcs.at(i).c.tag, i);
  expect_clean(w);
}

// ---- out-of-order arrival --------------------------------------------------------------------

TEST(NicOrder, OutOfOrderPacketsCompleteInPostedOrder) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 32}, kMem, 3);
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, kMem, 3);
  Link& a_out = w.add_link(1);
  Link& b_in = w.add_link(2);
  Link& back = w.add_link(1);
  a.tx = &a_out;
  b.rx = &b_in;
  b.tx = &back;
  a.rx = &back;
  Reorderer ro(a_out, b_in, 2, 32);
  w.fabrics.push_back([&](std::uint64_t now) { ro.step(now); });
  // M0: 3 packets, M1: 1 packet, M2: 2 packets (unaligned at both ends).
  w.put(a, NicCommand{1, 0, 0, kDst, 3 * 480 - 100, 10});
  w.put(a, NicCommand{1, 0, 7, kDst + 4096, 100, 11});
  w.put(a, NicCommand{1, 0, 13, kDst + 8192 + 5, 600, 12});
  ASSERT_TRUE(w.run_until([&] { return a.txcs.size() == 3 && ro.packets().size() == 6; }, 5000));
  for (int i = 0; i < 500; ++i) w.step();
  EXPECT_TRUE(b.rxcs.empty());
  // Packets in arrival order: M0p0 M0p1 M0p2 M1p0 M2p0 M2p1. Deliver M2p1, M1 | M2p0, M0p2 |
  // M0p1, M0p0 -- pairs interleaved flit by flit on VCs 0 and 1.
  ro.release({5, 3, 4, 2, 1, 0});
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 5000));
  ASSERT_EQ(b.rxcs.size(), 3u);
  EXPECT_EQ(b.rxcs[0].c.tag, 10);
  EXPECT_EQ(b.rxcs[1].c.tag, 11);
  EXPECT_EQ(b.rxcs[2].c.tag, 12);
  EXPECT_EQ(b.rxcs[0].c.len, 3u * 480u - 100u);
  // M1 and M2 landed first and waited on the host; M0's last packet releases all three at once.
  EXPECT_EQ(b.rxcs[1].cycle, b.rxcs[0].cycle);
  EXPECT_EQ(b.rxcs[2].cycle, b.rxcs[0].cycle);
  EXPECT_EQ(b.landing_cycles.size(), 6u);
  EXPECT_TRUE(ro.done());
  expect_clean(w);
}

// ---- fan-in beyond any table ----------------------------------------------------------------

// Synthetic packets straight into one NIC's ejection port: 300 two-packet messages from 300
// sources, all first packets (VC 1) before any second packet, and on VC 0 a 301st message
// interleaved flit by flit. 300 messages are partly received at once (a per-message table in the
// NIC would have had to hold them all, or stop draining); the NIC drains every flit in the cycle
// it reaches the front, so the sender never waits for a credit longer than the round trip.
TEST(NicBackPressure, FanInBeyondAnyTableNeverStallsTheDrain) {
  World w;
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, kMem, 1);
  Link& in = w.add_link(1);
  Link& out = w.add_link(1);
  b.rx = &in;
  b.tx = &out;
  constexpr int kMsgs = 301;
  auto packet = [&](int m, int k, int vc) {
    std::vector<Flit> p(2);
    p[0].valid = p[1].valid = true;
    p[0].head = true;
    p[1].tail = true;
    p[0].vc = p[1].vc = static_cast<std::uint8_t>(vc);
    sysc::set_field(p[0], sysc::hdr::kDst, 1);
    sysc::set_field(p[0], sysc::hdr::kSrc, 100 + m);
    sysc::set_field(p[0], sysc::hdr::kTag, m);
    sysc::set_field(p[0], sysc::hdr::kSeq, 0);
    sysc::set_field(p[0], sysc::hdr::kMsgLen, 64);
    const std::uint32_t addr = kDst + 64 * m + 32 * k;
    sysc::set_field(p[0], sysc::hdr::kPacketAddr, addr);
    sysc::set_field(p[0], sysc::hdr::kPacketBytes, 32);
    std::uint8_t bytes[32];
    for (int j = 0; j < 32; ++j) bytes[j] = pattern(1000 + m, 32 * k + j);
    for (int j = 0; j < 32; ++j) p[1].data[j / 4] |= std::uint32_t{bytes[j]} << (8 * (j % 4));
    w.expect_bytes(0, addr, bytes, 32);
    return p;
  };
  std::deque<Flit> lane[2];
  for (int k = 0; k < 2; ++k) {
    for (int m = 0; m < kMsgs - 1; ++m) for (const Flit& f : packet(m, k, 1)) lane[1].push_back(f);
    for (const Flit& f : packet(kMsgs - 1, k, 0)) lane[0].push_back(f);
  }
  const std::size_t flits = lane[0].size() + lane[1].size();
  int credits[2] = {32, 32};
  std::uint64_t first_sent = 0, last_credit = 0, credit_waits = 0;
  std::size_t sent = 0;
  w.fabrics.push_back([&](std::uint64_t now) {
    if (in.has_credit(now)) {
      const Credit c = in.take_credit(now);
      ++credits[c.vc];
      last_credit = now;
    }
    // One flit per cycle: VC 0 every 8th cycle while it has flits, VC 1 otherwise.
    int l = (now % 8 == 0 && !lane[0].empty()) ? 0 : 1;
    if (lane[l].empty()) l = 1 - l;
    if (lane[l].empty()) return;
    if (credits[l] == 0) {
      ++credit_waits;
      return;
    }
    if (sent++ == 0) first_sent = now;
    --credits[l];
    in.send_flit(now, lane[l].front());
    lane[l].pop_front();
  });
  ASSERT_TRUE(w.run_until([&] { return b.rxcs.size() == kMsgs; }, 20000));
  std::vector<int> seen(kMsgs, 0);
  for (const auto& r : b.rxcs) {
    ASSERT_GE(r.c.src, 100);
    ASSERT_LT(r.c.src, 100 + kMsgs);
    ++seen[r.c.src - 100];
    EXPECT_EQ(r.c.tag, r.c.src - 100);
    EXPECT_EQ(r.c.len, 64u);
  }
  EXPECT_EQ(seen, std::vector<int>(kMsgs, 1));
  EXPECT_EQ(b.landing_cycles.size(), 2u * kMsgs);
  // Every first packet landed before any second one: 300 messages in reassembly at once.
  EXPECT_GE(b.assembler.most_in_reassembly(), static_cast<std::size_t>(kMsgs - 1));
  // Never a wait for a credit: 32 credits per VC cover the round trip, so the drain never paused.
  EXPECT_EQ(credit_waits, 0u);
  EXPECT_EQ(sent, flits);
  // The last credit comes back a fixed pipeline delay after the last flit went out.
  EXPECT_LE(last_credit - first_sent, flits + 8);
  expect_clean(w);
}

// ---- sequence numbers ----------------------------------------------------------------------

TEST(NicOrder, SequenceNumbersWrapAt16Bits) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 32}, kMem, 2);
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, kMem, 2);
  w.connect_back_to_back(a, b, 1);
  constexpr int kPuts = 65536 + 300;
  for (int i = 0; i < kPuts; ++i) {
    w.put(a, NicCommand{1, 0, static_cast<std::uint32_t>(i % 1000), kDst + i, 1,
                        static_cast<std::uint16_t>(i)});
  }
  a.record_flits = true;
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 20 * kPuts));
  std::uint64_t last_seq = 0;
  for (const auto& r : a.flits_out) {
    if (r.flit.head) last_seq = field(r.flit, sysc::hdr::kSeq);
  }
  EXPECT_EQ(last_seq, static_cast<std::uint64_t>((kPuts - 1) & 0xffff));
  ASSERT_EQ(b.rxcs.size(), static_cast<std::size_t>(kPuts));
  for (int i = 0; i < kPuts; ++i) ASSERT_EQ(b.rxcs[i].c.tag, static_cast<std::uint16_t>(i)) << i;
  expect_clean(w);
}

// ---- idle skipping ---------------------------------------------------------------------------

struct Trace {
  std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> events;
  std::vector<std::uint8_t> mem[2];
  std::uint64_t skipped = 0;
};

// Bursts of puts between two back-to-back NICs with long quiet gaps. Messages of 1..max_len bytes,
// DMA read latency `latency`.
Trace run_idle_scenario(bool skip, bool skip_waiting = false, std::uint32_t max_len = 2000,
                        int latency = 9) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 6, 0x3, 32}, kMem, latency);
  NicNode& b = w.add_node(2, NicSetup{1, 6, 0x1, 32}, kMem, latency);
  w.connect_back_to_back(a, b, 4);
  for (NicNode* n : {&a, &b}) {
    n->skip_when_idle = skip;
    n->skip_when_waiting = skip_waiting;
    n->record_flits = true;
    n->rxc_ready = [](std::uint64_t now) { return now % 7 != 3; };
  }
  std::mt19937 rng(21);
  std::uint32_t d[2] = {kDst, kDst};
  for (int burst = 0; burst < 12; ++burst) {
    for (int i = 0; i < 1 + static_cast<int>(u32(rng) % 4); ++i) {
      NicNode& s = (rng() & 1) ? a : b;
      const int to = 1 - s.node();
      const std::uint32_t len = 1 + u32(rng) % max_len;
      w.put(s, NicCommand{static_cast<std::uint16_t>(to), 0, u32(rng) % 100000, d[to], len,
                          static_cast<std::uint16_t>(burst * 16 + i)});
      d[to] += len + 1;
    }
    for (int c = 0; c < 3000; ++c) w.step();   // long quiet gaps
  }
  Trace t;
  for (NicNode* n : {&a, &b}) {
    for (const auto& r : n->flits_out) {
      std::vector<std::uint32_t> v(r.flit.data.begin(), r.flit.data.begin() + kFlitBits / 32);
      v.push_back(r.flit.vc | r.flit.head << 8 | r.flit.tail << 9 | n->node() << 16);
      t.events.push_back({r.cycle, v});
    }
    for (const auto& r : n->rxcs) t.events.push_back({r.cycle, {r.c.src, r.c.tag, r.c.len}});
    for (const auto& r : n->txcs) t.events.push_back({r.cycle, {r.c.tag, r.c.dst, 1u << 31}});
    for (const auto& p : n->posted) t.events.push_back({p.cycle, {p.cmd.tag, 1u << 30}});
    t.skipped += n->skipped;
    EXPECT_FALSE(n->nic().error());
  }
  EXPECT_TRUE(w.all_done());
  t.mem[0] = a.mem().bytes(0, kMem);
  t.mem[1] = b.mem().bytes(0, kMem);
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
  return t;
}

TEST(NicIdle, SkippingIdleCyclesChangesNothing) {
  const Trace ticked = run_idle_scenario(false);
  const Trace skipped = run_idle_scenario(true);
  EXPECT_EQ(ticked.skipped, 0u);
  EXPECT_GT(skipped.skipped, 20000u);   // most of the quiet gaps
  ASSERT_EQ(ticked.events.size(), skipped.events.size());
  EXPECT_TRUE(ticked.events == skipped.events);
  EXPECT_TRUE(ticked.mem[0] == skipped.mem[0]);
  EXPECT_TRUE(ticked.mem[1] == skipped.mem[1]);
}

// wait_o: the NIC also skips the edges while it waits for DMA read data or a credit, and everything
// it does is still the same, cycle for cycle. Short messages and a long read latency (40 cycles)
// make the waits: a message's head leaves at once, its body waits for the first read word. Long
// messages both ways (the scenario above) hide the latency behind other work and leave no wait.
TEST(NicIdle, SkippingWaitingCyclesChangesNothing) {
  const Trace ticked = run_idle_scenario(false, false, 64, 40);
  const Trace idle_only = run_idle_scenario(true, false, 64, 40);
  const Trace waiting = run_idle_scenario(true, true, 64, 40);
  EXPECT_EQ(ticked.skipped, 0u);
  EXPECT_GT(waiting.skipped, idle_only.skipped + 300) << "waiting " << waiting.skipped << " idle "
                                                      << idle_only.skipped;
  ASSERT_EQ(ticked.events.size(), waiting.events.size());
  EXPECT_TRUE(ticked.events == waiting.events);
  EXPECT_TRUE(ticked.mem[0] == waiting.mem[0]);
  EXPECT_TRUE(ticked.mem[1] == waiting.mem[1]);
}

// ---- errors and setup --------------------------------------------------------------------------

TEST(NicErrors, ExtraCreditSetsStickyError) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 4}, kMem, 1);
  EXPECT_FALSE(a.nic().error());
  a.nic().clear_inputs();
  a.nic().set_credit_in(0, Credit{true, 1});   // every credit of VC 1 is home already
  a.nic().tick();
  a.nic().clear_inputs();
  for (int i = 0; i < 3; ++i) a.nic().tick();
  EXPECT_TRUE(a.nic().error());
  for (int i = 0; i < 5; ++i) a.nic().tick();
  EXPECT_TRUE(a.nic().error());
  // The RTL assertion on the same promise fired, once (rtl/router/hx_output_unit.sv).
  const std::vector<std::string> want{
      "TOP.hx_nic.u_tx.u_out: credits of VC 1 above the depth: a credit returned with all 4 home"};
  if (sysc::rtl_assertions_built()) EXPECT_EQ(sysc::take_rtl_assertions().messages, want);
}

TEST(NicErrors, FlitIntoFullRxBufferSetsError) {
  World w;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 4}, kMem, 1);
  NicBlock& n = a.nic();
  // The write port never accepts: after the head and two body flits (the write queue) every flit
  // stays in the VC buffer, so flit D + 3 is one too many.
  sysc::DmaIn stalled;
  stalled.rd_ready = false;
  stalled.wr_ready = false;
  Flit f;
  f.valid = true;
  f.vc = 1;
  f.head = true;
  sysc::set_field(f, sysc::hdr::kMsgLen, 100000);
  sysc::set_field(f, sysc::hdr::kPacketBytes, 64000);
  const int d = n.buffer_slots();
  for (int i = 0; i <= d + 3; ++i) {
    n.clear_inputs();
    n.set_dma_in(stalled);
    n.set_flit_in(0, f);
    n.tick();
    f.head = false;
    EXPECT_FALSE(n.error()) << i;
  }
  n.clear_inputs();
  n.tick();
  n.tick();
  EXPECT_TRUE(n.error());
  // The RTL assertion on the same promise fired, once (rtl/router/hx_vc_buffer.sv).
  const std::vector<std::string> want{"TOP.hx_nic.u_rx.u_buf: VC buffer overflow: flit written "
                                      "into full VC 1 (" + std::to_string(d) + " slots), sent "
                                      "without a credit"};
  if (sysc::rtl_assertions_built()) EXPECT_EQ(sysc::take_rtl_assertions().messages, want);
}

TEST(NicSetup, BadSetupAndUnknownVariantAreClearErrors) {
  auto nic = sysc::make_nic(2, kFlitBits);
  EXPECT_EQ(nic->ports(), 1);
  EXPECT_EQ(nic->vcs(), 2);
  const int maxp = nic->max_packet_flits();   // HX_NIC_MAX_PACKET_FLITS of the build
  EXPECT_GE(maxp, 16);
  try {
    nic->reset(NicSetup{0, maxp + 1, 0x1, 8});
    ADD_FAILURE() << "pkt_flits " << maxp + 1 << " accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pkt_flits=" + std::to_string(maxp + 1)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2.." + std::to_string(maxp)), std::string::npos) << e.what();
  }
  EXPECT_THROW(nic->reset(NicSetup{0, 4, 0x4, 8}), std::invalid_argument);   // VC 2 of 2
  EXPECT_THROW(nic->reset(NicSetup{0, 4, 0x0, 8}), std::invalid_argument);
  EXPECT_THROW(nic->reset(NicSetup{0, 4, 0x1, 0}), std::invalid_argument);
  EXPECT_THROW(nic->reset(NicSetup{5000, 4, 0x1, 8}), std::invalid_argument);
  try {
    sysc::make_nic(3, kFlitBits);
    ADD_FAILURE() << "a 3-VC NIC exists?";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("vcs=2 flit_bits=256"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(sysc::nic_variants().empty());
  for (const auto& v : sysc::nic_variants()) EXPECT_EQ(v.kind, "nic");
}

TEST(HostMemoryModel, LatencyOrderAndByteEnables) {
  HostMemory m(1024, 256, 3);
  for (int i = 0; i < 1024; ++i) {
    const auto v = static_cast<std::uint8_t>(i);
    m.write(static_cast<std::uint32_t>(i), &v, 1);
  }
  sysc::DmaOut o;
  std::vector<std::uint64_t> got;
  std::vector<std::uint32_t> first_word;
  for (std::uint64_t t = 0; t < 10; ++t) {
    o.rd_valid = t < 3;
    o.rd_addr = static_cast<std::uint32_t>(t * 32);
    const sysc::DmaIn in = m.cycle(t, o);
    if (in.rd_valid) {
      got.push_back(t);
      first_word.push_back(in.rd_data[0]);
    }
  }
  EXPECT_EQ(got, (std::vector<std::uint64_t>{3, 4, 5}));
  EXPECT_EQ(first_word, (std::vector<std::uint32_t>{0x03020100u, 0x23222120u, 0x43424140u}));
  sysc::DmaOut w;
  w.wr_valid = true;
  w.wr_addr = 64;
  w.wr_data.fill(0xeeeeeeeeu);
  w.wr_be = 0x5;   // bytes 0 and 2
  m.cycle(20, w);
  EXPECT_EQ(m.bytes(64, 4), (std::vector<std::uint8_t>{0xee, 65, 0xee, 67}));
  w.wr_addr = 65;
  EXPECT_THROW(m.cycle(21, w), std::out_of_range);
  EXPECT_THROW(HostMemory(64, 256, 0), std::invalid_argument);
}

}  // namespace
}  // namespace hxemu::nictest
