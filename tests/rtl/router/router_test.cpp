// Unit tests of the board router (rtl/router/hx_board_router.sv) driven directly from C++ through
// RouterBench. See testplan.md for the feature -> test map.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sysc/fabric/router_ports.h"
#include "tb/router_bench.h"

namespace hxemu::tb {
namespace {

// Port names as the tests read them (sysc/fabric/router_ports.h).
constexpr int N = sysc::kPortN, E = sysc::kPortE, S = sysc::kPortS, W = sysc::kPortW,
              L = sysc::kPortLocal;

void expect_clean(const RouterBench& b) {
  for (const auto& e : b.errors()) ADD_FAILURE() << e;
  EXPECT_FALSE(b.router_error());
}

// Heads leave in the order they were queued on each (input port, input VC).
void expect_fifo_per_input_vc(const RouterBench& b) {
  std::map<std::pair<int, int>, std::vector<std::pair<std::uint32_t, std::uint64_t>>> heads;
  for (const auto& a : b.arrivals()) {
    if (a.flit != 0) continue;
    const auto& p = b.packet(a.packet);
    heads[{p.in_port, p.in_vc}].push_back({a.packet, a.cycle});
  }
  for (auto& [key, v] : heads) {
    std::sort(v.begin(), v.end());
    for (std::size_t i = 1; i < v.size(); ++i) {
      EXPECT_LT(v[i - 1].second, v[i].second)
          << "input " << key.first << " VC " << key.second << ": packet " << v[i].first
          << " overtook packet " << v[i - 1].first;
    }
  }
}

class RouterVcs : public ::testing::TestWithParam<int> {};

TEST_P(RouterVcs, EveryInputReachesEveryLegalOutput) {
  RouterBenchConfig cfg;
  cfg.vcs = GetParam();
  RouterBench b(cfg);
  int sent = 0;
  for (int in = 0; in < 5; ++in) {
    for (int out : RouterBench::legal_outputs(in)) {
      for (int flits : {1, 4, 16}) {
        for (int vc = 0; vc < cfg.vcs; ++vc) {
          const auto [r, c] = b.dst_for(out);
          ASSERT_EQ(b.dor_port(r, c), out);
          b.send(in, vc, r, c, flits);
          ++sent;
          ASSERT_TRUE(b.drain(1000)) << "in " << in << " out " << out;
        }
      }
    }
  }
  EXPECT_EQ(b.packets_done(), static_cast<std::size_t>(sent));
  expect_clean(b);
  EXPECT_TRUE(b.all_credits_home());
  EXPECT_TRUE(b.router().drained());
}

INSTANTIATE_TEST_SUITE_P(Vcs, RouterVcs, ::testing::Values(2, 4, 8),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

// The documented pipeline: a flit on an input in cycle t is on the output in cycle t + 2; the
// flits of a packet follow back to back.
TEST(Router, ZeroLoadLatencyIsTwoCyclesPerRouter) {
  for (int latency : {0, 1, 3}) {
    RouterBenchConfig cfg;
    cfg.link_latency = latency;
    RouterBench b(cfg);
    for (int in = 0; in < 5; ++in) {
      for (int out : RouterBench::legal_outputs(in)) {
        for (int flits : {1, 5}) {
          const auto [r, c] = b.dst_for(out);
          const std::uint32_t id = b.send(in, 0, r, c, flits);
          ASSERT_TRUE(b.drain(1000));
          const std::uint64_t in_cycle = b.head_in_cycle().at(id);
          for (const auto& a : b.arrivals()) {
            if (a.packet != id) continue;
            EXPECT_EQ(a.cycle, in_cycle + 2 + static_cast<std::uint64_t>(a.flit))
                << "in " << in << " out " << out << " flit " << a.flit;
          }
        }
      }
    }
    expect_clean(b);
  }
}

// Two packets from different inputs to one output on different VCs share the link flit by flit,
// and each VC still carries one packet at a time, in order.
TEST(Router, WormholeContiguousPerVcWhileVcsInterleave) {
  RouterBenchConfig cfg;
  cfg.vcs = 2;
  RouterBench b(cfg);
  const auto [r, c] = b.dst_for(E);
  for (int i = 0; i < 4; ++i) {
    b.send(L, 0, r, c, 8);
    b.send(W, 1, r, c, 8);
  }
  ASSERT_TRUE(b.drain(2000));
  expect_clean(b);   // the receiver fails on any interleaving within a VC
  // The link interleaves: consecutive flits on port E alternate between packets mid-packet.
  int switches_mid_packet = 0;
  const Arrival* prev = nullptr;
  for (const auto& a : b.arrivals()) {
    if (a.port != E) continue;
    if (prev && prev->packet != a.packet && a.flit != 0) ++switches_mid_packet;
    prev = &a;
  }
  EXPECT_GT(switches_mid_packet, 10);
  // With both inputs busy the output runs at one flit per cycle.
  std::uint64_t first = ~0ull, last = 0;
  for (const auto& a : b.arrivals()) {
    first = std::min(first, a.cycle);
    last = std::max(last, a.cycle);
  }
  EXPECT_EQ(last - first + 1, 64u);
  expect_fifo_per_input_vc(b);
}

// A slow receiver with a 2-flit buffer: the router must never send without a credit, and every
// credit comes back once the traffic has drained.
TEST(Router, NeverSendsWithoutCreditAndReturnsEveryCredit) {
  RouterBenchConfig cfg;
  cfg.vcs = 2;
  cfg.out_depth = 2;
  cfg.in_depth = 4;
  cfg.link_latency = 2;
  RouterBench b(cfg);
  b.set_drain_probability(0.3);
  for (int i = 0; i < 40; ++i) {
    for (int in : {L, W, N, S}) {
      const int out = (in == L || in == W) ? E : L;
      const auto [r, c] = b.dst_for(out == E ? E : L);
      b.send(in, i % 2, r, c, 1 + i % 6);
    }
  }
  ASSERT_TRUE(b.drain(100000));
  expect_clean(b);
  EXPECT_TRUE(b.all_credits_home());
  EXPECT_TRUE(b.receivers_empty());
  EXPECT_TRUE(b.router().drained());
  expect_fifo_per_input_vc(b);
}

// Adaptive routing (rtl/route/hx_route_board.sv, rtl/router/hx_router_core.sv): a head bound
// south-east takes S instead of E when E is congested -- on arrival when E has fewer free credits
// by more than the margin (0.5: half of E's 2 VCs x 8 = 16 slots; 1 never diverts on arrival),
// and at the front of its VC when E has no free VC with a credit. While E flows, every head leaves
// through E. Then E is stalled and filled by packets from W (east only); the 20 packets from L to
// (2,2) that follow all go S; 6 more to (0,2) (east, then north) never turn north first
// (north-last) and wait for E. Released, all arrive once, intact. Deterministic mode never uses S.
TEST(Router, AdaptiveTakesTheYFirstPortWhenTheXPortIsCongested) {
  struct Case {
    bool adaptive;
    int margin_eighths;
  };
  for (const Case k : {Case{false, 8}, Case{true, 4}, Case{true, 8}}) {
    RouterBenchConfig cfg;
    cfg.vcs = 2;
    cfg.adaptive = k.adaptive;
    cfg.margin_eighths = k.margin_eighths;
    const std::string what = (k.adaptive ? "adaptive, margin " : "deterministic, margin ") +
                             std::to_string(k.margin_eighths) + "/8";
    RouterBench b(cfg);
    for (int i = 0; i < 10; ++i) b.send(L, i % 2, 2, 2, 4);  // (2,2): E then S, or S then E
    for (int i = 0; i < 500; ++i) b.step();
    EXPECT_EQ(b.flits_out(E), 10u * 4u) << what << ": E flows, no head diverts";
    EXPECT_EQ(b.flits_out(S), 0u) << what;
    b.set_stalled(E, true);
    for (int i = 0; i < 8; ++i) b.send(W, i % 2, 1, 2, 4);   // (1,2): east only, fills E
    for (int i = 0; i < 200; ++i) b.step();
    const std::uint64_t e_full = 10u * 4u + static_cast<std::uint64_t>(cfg.vcs * cfg.out_depth);
    EXPECT_EQ(b.flits_out(E), e_full) << what;
    for (int i = 0; i < 20; ++i) b.send(L, i % 2, 2, 2, 4);
    for (int i = 0; i < 6; ++i) b.send(L, i % 2, 0, 2, 4);   // (0,2): E then N
    for (int i = 0; i < 2000; ++i) b.step();
    EXPECT_EQ(b.flits_out(E), e_full) << what;
    EXPECT_EQ(b.flits_out(N), 0u) << what << ": north-last, no north move while east remains";
    EXPECT_EQ(b.flits_out(S), k.adaptive ? 20u * 4u : 0u) << what;
    b.set_stalled(E, false);
    ASSERT_TRUE(b.drain(20000)) << what;
    EXPECT_EQ(b.packets_done(), 44u) << what;
    expect_clean(b);
  }
}

// Adaptive routing, choice on arrival: the route computer weighs free credits as fractions of each
// port's buffering in the head's class. E is stalled after one 6-flit packet on VC 0, so it has 2 + 8
// of 16 slots free (0.625) and a free VC with credits; S has all 16 (1.0). A margin of 0.25 diverts
// the next head to S on arrival (1.0 > 0.625 + 0.25); margins of 0.5 and 1 keep it on E, and the
// front of the VC does not divert it either, because E has a free VC with a credit.
TEST(Router, AdaptiveChoiceOnArrivalWeighsFreeCreditsAgainstTheMargin) {
  for (int margin : {2, 4, 8}) {
    RouterBenchConfig cfg;
    cfg.vcs = 2;
    cfg.adaptive = true;
    cfg.margin_eighths = margin;
    RouterBench b(cfg);
    b.set_stalled(E, true);
    b.send(W, 0, 1, 2, 6);   // (1,2): east only
    for (int i = 0; i < 200; ++i) b.step();
    ASSERT_EQ(b.flits_out(E), 6u);
    b.send(L, 0, 2, 2, 4);   // (2,2): E then S, or S then E
    for (int i = 0; i < 200; ++i) b.step();
    EXPECT_EQ(b.flits_out(S), margin == 2 ? 4u : 0u) << "margin " << margin << "/8";
    EXPECT_EQ(b.flits_out(E), margin == 2 ? 6u : 10u) << "margin " << margin << "/8";
    b.set_stalled(E, false);
    ASSERT_TRUE(b.drain(20000));
    EXPECT_EQ(b.packets_done(), 2u);
    expect_clean(b);
  }
}

// An output stalled for a long time, then released: the router holds at most what the receiver's
// buffers allow, and after release everything arrives once, in order, intact.
TEST(Router, BackPressureStallThenRelease) {
  RouterBenchConfig cfg;
  cfg.vcs = 2;
  RouterBench b(cfg);
  b.set_stalled(E, true);
  for (int i = 0; i < 30; ++i) {
    b.send(i % 2 ? W : L, i % 2, 1, 2, 1 + i % 8);
    b.send(i % 2 ? N : S, 0, 1, 1, 3);   // traffic to the local port keeps flowing meanwhile
  }
  for (int i = 0; i < 2000; ++i) b.step();
  EXPECT_LE(b.flits_out(E), static_cast<std::uint64_t>(cfg.vcs * cfg.out_depth));
  EXPECT_EQ(b.flits_out(L), 30u * 3u);
  b.set_stalled(E, false);
  ASSERT_TRUE(b.drain(20000));
  EXPECT_EQ(b.packets_done(), 60u);
  expect_clean(b);
  expect_fifo_per_input_vc(b);
}

// Every input keeps a packet queued for the local output: round robin gives each the same share,
// and the contended output moves one flit per cycle.
TEST(Router, FairShareOfOneOutputUnderFullContention) {
  RouterBenchConfig cfg;
  cfg.vcs = 2;
  RouterBench b(cfg);
  const auto [r, c] = b.dst_for(L);
  const int cycles = 10000;
  for (int in = 0; in < 5; ++in) {
    for (int i = 0; i < cycles / 4 + 100; ++i) b.send(in, i % 2, r, c, 4);
  }
  const std::uint64_t start = 500;
  for (std::uint64_t i = 0; i < start + cycles; ++i) b.step();
  std::vector<int> share(5, 0);
  int total = 0;
  for (const auto& a : b.arrivals()) {
    if (a.cycle < start || a.cycle >= start + cycles) continue;
    ++share[b.packet(a.packet).in_port];
    ++total;
  }
  const double per_cycle = static_cast<double>(total) / cycles;
  RecordProperty("contended_output_flits_per_cycle", std::to_string(per_cycle));
  std::cout << "contended output: " << per_cycle << " flits/cycle over " << cycles << " cycles\n";
  EXPECT_GE(per_cycle, 0.99);
  for (int in = 0; in < 5; ++in) {
    const double frac = static_cast<double>(share[in]) / total;
    std::cout << "  input " << sysc::port_name(in) << ": " << share[in] << " flits ("
              << frac * 100 << "%)\n";
    EXPECT_NEAR(frac, 0.2, 0.2 * 0.05) << "input " << in;
  }
  expect_clean(b);
}

// 10^5 cycles of random packets on every input (legal destinations, random VCs and lengths) with
// receivers that drain at random and stall for random stretches.
TEST_P(RouterVcs, RandomStressWithRandomStalls) {
  RouterBenchConfig cfg;
  cfg.vcs = GetParam();
  cfg.seed = 1234 + cfg.vcs;
  RouterBench b(cfg);
  std::mt19937_64 rng(cfg.seed);
  std::uniform_int_distribution<int> len(1, 8);
  std::uniform_int_distribution<int> vc(0, cfg.vcs - 1);
  std::uniform_real_distribution<double> u(0, 1);
  b.set_drain_probability(0.8);
  std::array<int, 5> stall_left{};
  for (int cycle = 0; cycle < 100000; ++cycle) {
    for (int in = 0; in < 5; ++in) {
      if (u(rng) < 0.12) {
        const auto outs = RouterBench::legal_outputs(in);
        const int out = outs[std::uniform_int_distribution<int>(0, outs.size() - 1)(rng)];
        const auto [r, c] = b.dst_for(out);
        b.send(in, vc(rng), r, c, len(rng));
      }
      if (stall_left[in] > 0) {
        if (--stall_left[in] == 0) b.set_stalled(in, false);
      } else if (u(rng) < 0.002) {
        stall_left[in] = 1 + static_cast<int>(u(rng) * 300);
        b.set_stalled(in, true);
      }
    }
    b.step();
    if (!b.errors().empty()) break;
  }
  for (int p = 0; p < 5; ++p) b.set_stalled(p, false);
  ASSERT_TRUE(b.drain(2000000));
  EXPECT_EQ(b.packets_done(), b.packets_sent());
  expect_clean(b);
  expect_fifo_per_input_vc(b);
  EXPECT_TRUE(b.all_credits_home());
  EXPECT_TRUE(b.router().drained());
  std::cout << "stress: " << b.packets_sent() << " packets, " << b.arrivals().size()
            << " flits in " << b.now() << " cycles\n";
}

// A failed link behind E (port_down_i). Under deterministic routing every packet for (2,2) still
// goes E: a dead link returns no credits, so the port counts its VCs as always having one and the
// flits are lost there (the bench drops them) instead of piling up. Under adaptive routing a head
// whose X-first port is down takes its Y-first port S at the front of its VC: nothing goes E.
TEST(Router, AFailedPortIsAvoidedByAdaptiveHeadsAndTakesTheRestWithoutCredits) {
  for (bool adaptive : {false, true}) {
    RouterBenchConfig cfg;
    cfg.vcs = 2;
    cfg.adaptive = adaptive;
    RouterBench b(cfg);
    b.set_port_down(E);
    b.step();   // the router registers port_down_i at this edge
    for (int i = 0; i < 12; ++i) b.send(L, i % 2, 2, 2, 4);
    ASSERT_TRUE(b.drain(20000)) << (adaptive ? "adaptive" : "deterministic");
    EXPECT_EQ(b.packets_done(), 12u);
    EXPECT_EQ(b.flits_out(E), adaptive ? 0u : 48u);
    EXPECT_EQ(b.flits_out(S), adaptive ? 48u : 0u);
    expect_clean(b);
  }
}

// Packets caught on a port when its link fails do not hold their VCs: E is stalled with two
// 20-flit packets from W waiting on it (east only), then its link fails; the rest of both packets
// leaves at once (no credits needed), the router drains and every packet's 20 flits left E.
TEST(Router, PacketsCaughtOnAFailedPortDrainIntoIt) {
  RouterBenchConfig cfg;
  cfg.vcs = 2;
  RouterBench b(cfg);
  b.set_stalled(E, true);
  b.send(W, 0, 1, 2, 20);
  b.send(W, 1, 1, 2, 20);
  for (int i = 0; i < 300; ++i) b.step();
  EXPECT_EQ(b.flits_out(E), static_cast<std::uint64_t>(cfg.vcs * cfg.out_depth));
  b.set_port_down(E);
  ASSERT_TRUE(b.drain(2000));
  EXPECT_EQ(b.flits_out(E), 40u);
  EXPECT_EQ(b.packets_done(), 2u);
  expect_clean(b);
}

}  // namespace
}  // namespace hxemu::tb
