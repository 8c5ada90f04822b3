// NICs through the real switch RTL: 4 verilated NICs on the ports of one verilated radix-4 switch
// (fat-tree routing by destination id), composed with sysc::Network like any system. Random puts
// (random sizes, unaligned source and destination addresses) for 10^5 cycles; every message's
// bytes are compared with its source buffer when its receive completion arrives, and the
// completions per (source, destination) arrive in posted order.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

#include "sysc/fabric/network.h"
#include "sysc/host/nic_node.h"
#include "sysc/blocks/switch_block.h"

namespace hxemu::test {
namespace {

constexpr int kNics = 4;
constexpr std::uint32_t kSrcBytes = 512 * 1024;       // source data at [0, kSrcBytes)
constexpr std::uint32_t kRegion = 256 * 1024;         // per-source landing area at each node
constexpr std::uint32_t kMem = kSrcBytes + kNics * kRegion;

std::uint8_t pattern(int node, std::uint32_t addr) {
  return static_cast<std::uint8_t>((addr * 2654435761u) >> 13) ^ static_cast<std::uint8_t>(node * 37);
}

struct Sent {
  int src, dst;
  std::uint32_t src_addr, dst_addr, len;
  std::uint16_t tag;
};

TEST(NicSwitch, FourNicsRandomPutsThroughOneSwitch) {
  sysc::Network net;
  auto sw = sysc::make_switch(4, 2, 256);
  sysc::SwitchSetup ss;
  ss.kind = sysc::TreeKind::kFatTree;
  ss.level = sysc::SwitchLevel::kSingle;
  ss.vc = sysc::make_vc_plan(2, 1, 2, sysc::VcPolicy::kDynamic);
  ss.out_depth.assign(4, 8);
  sw->reset(ss);
  const int swb = net.add_block(std::move(sw), "switch");
  std::vector<sysc::NicNode*> nics;
  for (int i = 0; i < kNics; ++i) {
    auto mem = std::make_shared<sysc::HostMemory>(kMem, 256, 4);
    for (std::uint32_t a = 0; a < kSrcBytes; ++a) {
      const std::uint8_t v = pattern(i, a);
      mem->write(a, &v, 1);
    }
    auto nic = sysc::make_nic(2, 256);
    sysc::NicSetup s;
    s.node = i;
    s.pkt_flits = 8;
    s.inj_vcs = 0x3;
    s.inj_depth = 32;
    nic->reset(s);
    auto node = std::make_unique<sysc::NicNode>(std::move(nic), mem, i, 0, net.clock());
    nics.push_back(node.get());
    const int b = net.add_block(std::move(node), "nic" + std::to_string(i));
    net.connect({b, 0}, {swb, i}, 1, sysc::LinkClass::kTerminal);
  }

  std::mt19937_64 rng(5);
  std::vector<Sent> sent;
  std::map<std::pair<int, int>, std::uint32_t> next_dst;        // landing cursor per (src, dst)
  std::map<std::pair<int, int>, std::vector<std::uint16_t>> order;   // tags in posted order
  std::map<std::pair<int, int>, std::size_t> completed;
  std::vector<std::uint16_t> tag(kNics, 0);
  std::uint64_t bytes_checked = 0, wrong = 0, tx_done = 0;
  auto check_rx = [&](int dst, const sysc::RxCompletion& c) {
    const auto key = std::make_pair(static_cast<int>(c.src), dst);
    auto& seq = order[key];
    std::size_t& k = completed[key];
    ASSERT_LT(k, seq.size()) << "completion nobody posted";
    EXPECT_EQ(c.tag, seq[k]) << "completions of " << c.src << " -> " << dst << " out of posted order";
    const Sent* m = nullptr;
    for (auto it = sent.rbegin(); it != sent.rend(); ++it) {
      if (it->src == c.src && it->dst == dst && it->tag == c.tag) {
        m = &*it;
        break;
      }
    }
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(c.len, m->len);
    const std::vector<std::uint8_t> got = nics[dst]->memory().bytes(m->dst_addr, m->len);
    for (std::uint32_t i = 0; i < m->len; ++i) {
      if (got[i] != pattern(m->src, m->src_addr + i)) ++wrong;
    }
    bytes_checked += m->len;
    ++k;
  };

  const std::uint64_t cycles = 100000;
  std::uniform_real_distribution<double> u(0, 1);
  while (net.now() < cycles + 20000) {
    if (net.now() < cycles) {
      for (int i = 0; i < kNics; ++i) {
        if (u(rng) >= 0.004) continue;   // about one put per 250 cycles per NIC
        int dst = static_cast<int>(rng() % (kNics - 1));
        if (dst >= i) ++dst;
        const std::uint32_t len = 1 + static_cast<std::uint32_t>(rng() % 6000);
        const std::uint32_t src_addr = static_cast<std::uint32_t>(rng() % (kSrcBytes - len));
        std::uint32_t& cur = next_dst[{i, dst}];
        if (cur + len + 64 > kRegion) cur = 0;   // wrap (older messages completed long before)
        cur += static_cast<std::uint32_t>(rng() % 61);   // unaligned destinations
        const std::uint32_t dst_addr = kSrcBytes + static_cast<std::uint32_t>(i) * kRegion + cur;
        cur += len;
        sysc::NicCommand c;
        c.dst = static_cast<std::uint16_t>(dst);
        c.src_addr = src_addr;
        c.dst_addr = dst_addr;
        c.len = len;
        c.tag = tag[i]++;
        nics[i]->post(c);
        sent.push_back({i, dst, src_addr, dst_addr, len, c.tag});
        order[{i, dst}].push_back(c.tag);
      }
    }
    net.step();
    for (int i = 0; i < kNics; ++i) {
      sysc::RxCompletion rc;
      while (nics[i]->pop_rx(rc)) check_rx(i, rc);
      sysc::TxCompletion tc;
      while (nics[i]->pop_tx(tc)) ++tx_done;
    }
  }
  std::size_t rx_done = 0;
  for (const auto& [k, n] : completed) rx_done += n;
  EXPECT_GT(sent.size(), 1000u);
  EXPECT_EQ(rx_done, sent.size());
  EXPECT_EQ(tx_done, sent.size());
  EXPECT_EQ(wrong, 0u);
  for (int b = 0; b < net.blocks(); ++b) EXPECT_FALSE(net.block(b).error()) << net.block_name(b);
  std::cout << sent.size() << " puts, " << bytes_checked << " bytes checked through the switch\n";
}

}  // namespace
}  // namespace hxemu::test
