// The NIC with a flit width that is not a power of two: W = 224 (28-byte words, so "aligned" means
// a multiple of 28 and offsets come from a real modulo). Verilated for this test only
// (tests/rtl/nic/CMakeLists.txt); driven like the 256-bit variant.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "Vhx_nic_v2_w224.h"
#include "Vhx_nic_v2_w224___024root.h"   // sysc/blocks/link_ports.h touches its edge-detection state
#include "nic_bench.h"
#include "sysc/blocks/nic_model.h"

namespace hxemu::nictest {
namespace {

constexpr int kW = 224;
constexpr int kBytes = kW / 8;   // 28
constexpr std::uint32_t kDst = 1u << 20;
constexpr std::size_t kMem = 3u << 20;

std::unique_ptr<NicBlock> make_w224() {
  return std::make_unique<sysc::NicModel<Vhx_nic_v2_w224>>(2, kW, 32, 16, 4096);
}

TEST(NicWidth, Width224BackToBackEveryAlignment) {
  World w;
  NicNode& a = w.add_node(make_w224(), NicSetup{0, 5, 0x3, 32}, kMem, 6);
  NicNode& b = w.add_node(make_w224(), NicSetup{1, 16, 0x1, 32}, kMem, 3);
  w.connect_back_to_back(a, b, 2);
  EXPECT_EQ(a.nic().flit_bits(), kW);
  std::mt19937 rng(224);
  std::uint32_t d[2] = {kDst, kDst};
  PutCost expect_tx[2];
  std::uint64_t expect_writes[2] = {0, 0};
  const std::uint32_t lens[] = {1, 27, 28, 29, 55, 56, 57, 4 * 28, 4 * 28 + 1, 15 * 28, 15 * 28 + 3,
                                1000, 5000, 70000};
  for (std::uint32_t len : lens) {
    for (int rep = 0; rep < 3; ++rep) {
      for (int s = 0; s < 2; ++s) {
        NicNode& n = s == 0 ? a : b;
        const int to = 1 - s;
        NicCommand c{static_cast<std::uint16_t>(to), 0,
                     static_cast<std::uint32_t>(rng() % 200000),
                     d[to] + static_cast<std::uint32_t>(rng() % 60), len,
                     static_cast<std::uint16_t>(rng())};
        d[to] = c.dst_addr + len;
        w.put(n, c);
        const PutCost pc = put_cost(c.src_addr, c.dst_addr, len, n.setup().pkt_flits, kBytes);
        expect_tx[s].flits += pc.flits;
        expect_tx[s].reads += pc.reads;
        expect_writes[to] += pc.writes;
      }
    }
  }
  ASSERT_TRUE(w.run_until([&] { return w.all_done(); }, 400000));
  for (int s = 0; s < 2; ++s) {
    NicNode& n = w.node(s);
    EXPECT_EQ(n.flits_sent, static_cast<std::uint64_t>(expect_tx[s].flits)) << s;
    EXPECT_EQ(n.mem().reads(), static_cast<std::uint64_t>(expect_tx[s].reads)) << s;
    EXPECT_EQ(n.mem().writes(), expect_writes[s]) << s;
    const auto& sent = w.puts(1 - s, s);
    ASSERT_EQ(n.rxcs.size(), sent.size());
    for (std::size_t k = 0; k < sent.size(); ++k) EXPECT_EQ(n.rxcs[k].c.tag, sent[k].tag);
    EXPECT_FALSE(n.nic().error());
  }
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
}

}  // namespace
}  // namespace hxemu::nictest
