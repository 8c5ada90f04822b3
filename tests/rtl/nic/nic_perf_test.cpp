// NIC performance figures, asserted against the pipeline arithmetic:
//   - injection rate of a 1 MiB put (flits/cycle on the injection link; payload bytes/cycle);
//   - time from the first DMA read to the remote completion of a 4 KiB put;
//   - zero-load latency of small puts.
// Pipeline (aligned source and destination, credits and memory always ready; M = host-memory read
// latency, L = link latency as in sysc::Link):
//   command accepted in cycle c; it enters a message slot in c+1, its first packet is cut in
//   c+2; first DMA read accepted in c+4; first head on the link in c+5;
//   first body flit on the link in c+6+M, then one flit per cycle (a head between packets);
//   the remote host sees the message complete 4+L cycles after the last body flit left the
//   source's output register (buffer, drain, DMA write queue, write accepted, landing record in
//   the landing queue, popped by the host, which completes the message in the same cycle).
// So for F body flits in P packets: first read -> remote completion = M + L + F + P + 3 cycles,
// command -> remote completion = M + L + F + P + 7.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>

#include "nic_bench.h"

namespace hxemu::nictest {
namespace {

constexpr std::uint32_t kDst = 2u << 20;

struct Measured {
  std::uint64_t posted, first_read, rxc, first_flit, last_flit, flits;
  double nic_cycles_per_second;   // emulation speed: NIC models x cycles / wall seconds
};

Measured one_put(std::uint32_t len, int mem_latency, int link_latency, std::uint32_t src = 0,
                 std::uint32_t dst = kDst) {
  World w;
  const std::size_t mem = kDst + len + 4096;
  NicNode& a = w.add_node(2, NicSetup{0, 16, 0x3, 32}, mem, mem_latency);
  NicNode& b = w.add_node(2, NicSetup{1, 16, 0x3, 32}, mem, mem_latency);
  w.connect_back_to_back(a, b, link_latency);
  for (int i = 0; i < 10; ++i) w.step();
  w.put(a, NicCommand{1, 0, src, dst, len, 1});
  const std::uint64_t c0 = w.now;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(w.run_until([&] { return w.all_done(); }, 10 * len + 10000));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string why;
  EXPECT_TRUE(w.memories_match(why)) << why;
  EXPECT_FALSE(a.nic().error() || b.nic().error());
  return {a.posted.at(0).cycle, a.mem().first_read_cycle(), b.rxcs.at(0).cycle,
          a.first_flit_cycle,   a.last_flit_cycle,          a.flits_sent,
          2.0 * static_cast<double>(w.now - c0) / secs};
}

TEST(NicPerf, InjectionRateOf1MiBPut) {
  constexpr std::uint32_t kLen = 1u << 20;
  constexpr int kM = 20;
  const Measured m = one_put(kLen, kM, 1);
  const PutCost c = put_cost(0, kDst, kLen, 16);
  ASSERT_EQ(m.flits, static_cast<std::uint64_t>(c.flits));   // 2185 packets, 34953 flits
  const std::uint64_t span = m.last_flit - m.first_flit + 1;
  // One flit per cycle from the first body flit on; the only gap is the first read's latency
  // between the first head and the first body flit.
  EXPECT_EQ(span, m.flits + kM);
  const double rate = static_cast<double>(m.flits) / span;
  const double payload = static_cast<double>(kLen) / span;   // bytes per cycle
  EXPECT_GT(rate, 0.99);
  std::cout << "[ perf     ] 1 MiB put, read latency " << kM << ": " << m.flits << " flits ("
            << c.packets << " packets of <= 16) in " << span << " cycles = " << rate
            << " flits/cycle; payload " << payload << " B/cycle = " << payload / kB
            << " of the link = " << payload * 8 * 1.5625 << " Gb/s at 1.5625 GHz\n"
            << "[ perf     ] emulation speed (2 busy NICs with host memories, plain C++ harness): "
            << m.nic_cycles_per_second / 1e6 << " M NIC-cycles/s\n";
  RecordProperty("inject_flits_per_cycle", std::to_string(rate));
  RecordProperty("payload_bytes_per_cycle", std::to_string(payload));
}

TEST(NicPerf, FirstDmaReadToRemoteCompletionOf4KiBPut) {
  constexpr std::uint32_t kLen = 4096;
  const PutCost c = put_cost(0, kDst, kLen, 16);   // 9 packets, 128 body flits
  const int body = c.flits - c.packets;
  for (auto [mem_lat, link_lat] : {std::pair<int, int>{10, 1}, {1, 1}, {20, 4}, {5, 30}}) {
    const Measured m = one_put(kLen, mem_lat, link_lat);
    const std::uint64_t t = m.rxc - m.first_read;
    EXPECT_EQ(t, static_cast<std::uint64_t>(mem_lat + link_lat + body + c.packets + 3))
        << "M " << mem_lat << " L " << link_lat;
    EXPECT_EQ(m.first_read - m.posted, 4u);
    std::cout << "[ perf     ] 4 KiB put, read latency " << mem_lat << ", link latency "
              << link_lat << ": first DMA read -> remote completion " << t << " cycles ("
              << m.rxc - m.posted << " from the command)\n";
    if (mem_lat == 10 && link_lat == 1) RecordProperty("first_read_to_rxc_4KiB", static_cast<int>(t));
  }
}

TEST(NicPerf, ZeroLoadLatencyOfSmallPuts) {
  for (std::uint32_t len : {1u, 32u, 480u}) {
    for (auto [mem_lat, link_lat] : {std::pair<int, int>{1, 1}, {7, 3}}) {
      const Measured m = one_put(len, mem_lat, link_lat);
      const PutCost c = put_cost(0, kDst, len, 16);
      EXPECT_EQ(m.rxc - m.posted,
                static_cast<std::uint64_t>(mem_lat + link_lat + (c.flits - c.packets) + c.packets + 7))
          << "len " << len << " M " << mem_lat << " L " << link_lat;
    }
  }
  // Unaligned source: the first body flit needs two source words (+1 cycle); unaligned
  // destination: the trailing partial word is one more write (+1 cycle).
  const Measured aligned = one_put(100, 4, 1);
  const Measured src_off = one_put(100, 4, 1, 3, kDst);
  EXPECT_EQ(src_off.rxc - src_off.posted, aligned.rxc - aligned.posted + 1);
  const Measured dst_off = one_put(100, 4, 1, 0, kDst + 30);   // 30 + 100 > 4 words: spills
  EXPECT_EQ(dst_off.rxc - dst_off.posted, aligned.rxc - aligned.posted + 1);
  const Measured dst_fit = one_put(100, 4, 1, 0, kDst + 5);    // 5 + 100 <= 4 words
  EXPECT_EQ(dst_fit.rxc - dst_fit.posted, aligned.rxc - aligned.posted);
}

}  // namespace
}  // namespace hxemu::nictest
