// The NIC never stops draining the network because of its own state (rtl/nic/hx_nic_rx.sv: a
// landing record per packet, counted on the host): 63 -> 1 fan-in of multi-packet messages on
// hx2mesh-64, every sender starting in the same cycle, all into one NIC; and an all-to-all with
// every message posted at once. Both through the real stack (routers, switches, NICs, hosts), with
// every received byte checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

#include "sw/collectives/session.h"
#include "sysc/host/nic_node.h"
#include "tests/util/system_test_util.h"

namespace hxemu::test {
namespace {

std::uint8_t pattern(int node, std::uint32_t i) {
  return static_cast<std::uint8_t>((node * 131 + i * 7 + (i >> 8)) & 0xff);
}

// The most messages any NIC of the session had in reassembly at once, and where.
std::size_t most_in_reassembly(sysc::System& sys, const sysc::NicNode** where = nullptr) {
  std::size_t most = 0;
  for (int b = 0; b < sys.net().blocks(); ++b) {
    const auto* nic = dynamic_cast<const sysc::NicNode*>(&sys.net().block(b));
    if (nic == nullptr || nic->assembler().most_in_reassembly() <= most) continue;
    most = nic->assembler().most_in_reassembly();
    if (where != nullptr) *where = nic;
  }
  return most;
}

TEST(NicFanIn, SixtyThreeToOneMultiPacketMessagesStartingTogether) {
  constexpr int kNodes = 64;
  constexpr std::uint32_t kLen = 16 * 1024;   // 35 packets of up to 480 bytes (16-flit packets)
  sw::SessionConfig sc;
  sc.max_bytes = 1 << 20;
  sw::CollectiveSession s(shipped("hx2mesh-64"), sc);
  ASSERT_EQ(s.system().nodes(), kNodes);
  const sw::BufferLayout L = sw::BufferLayout::for_bytes(sc.max_bytes);
  std::vector<std::uint8_t> buf(kLen);
  for (int n = 1; n < kNodes; ++n) {
    for (std::uint32_t i = 0; i < kLen; ++i) buf[i] = pattern(n, i);
    s.memory(n).write(L.data, buf.data(), kLen);
  }
  // Every sender's put has no dependency, so every host posts it in the program's first cycle
  // (the common start); all go to node 0 on rail 0: one NIC receives 63 messages at once.
  sw::ScheduleBuilder b(kNodes, L);
  for (int src = 1; src < kNodes; ++src) {
    b.send(0, src, 0, L.data, L.scratch + static_cast<std::uint32_t>(src - 1) * kLen, kLen);
  }
  std::vector<std::string> errors;
  const auto finish = s.execute(b, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  for (int src = 1; src < kNodes; ++src) {
    s.memory(0).read(L.scratch + static_cast<std::uint32_t>(src - 1) * kLen, buf.data(), kLen);
    std::uint32_t wrong = 0;
    for (std::uint32_t i = 0; i < kLen; ++i) wrong += buf[i] != pattern(src, i);
    ASSERT_EQ(wrong, 0u) << "bytes from node " << src;
  }
  EXPECT_FALSE(s.system().any_error());
  // Far more messages were partly received at once than a 32-entry message table in the NIC (the
  // design before) could hold -- which deadlocked this network.
  const sysc::NicNode* at = nullptr;
  const std::size_t most = most_in_reassembly(s.system(), &at);
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->node(), 0);
  EXPECT_EQ(at->rail(), 0);
  EXPECT_GT(most, 32u);
  // One ejection link drains 63 x 16 KiB: at least that many payload bytes / 32 per cycle.
  const std::uint64_t done = *std::max_element(finish.begin(), finish.end());
  EXPECT_GE(done, 63u * kLen / 32);
  std::cout << "63 -> 1 fan-in of 16 KiB messages on hx2mesh-64: done in " << done << " cycles ("
            << 100.0 * (63.0 * kLen / 32) / static_cast<double>(done)
            << "% of the ejection link's payload rate), " << most
            << " messages in reassembly at once at node 0\n";
}

TEST(NicFanIn, AllToAllWithEveryMessagePostedAtOnce) {
  sw::SessionConfig sc;
  sc.max_bytes = 1 << 20;
  sw::CollectiveSession s(shipped("hx2mesh-64"), sc);
  const auto r = s.run(sw::CollectiveOp::kAlltoall, "all-at-once", 1 << 20);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_GT(r.checked, 0u);
  const std::size_t most = most_in_reassembly(s.system());
  EXPECT_GT(most, 1u);
  std::cout << "alltoall 1 MiB all-at-once on hx2mesh-64: " << r.cycles << " cycles, busbw "
            << r.busbw << " GB/s, " << 100 * r.bound_fraction << "% of its channel-load bound; up to "
            << most << " messages in reassembly at one NIC\n";
}

// The all-to-all with the most fan-in there is: every rank posts all its messages at once, in rank
// order (everyone sends to rank 0 first, then rank 1, ...), 16 KiB per pair in four 4 KiB parts,
// one per rail (9 packets each). The shipped alltoall staggers destinations for speed (rank r starts
// with r + 1, measured 2x faster); this one shows the NIC does not need it to stay live.
TEST(NicFanIn, AllToAllInRankOrderEveryMessageAtOnce) {
  constexpr int kNodes = 64, kRails = 4;
  constexpr std::uint32_t kPair = 16 * 1024, kPart = kPair / kRails;
  sw::SessionConfig sc;
  sc.max_bytes = 1 << 20;
  sw::CollectiveSession s(shipped("hx2mesh-64"), sc);
  const sw::BufferLayout L = sw::BufferLayout::for_bytes(sc.max_bytes);
  std::vector<std::uint8_t> buf(kNodes * kPair);
  for (int n = 0; n < kNodes; ++n) {
    for (std::uint32_t i = 0; i < buf.size(); ++i) buf[i] = pattern(n, i);
    s.memory(n).write(L.data, buf.data(), buf.size());
  }
  sw::ScheduleBuilder b(kNodes, L);
  for (int src = 0; src < kNodes; ++src) {
    for (int dst = 0; dst < kNodes; ++dst) {
      if (dst == src) continue;
      for (int k = 0; k < kRails; ++k) {
        const std::uint32_t off = static_cast<std::uint32_t>(dst) * kPair + static_cast<std::uint32_t>(k) * kPart;
        b.send(k, src, dst, L.data + off,
               L.scratch + static_cast<std::uint32_t>(src) * kPair + static_cast<std::uint32_t>(k) * kPart, kPart);
      }
    }
  }
  std::vector<std::string> errors;
  const auto finish = s.execute(b, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  std::vector<std::uint8_t> got(kPair);
  for (int dst = 0; dst < kNodes; ++dst) {
    for (int src = 0; src < kNodes; ++src) {
      if (src == dst) continue;
      s.memory(dst).read(L.scratch + static_cast<std::uint32_t>(src) * kPair, got.data(), kPair);
      std::uint32_t wrong = 0;
      for (std::uint32_t i = 0; i < kPair; ++i) {
        wrong += got[i] != pattern(src, static_cast<std::uint32_t>(dst) * kPair + i);
      }
      ASSERT_EQ(wrong, 0u) << src << " -> " << dst;
    }
  }
  EXPECT_FALSE(s.system().any_error());
  const std::uint64_t done = *std::max_element(finish.begin(), finish.end());
  std::cout << "alltoall 1 MiB in rank order, every message posted at once, on hx2mesh-64: " << done
            << " cycles; up to " << most_in_reassembly(s.system()) << " messages in reassembly at one NIC\n";
}

}  // namespace
}  // namespace hxemu::test
