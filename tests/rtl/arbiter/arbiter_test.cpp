// hx_arb_rr, exhaustively: for every arbiter width the product builds, every pointer position and
// every request vector, the grant is the first request at or after the pointer (wrapping), one-hot,
// with its index and "any" flag; the pointer does not move without accept_i and moves to one past
// the grant with it. The arbiter's own assertions are compiled into these models
// (-DHX_ASSERT_ARBITER, CMakeLists.txt) and must stay silent; the test's guard
// (tests/rtl/assertions/rtl_assertion_guard.cpp) fails it if one fires.
#include <gtest/gtest.h>

#include <cstdint>

#include "Vhx_arb_rr_n12.h"
#include "Vhx_arb_rr_n16.h"
#include "Vhx_arb_rr_n2.h"
#include "Vhx_arb_rr_n3.h"
#include "Vhx_arb_rr_n4.h"
#include "Vhx_arb_rr_n5.h"
#include "Vhx_arb_rr_n6.h"
#include "Vhx_arb_rr_n8.h"
#include "sysc/blocks/clock_edge.h"
#include "sysc/blocks/verilated_context.h"

namespace {

// The reference: the first requester at or after ptr, wrapping around; -1 when none asks.
int first_at_or_after(std::uint32_t req, int ptr, int n) {
  for (int k = 0; k < n; ++k) {
    const int i = (ptr + k) % n;
    if (req >> i & 1u) return i;
  }
  return -1;
}

// Moves the pointer from anywhere to p: a lone request at p - 1, accepted.
template <class M>
void set_pointer(M& m, int p, int n) {
  m.req_i = 1u << ((p + n - 1) % n);
  m.accept_i = 1;
  hxemu::sysc::clock_edge_portable(m);
}

// Counts of what was checked, so the test can assert it covered every case.
struct Coverage {
  std::uint64_t grants = 0;
  std::uint64_t advances = 0;
};

// void: gtest's ASSERT_* return from the function on the first mismatch.
template <class M>
void check_exhaustively(int n, Coverage& cov) {
  hxemu::sysc::verilated_context();   // the models' context (assertions on)
  M m;
  m.clk_i = 0;
  m.rst_i = 1;
  m.req_i = 0;
  m.accept_i = 0;
  hxemu::sysc::clock_edge_portable(m);
  hxemu::sysc::clock_edge_portable(m);
  m.rst_i = 0;
  const std::uint32_t all = (n == 32) ? ~0u : ((1u << n) - 1u);
  for (int ptr = 0; ptr < n; ++ptr) {
    for (std::uint32_t req = 0; req <= all; ++req) {
      set_pointer(m, ptr, n);
      // Without accept the pointer stays: the same grant on two edges in a row.
      m.req_i = req;
      m.accept_i = 0;
      for (int edge = 0; edge < 2; ++edge) {
        m.eval();
        const int want = first_at_or_after(req, ptr, n);
        const std::uint32_t want_grant = want >= 0 ? (1u << want) : 0u;
        const bool ok = (m.any_o != 0) == (want >= 0) &&
                        static_cast<std::uint32_t>(m.grant_o) == want_grant &&
                        (want < 0 || static_cast<int>(m.grant_idx_o) == want);
        ASSERT_TRUE(ok) << "N=" << n << " ptr=" << ptr << " req=" << req << " edge=" << edge
                        << ": grant " << static_cast<std::uint32_t>(m.grant_o) << " index "
                        << static_cast<int>(m.grant_idx_o) << " any " << static_cast<int>(m.any_o)
                        << ", want grant " << want_grant << " (index " << want << ")";
        ++cov.grants;
        hxemu::sysc::clock_edge_portable(m);
      }
      // With accept the pointer moves to one past the grant: with every input asking, that input
      // wins next.
      const int g = first_at_or_after(req, ptr, n);
      m.accept_i = 1;
      hxemu::sysc::clock_edge_portable(m);
      m.req_i = all;
      m.accept_i = 0;
      m.eval();
      const int next = g >= 0 ? (g + 1) % n : ptr;
      ASSERT_EQ(static_cast<int>(m.grant_idx_o), next)
          << "N=" << n << " ptr=" << ptr << " req=" << req << " accepted";
      ++cov.advances;
    }
  }
  m.final();
}

template <class M>
void run(int n) {
  Coverage cov;
  check_exhaustively<M>(n, cov);
  const std::uint64_t cases = static_cast<std::uint64_t>(n) << n;   // pointers x request vectors
  EXPECT_EQ(cov.grants, 2 * cases);
  EXPECT_EQ(cov.advances, cases);
  EXPECT_EQ(hxemu::sysc::rtl_assertion_count(), 0u);
}

TEST(ArbiterExhaustive, Width2) { run<Vhx_arb_rr_n2>(2); }
TEST(ArbiterExhaustive, Width3) { run<Vhx_arb_rr_n3>(3); }
TEST(ArbiterExhaustive, Width4) { run<Vhx_arb_rr_n4>(4); }
TEST(ArbiterExhaustive, Width5) { run<Vhx_arb_rr_n5>(5); }
TEST(ArbiterExhaustive, Width6) { run<Vhx_arb_rr_n6>(6); }
TEST(ArbiterExhaustive, Width8) { run<Vhx_arb_rr_n8>(8); }
TEST(ArbiterExhaustive, Width12) { run<Vhx_arb_rr_n12>(12); }
TEST(ArbiterExhaustive, Width16) { run<Vhx_arb_rr_n16>(16); }

}  // namespace
