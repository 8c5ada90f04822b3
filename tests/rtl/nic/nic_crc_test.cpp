// The NIC's end-to-end packet CRC (rtl/nic/hx_nic.sv crc_en_i, NicSetup::crc): with it every packet
// is a head, ceil(bytes / B) data flits and a trailer whose payload bits [31:0] hold the CRC-32 of
// the head and data flits (sysc/fabric/packet_crc.h is the reference); the receiver flags and
// counts packets whose CRC does not match. Here NIC A sends to NIC B through a tap that sees (and
// may corrupt) every flit on the link; B answers back to back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nic_bench.h"
#include "sysc/fabric/packet_crc.h"

namespace hxemu::nictest {
namespace {

constexpr std::uint32_t kDst = 2u << 20;          // destination region; sources live below
constexpr std::size_t kMem = 4u << 20;
constexpr std::uint32_t kRoute = 0x0a0b0c0du;
constexpr int kVcs = 4;

std::uint64_t field(const Flit& f, sysc::Field fl) { return sysc::get_field(f, fl); }

// Forwards flits from `in` to `out` (credits back at once), keeping a copy of each flit as it
// arrived and letting the test change it before it goes on.
class Tap {
 public:
  Tap(Link& in, Link& out) : in_(in), out_(out) {}
  // Called with each flit (index into seen()) before it is forwarded.
  std::function<void(Flit&, std::size_t)> corrupt;
  void step(std::uint64_t now) {
    if (in_.has_flit(now)) {
      Flit f = in_.take_flit(now);
      seen_.push_back(f);
      if (corrupt) corrupt(f, seen_.size() - 1);
      out_.send_flit(now, f);
    }
    if (out_.has_credit(now)) in_.send_credit(now, out_.take_credit(now));
  }
  const std::vector<Flit>& seen() const { return seen_; }

 private:
  Link& in_;
  Link& out_;
  std::vector<Flit> seen_;
};

// A -> tap -> B, and B -> A back to back. Every landing record B's host takes is kept.
struct TapPair {
  World w;
  NicNode* a;
  NicNode* b;
  std::unique_ptr<Tap> tap;
  std::vector<sysc::RxLanding> landings;   // at B
  TapPair(bool crc, int pkt_flits = 16, int read_latency = 6) {
    a = &w.add_node(kVcs, NicSetup{0, pkt_flits, 0x3, 32, 0, crc}, kMem, read_latency);
    b = &w.add_node(kVcs, NicSetup{1, pkt_flits, 0xf, 32, 0, crc}, kMem, read_latency);
    Link& a_out = w.add_link(1);
    Link& b_in = w.add_link(1);
    Link& ba = w.add_link(2);
    a->tx = &a_out;
    b->rx = &b_in;
    b->tx = &ba;
    a->rx = &ba;
    tap = std::make_unique<Tap>(a_out, b_in);
    w.fabrics.push_back([this](std::uint64_t now) { tap->step(now); });
    NicNode* bb = b;
    b->rxc_ready = [this, bb](std::uint64_t) {
      if (bb->nic().rxc_valid()) landings.push_back(bb->nic().rxc());   // popped at this edge
      return true;
    };
  }
};

// The flits seen on the link from index `from` on, cut into packets (head .. tail).
std::vector<std::vector<Flit>> packets_of(const std::vector<Flit>& flits, std::size_t from) {
  std::vector<std::vector<Flit>> out;
  std::vector<Flit> cur;
  for (std::size_t i = from; i < flits.size(); ++i) {
    EXPECT_EQ(flits[i].head, cur.empty()) << "flit " << i;
    cur.push_back(flits[i]);
    if (flits[i].tail) {
      out.push_back(cur);
      cur.clear();
    }
  }
  EXPECT_TRUE(cur.empty()) << "a packet is not finished";
  return out;
}

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

// A packet with CRC on: head, ceil(bytes / B) data flits, a trailer holding the reference CRC of
// the others in bits [31:0] and 0 elsewhere; only the trailer is a tail.
void expect_crc_packet(const std::vector<Flit>& p, const std::string& where) {
  ASSERT_GE(p.size(), 2u) << where;
  const std::uint32_t bytes = static_cast<std::uint32_t>(field(p.front(), sysc::hdr::kPacketBytes));
  EXPECT_EQ(p.size(), 2 + ceil_div(bytes, kB)) << where;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) EXPECT_FALSE(p[i].tail) << where << " flit " << i;
  const Flit& t = p.back();
  EXPECT_TRUE(t.tail && !t.head) << where;
  EXPECT_EQ(t.vc, p.front().vc) << where;
  EXPECT_EQ(t.data[0], sysc::packet_crc(p.data(), p.size() - 1, kFlitBits)) << where;
  for (int w = 1; w < kFlitBits / 32; ++w) EXPECT_EQ(t.data[w], 0u) << where << " trailer word " << w;
}

// ---- the reference itself ----------------------------------------------------------------------

std::uint8_t rev8(std::uint8_t x) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; ++i) r = static_cast<std::uint8_t>(r | (((x >> i) & 1) << (7 - i)));
  return r;
}

TEST(PacketCrc, IsCrc32Bzip2WithPayloadBitsFedFromBitZero) {
  // Fed MSB first per byte, this CRC is CRC-32/BZIP2, whose check value over "123456789" is
  // 0xFC891918: the payload holds each byte bit-reversed, so bit 0 of a payload byte is the MSB.
  const std::string check = "123456789";
  Flit f;
  for (std::size_t k = 0; k < check.size(); ++k) {
    f.data[k / 4] |= std::uint32_t{rev8(static_cast<std::uint8_t>(check[k]))} << (8 * (k % 4));
  }
  EXPECT_EQ(sysc::packet_crc(&f, 1, 72), 0xFC891918u);
  // Split over two "flits" of 32 and 40 bits: the same stream, the same value.
  Flit g, h;
  g.data[0] = f.data[0];
  h.data[0] = f.data[1];
  h.data[1] = f.data[2];
  std::uint32_t c = sysc::packet_crc_update(0xFFFFFFFFu, g, 32);
  c = sysc::packet_crc_update(c, h, 40);
  EXPECT_EQ(c ^ 0xFFFFFFFFu, 0xFC891918u);
  // Nothing fed: the initial value, inverted.
  EXPECT_EQ(sysc::packet_crc(nullptr, 0, 256), 0u);
}

// ---- CRC on: intact delivery and exact trailers --------------------------------------------------

TEST(NicCrc, LengthsAndAlignmentsArriveIntactWithReferenceTrailers) {
  TapPair p(true);
  const std::uint32_t cap = 14 * kB;   // (16 - 2) * B
  const std::vector<std::uint32_t> lens = {0, 1, 31, 32, 33, 447, 448, 449, 1000, 5000};
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> offsets = {
      {0, 0}, {1, 0}, {0, 1}, {31, 1}, {7, 30}, {16, 16}};
  std::uint32_t dst = kDst;
  std::uint16_t seq = 0, tag = 0x40;
  std::uint64_t packets_total = 0;
  for (std::uint32_t len : lens) {
    for (const auto& [so, doff] : offsets) {
      const std::size_t from = p.tap->seen().size();
      const std::size_t landed = p.landings.size();
      dst = (dst + 64 + 31) & ~31u;
      NicCommand c{1, kRoute, 4096 + so, dst + doff, len, tag};
      dst += doff + len;
      p.w.put(*p.a, c);
      const std::string where = "len " + std::to_string(len) + " offsets " + std::to_string(so) +
                                "/" + std::to_string(doff);
      ASSERT_TRUE(p.w.run_until([&] { return p.w.all_done(); }, 100000)) << where;
      // Packets per message = ceil(len / ((pf - 2) * B)) (one for a zero-length message), each as
      // the math says, its trailer the reference CRC of what the tap saw.
      const auto pk = packets_of(p.tap->seen(), from);
      ASSERT_EQ(pk.size(), len == 0 ? 1u : ceil_div(len, cap)) << where;
      std::uint32_t off = 0;
      for (std::size_t k = 0; k < pk.size(); ++k) {
        const std::uint32_t pb = std::min(cap, len - off);
        ASSERT_EQ(field(pk[k].front(), sysc::hdr::kPacketBytes), pb) << where << " packet " << k;
        EXPECT_EQ(field(pk[k].front(), sysc::hdr::kPacketAddr), c.dst_addr + off) << where;
        EXPECT_EQ(field(pk[k].front(), sysc::hdr::kSeq), seq) << where;
        EXPECT_EQ(pk[k].size(), 2 + ceil_div(pb, kB)) << where << " packet " << k;
        expect_crc_packet(pk[k], where + " packet " + std::to_string(k));
        off += pb;
      }
      packets_total += pk.size();
      // One landing per packet, none flagged; the message completed with its length.
      ASSERT_EQ(p.landings.size() - landed, pk.size()) << where;
      for (std::size_t k = landed; k < p.landings.size(); ++k) {
        EXPECT_FALSE(p.landings[k].crc_bad) << where;
        EXPECT_EQ(p.landings[k].tag, tag) << where;
      }
      ASSERT_FALSE(p.b->rxcs.empty());
      EXPECT_EQ(p.b->rxcs.back().c.len, len) << where;
      EXPECT_EQ(p.b->rxcs.back().c.tag, tag) << where;
      ++seq;
      ++tag;
    }
  }
  std::string why;
  EXPECT_TRUE(p.w.memories_match(why)) << why;
  EXPECT_EQ(p.b->nic().crc_errors(), 0u);
  EXPECT_EQ(p.a->nic().crc_errors(), 0u);
  EXPECT_FALSE(p.a->nic().error());
  EXPECT_FALSE(p.b->nic().error());
  EXPECT_EQ(p.tap->seen().size(), p.a->flits_sent);
  EXPECT_GT(packets_total, 60u);
}

// Flits per packet = 2 + ceil(bytes / B), packets per message = ceil(len / ((pf - 2) * B)), for
// several packet limits (3: one data flit per packet); B -> A back to back too.
TEST(NicCrc, FlitAndPacketCountsFollowTheReducedCapacity) {
  for (int pf : {3, 4, 7, 16}) {
    TapPair p(true, pf);
    p.b->record_flits = true;
    const std::uint32_t cap = static_cast<std::uint32_t>(pf - 2) * kB;
    std::uint32_t dst = kDst;
    for (std::uint32_t len : {0u, 1u, 32u, 33u, 100u, 1000u, 3333u}) {
      const std::size_t from = p.tap->seen().size();
      const std::size_t bfrom = p.b->flits_out.size();
      const std::uint64_t a_flits = p.a->flits_sent, a_heads = p.a->heads_sent;
      dst = (dst + 64 + 31) & ~31u;
      p.w.put(*p.a, NicCommand{1, kRoute, 4096 + 3, dst + 5, len, 7});
      p.w.put(*p.b, NicCommand{0, kRoute, 8192 + 30, dst + 1, len, 9});
      dst += 5 + len;
      const std::string where = "pf " + std::to_string(pf) + " len " + std::to_string(len);
      ASSERT_TRUE(p.w.run_until([&] { return p.w.all_done(); }, 200000)) << where;
      const std::uint32_t packets = len == 0 ? 1 : ceil_div(len, cap);
      const std::uint32_t data_flits = len == 0 ? 0 : (len / cap) * (pf - 2) + ceil_div(len % cap, kB);
      EXPECT_EQ(p.a->heads_sent - a_heads, packets) << where;
      EXPECT_EQ(p.a->flits_sent - a_flits, 2 * packets + data_flits) << where;
      const auto pk = packets_of(p.tap->seen(), from);
      ASSERT_EQ(pk.size(), packets) << where;
      for (const auto& q : pk) {
        EXPECT_LE(q.size(), static_cast<std::size_t>(pf)) << where;
        expect_crc_packet(q, where);
      }
      std::vector<Flit> bf;
      for (std::size_t i = bfrom; i < p.b->flits_out.size(); ++i) bf.push_back(p.b->flits_out[i].flit);
      const auto bpk = packets_of(bf, 0);
      ASSERT_EQ(bpk.size(), packets) << where;
      for (const auto& q : bpk) expect_crc_packet(q, where + " (B -> A)");
    }
    std::string why;
    EXPECT_TRUE(p.w.memories_match(why)) << "pf " << pf << ": " << why;
    EXPECT_EQ(p.a->nic().crc_errors() + p.b->nic().crc_errors(), 0u);
  }
}

TEST(NicCrc, PacketLimitBelowThreeIsRefusedWithCrc) {
  auto nic = sysc::make_nic(kVcs, kFlitBits);
  NicSetup s{0, 2, 0x1, 8, 0, true};
  try {
    nic->reset(s);
    FAIL() << "pkt_flits 2 with crc accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pkt_flits"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3.."), std::string::npos) << e.what();
  }
  s.crc = false;
  EXPECT_NO_THROW(nic->reset(s));
}

// ---- corruption ----------------------------------------------------------------------------------

// Posts `n` messages of `len` bytes A -> B (tags 0x100 + k) and runs them to completion.
void send_messages(TapPair& p, int n, std::uint32_t len) {
  std::uint32_t dst = kDst;
  for (int k = 0; k < n; ++k) {
    p.w.put(*p.a, NicCommand{1, kRoute, 4096 + 9, dst + 3, len, static_cast<std::uint16_t>(0x100 + k)});
    dst = (dst + 3 + len + 64) & ~31u;
  }
  ASSERT_TRUE(p.w.run_until([&] { return p.w.all_done(); }, 400000));
}

TEST(NicCrc, OneFlippedBodyBitIsOneCrcErrorOnThatPacket) {
  TapPair p(true);
  // Two messages of 1000 bytes (3 packets each: 448, 448, 104 bytes; the two messages' packets
  // alternate on the link): flip payload bit 77 of the second data flit of the 3rd packet.
  int packet = -1, in_packet = 0;
  std::uint16_t hit_seq = 0, hit_tag = 0, hit_bytes = 0;
  p.tap->corrupt = [&](Flit& f, std::size_t) {
    if (f.head) {
      ++packet;
      in_packet = 0;
      if (packet == 2) {
        hit_seq = static_cast<std::uint16_t>(field(f, sysc::hdr::kSeq));
        hit_tag = static_cast<std::uint16_t>(field(f, sysc::hdr::kTag));
        hit_bytes = static_cast<std::uint16_t>(field(f, sysc::hdr::kPacketBytes));
      }
      return;
    }
    ++in_packet;
    if (packet == 2 && in_packet == 2) f.data[77 / 32] ^= 1u << (77 % 32);
  };
  send_messages(p, 2, 1000);
  EXPECT_EQ(p.b->nic().crc_errors(), 1u);
  EXPECT_EQ(p.a->nic().crc_errors(), 0u);
  int bad = 0;
  for (const auto& l : p.landings) {
    if (!l.crc_bad) continue;
    ++bad;
    EXPECT_EQ(l.src, 0);
    EXPECT_EQ(l.seq, hit_seq);
    EXPECT_EQ(l.tag, hit_tag);
    EXPECT_EQ(l.bytes, hit_bytes);
  }
  EXPECT_EQ(bad, 1);
  EXPECT_GT(hit_bytes, 41);   // bit 77 of data flit 2 is the packet's byte 32 + 9
  EXPECT_EQ(p.landings.size(), 6u);
  // The flipped bit was written (the packet's bytes land; the flag says they are suspect): exactly
  // one byte of B's memory differs from the expected image, by bit 77 % 8.
  const auto m = p.b->mem().bytes(0, p.b->mem().size());
  const auto& e = p.w.expected(1);
  int diff = 0;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i] != e[i]) {
      ++diff;
      EXPECT_EQ(m[i] ^ e[i], 1 << (77 % 8));
    }
  }
  EXPECT_EQ(diff, 1);
  // Both messages still completed.
  EXPECT_EQ(p.b->rxcs.size(), 2u);
  EXPECT_FALSE(p.b->nic().error());
}

TEST(NicCrc, FlipsInKDistinctPacketsAreExactlyKErrors) {
  TapPair p(true);
  // 12 messages of 1000 bytes: 36 packets, three per message (448, 448, 104 bytes; the messages'
  // packets alternate on the link). Corrupt the packets 1, 4, 6, 17, 30 and 35 on the link: a data
  // bit; two bits of one flit; one bit in each of two data flits of one packet; a bit of the
  // trailer's CRC; a bit of a byte of the packet in its last data flit; a bit of a byte past the
  // packet's end in its last data flit (covered: the payload as sent).
  const std::set<int> hit = {1, 4, 6, 17, 30, 35};
  int packet = -1, in_packet = 0, data_flits = 0;
  std::uint32_t bytes = 0;
  std::vector<std::pair<std::uint16_t, std::uint16_t>> hit_ids;   // (seq, tag)
  p.tap->corrupt = [&](Flit& f, std::size_t) {
    if (f.head) {
      ++packet;
      in_packet = 0;
      bytes = static_cast<std::uint32_t>(field(f, sysc::hdr::kPacketBytes));
      data_flits = static_cast<int>(ceil_div(bytes, kB));
      if (hit.count(packet)) {
        hit_ids.push_back({static_cast<std::uint16_t>(field(f, sysc::hdr::kSeq)),
                           static_cast<std::uint16_t>(field(f, sysc::hdr::kTag))});
      }
      return;
    }
    ++in_packet;
    switch (packet) {
      case 1: if (in_packet == 1) f.data[0] ^= 1u; break;
      case 4: if (in_packet == 3) f.data[7] ^= 0x80000001u; break;
      case 6: if (in_packet == 2 || in_packet == data_flits) f.data[3] ^= 0x10u; break;
      case 17: if (f.tail) f.data[0] ^= 0x00400000u; break;
      case 30: if (in_packet == data_flits) f.data[1] ^= 0x100u; break;   // byte 5
      // Packet 35 is the last of a message: 104 bytes in 4 data flits, the last holding 8 bytes
      // (of 32) of the packet: flip a bit of byte 31.
      case 35:
        EXPECT_EQ(bytes % kB, 8u);
        if (in_packet == data_flits) f.data[7] ^= 0x01000000u;
        break;
      default: break;
    }
  };
  send_messages(p, 12, 1000);
  EXPECT_EQ(p.b->nic().crc_errors(), hit.size());
  ASSERT_EQ(p.landings.size(), 36u);
  std::vector<std::pair<std::uint16_t, std::uint16_t>> bad;
  for (const auto& l : p.landings) {
    if (l.crc_bad) bad.push_back({l.seq, l.tag});
  }
  std::sort(bad.begin(), bad.end());
  std::sort(hit_ids.begin(), hit_ids.end());
  // Several corrupted packets may belong to one message: compare as multisets.
  EXPECT_EQ(bad, hit_ids);
  EXPECT_EQ(p.b->rxcs.size(), 12u);
  EXPECT_FALSE(p.b->nic().error());
}

// The whole trailer is checked (rtl/nic/hx_nic_rx.sv): the CRC in bits [31:0], zeros above. A flip
// in the bits above the CRC leaves the bytes intact but still flags the packet.
TEST(NicCrc, TrailerBitsAboveTheCrcAreCheckedToo) {
  TapPair p(true);
  p.tap->corrupt = [](Flit& f, std::size_t) {
    if (f.tail) f.data[3] ^= 1u << 4;   // bit 100
  };
  send_messages(p, 3, 500);   // 2 packets each (448 + 52 bytes)
  EXPECT_EQ(p.b->nic().crc_errors(), 6u);
  ASSERT_EQ(p.landings.size(), 6u);
  for (const auto& l : p.landings) EXPECT_TRUE(l.crc_bad);
  std::string why;
  EXPECT_TRUE(p.w.memories_match(why)) << why;
}

// ---- CRC off: no trailer, nothing checked --------------------------------------------------------

TEST(NicCrc, OffMeansNoTrailerAndNoCount) {
  TapPair p(false);
  std::uint32_t dst = kDst;
  for (std::uint32_t len : {0u, 1u, 31u, 32u, 33u, 480u, 481u, 1000u}) {
    const std::size_t from = p.tap->seen().size();
    dst = (dst + 64 + 31) & ~31u;
    const NicCommand c{1, kRoute, 4096 + 5, dst + 2, len, 3};
    dst += 2 + len;
    p.w.put(*p.a, c);
    ASSERT_TRUE(p.w.run_until([&] { return p.w.all_done(); }, 100000)) << "len " << len;
    const PutCost cost = put_cost(c.src_addr, c.dst_addr, len, 16);
    EXPECT_EQ(p.tap->seen().size() - from, static_cast<std::size_t>(cost.flits)) << "len " << len;
    const auto pk = packets_of(p.tap->seen(), from);
    ASSERT_EQ(pk.size(), static_cast<std::size_t>(cost.packets)) << "len " << len;
    for (const auto& q : pk) {
      // The tail is the last data flit (or the head of a header-only packet).
      const std::uint32_t pb = static_cast<std::uint32_t>(field(q.front(), sysc::hdr::kPacketBytes));
      EXPECT_EQ(q.size(), 1 + ceil_div(pb, kB)) << "len " << len;
    }
  }
  std::string why;
  EXPECT_TRUE(p.w.memories_match(why)) << why;
  // A flipped bit now goes unnoticed.
  p.tap->corrupt = [](Flit& f, std::size_t) {
    if (!f.head) f.data[2] ^= 4u;
  };
  send_messages(p, 2, 100);
  EXPECT_EQ(p.b->nic().crc_errors(), 0u);
  for (const auto& l : p.landings) EXPECT_FALSE(l.crc_bad);
}

// ---- per-VC CRCs: packets of several sources interleave at one ejection port ----------------------

TEST(NicCrc, InterleavedPacketsThroughACrossbarAllCheckOut) {
  constexpr int kNodes = 3;
  constexpr int kDepth = 8;
  World w;
  Crossbar xbar(kNodes, kVcs, kDepth, 32, 4242);
  std::mt19937 rng(5);
  for (int i = 0; i < kNodes; ++i) {
    NicNode& n = w.add_node(kVcs, NicSetup{i, 5 + 3 * i, 0xf, kDepth, 0, true}, kMem, 3 + i);
    n.record_flits = true;
    Link& up = w.add_link(1);
    Link& down = w.add_link(1 + i);
    n.tx = &up;
    n.rx = &down;
    xbar.connect(i, &up, &down);
    n.wr_ready = [&rng](std::uint64_t) { return rng() % 5 != 0; };
  }
  w.fabrics.push_back([&](std::uint64_t now) { xbar.step(now); });
  // Nodes 0 and 1 send to 2 (and to each other) at once: at node 2 their packets interleave on the
  // ejection VCs.
  std::uint32_t next[kNodes] = {kDst, kDst, kDst};
  for (int k = 0; k < 20; ++k) {
    for (int s = 0; s < 2; ++s) {
      for (int d : {2, 1 - s}) {
        const std::uint32_t len = static_cast<std::uint32_t>(rng() % 900);
        NicCommand c{static_cast<std::uint16_t>(d), kRoute, static_cast<std::uint32_t>(rng() % 50000),
                     next[d] + static_cast<std::uint32_t>(rng() % 32), len,
                     static_cast<std::uint16_t>(k * 4 + s * 2 + (d == 2))};
        next[d] = c.dst_addr + len + 1;
        w.put(w.node(s), c);
      }
    }
  }
  ASSERT_TRUE(w.run_until([&] { return w.all_done() && xbar.empty(); }, 400000));
  EXPECT_TRUE(xbar.errors().empty()) << xbar.errors().front();
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
  for (int i = 0; i < kNodes; ++i) {
    EXPECT_EQ(w.node(i).nic().crc_errors(), 0u) << "node " << i;
    EXPECT_FALSE(w.node(i).nic().error()) << "node " << i;
    std::vector<Flit> fl;
    for (const auto& r : w.node(i).flits_out) fl.push_back(r.flit);
    // A NIC sends its packets whole (one at a time), so its own output cuts into packets.
    for (const auto& q : packets_of(fl, 0)) expect_crc_packet(q, "node " + std::to_string(i));
  }
}

}  // namespace
}  // namespace hxemu::nictest
