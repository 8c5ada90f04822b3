// Per-hop zero-load latency through a chain of real routers: routers x 2 cycles + the latency of
// every link between them, plus serialization for multi-flit packets.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sysc/blocks/board_router.h"
#include "sysc/fabric/link.h"

namespace hxemu::test {
namespace {

using sysc::Credit;
using sysc::Flit;

constexpr int E = 1, W = 3, L = 4;

// A 1 x n board: router i at column i, E of i wired to W of i + 1.
struct Chain {
  Chain(int n, int latency) {
    for (int i = 0; i < n; ++i) {
      routers.push_back(sysc::make_board_router(2, 256));
      sysc::RouterSetup s;
      s.local_col = i;
      s.board_rows = 1;
      s.board_cols = n;
      s.vc = sysc::make_vc_plan(2, 1, 2, sysc::VcPolicy::kDynamic);
      s.out_depth.fill(8);
      routers.back()->reset(s);
    }
    for (int i = 0; i + 1 < n; ++i) {
      east.emplace_back(latency);
      west.emplace_back(latency);
    }
  }

  // One cycle. `inject` goes onto router 0's local input; returns what router n-1 ejects.
  Flit step(const Flit* inject) {
    const int n = static_cast<int>(routers.size());
    for (int i = 0; i < n; ++i) {
      auto& r = *routers[i];
      r.clear_inputs();
      if (i == 0 && inject) r.set_flit_in(L, *inject);
      if (i > 0 && east[i - 1].has_flit(now)) r.set_flit_in(W, east[i - 1].take_flit(now));
      if (i + 1 < n && west[i].has_flit(now)) r.set_flit_in(E, west[i].take_flit(now));
      if (i + 1 < n && east[i].has_credit(now)) r.set_credit_in(E, east[i].take_credit(now));
      if (i > 0 && west[i - 1].has_credit(now)) r.set_credit_in(W, west[i - 1].take_credit(now));
      // The test's endpoint drains at once: return the local output's credits immediately.
      if (ejected_credit.valid) {
        if (i == n - 1) r.set_credit_in(L, ejected_credit);
      }
    }
    ejected_credit = Credit{};
    Flit out;
    for (int i = 0; i < n; ++i) {
      auto& r = *routers[i];
      r.tick();
      Flit f;
      if (i + 1 < n && r.flit_out(E, f)) east[i].send_flit(now, f);
      if (i > 0 && r.flit_out(W, f)) west[i - 1].send_flit(now, f);
      if (i > 0) {
        const Credit c = r.credit_out(W);
        if (c.valid) east[i - 1].send_credit(now, c);
      }
      if (i + 1 < n) {
        const Credit c = r.credit_out(E);
        if (c.valid) west[i].send_credit(now, c);
      }
      if (i == n - 1 && r.flit_out(L, f)) {
        out = f;
        ejected_credit = Credit{true, f.vc};
      }
    }
    ++now;
    return out;
  }

  std::vector<std::unique_ptr<sysc::BoardRouterBlock>> routers;
  std::vector<sysc::Link> east, west;
  Credit ejected_credit;
  std::uint64_t now = 0;
};

TEST(RouterChain, ZeroLoadLatencyPerHopIsTwoPlusLinkLatency) {
  for (int n : {2, 3, 5}) {
    for (int latency : {0, 1, 4}) {
      for (int flits : {1, 4}) {
        Chain chain(n, latency);
        const std::uint64_t t0 = chain.now;
        std::vector<std::uint64_t> out_cycles;
        for (int k = 0; k < 200 && static_cast<int>(out_cycles.size()) < flits; ++k) {
          Flit f;
          const bool send = k < flits;
          if (send) {
            f.valid = true;
            f.head = k == 0;
            f.tail = k == flits - 1;
            f.vc = 0;
            if (f.head) {
              sysc::set_field(f, sysc::hdr::kDstLocalRow, 0);
              sysc::set_field(f, sysc::hdr::kDstLocalCol, static_cast<std::uint64_t>(n - 1));
            }
            f.data[7] = 0xC0FFEE00u + static_cast<std::uint32_t>(k);
          }
          const std::uint64_t cycle = chain.now;
          const Flit out = chain.step(send ? &f : nullptr);
          if (out.valid) {
            EXPECT_EQ(out.data[7], 0xC0FFEE00u + out_cycles.size());
            out_cycles.push_back(cycle + 1);   // on the output the cycle after the edge
          }
        }
        ASSERT_EQ(static_cast<int>(out_cycles.size()), flits);
        // Head on router 0's input in cycle t0; on router n-1's local output n*2 + (n-1)*L later.
        const std::uint64_t expected = t0 + static_cast<std::uint64_t>(n * 2 + (n - 1) * latency);
        EXPECT_EQ(out_cycles.front(), expected) << n << " routers, link latency " << latency;
        EXPECT_EQ(out_cycles.back(), expected + static_cast<std::uint64_t>(flits - 1));
      }
    }
  }
}

}  // namespace
}  // namespace hxemu::test
