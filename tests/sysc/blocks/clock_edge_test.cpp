// sysc/blocks/clock_edge.h: the one-eval clock edge (a Verilator internal written back) and the
// direct edge (the model's two region functions called by name, a board router's input logic
// skipped in cycles without a flit in) behave exactly like the portable two-eval edge. Two copies
// of the same verilated board router get the same legal traffic; one is clocked each way; every
// output must agree in every cycle.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "Vhx_board_router_l1_v2_w256.h"
#include "Vhx_board_router_l1_v2_w256___024root.h"
#include "sysc/blocks/clock_edge.h"
#include "sysc/blocks/link_ports.h"
#include "sysc/blocks/verilated_block.h"
#include "sysc/fabric/coord_word.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/vc_plan.h"

#if !defined(HX_PORTABLE_CLOCK)
// As the model registry declares it (cmake/HxVariants.cmake).
HX_DIRECT_EVAL(Vhx_board_router_l1_v2_w256, true)
#endif

namespace hxemu::sysc {
namespace {

using Model = Vhx_board_router_l1_v2_w256;
constexpr int kVcs = 2, kBits = 256, kPorts = kRouterPorts, kDepth = 8;

void set_up(Model& m) {
  m.mode_i = 0;
  m.pos_i = pack_coord({0, 0, 1, 1});    // row 1, column 1 of a 4x4 board: every port has a neighbour
  m.dims_i = pack_dims(1, 1, 4, 4);
  apply_vc_plan(m, make_vc_plan(kVcs, 1, kVcs, VcPolicy::kDynamic), kVcs);
  for (int p = 0; p < kPorts; ++p) set_bits(m.out_depth_i, p * 8, 8, kDepth);
  m.in_valid_i = 0;
  m.out_credit_valid_i = 0;
  m.rst_i = 1;
}

#if !defined(HX_PORTABLE_CLOCK)
// Two copies of the router, `a` clocked by edge_a and `b` by edge_b, fed the same legal traffic for
// 20,000 cycles; every output compared after every edge. `adaptive`: the route computers weigh
// credits (so their logic reads registers as well as the inputs). `quiet_spells`: every fourth
// stretch of 40 cycles sends no flit (so the direct edge skips the input logic, with the route
// computers' last values left from a head).
template <class EdgeA, class EdgeB>
void compare_edges(EdgeA edge_a, EdgeB edge_b, bool adaptive, bool quiet_spells) {
  Model a(verilated_context()), b(verilated_context());
  LinkPorts<Model> aio(a, kPorts, kVcs, kBits), bio(b, kPorts, kVcs, kBits);
  set_up(a);
  set_up(b);
  a.adaptive_i = adaptive ? 1 : 0;
  b.adaptive_i = adaptive ? 1 : 0;
  a.eval();   // the models' initial blocks (the direct edge does not run them)
  b.eval();
  for (int i = 0; i < 2; ++i) {
    edge_a(a);
    edge_b(b);
  }
  a.rst_i = 0;
  b.rst_i = 0;

  // Sources: per input port one packet at a time, within the router's 32 slots per VC (credits
  // counted from the router's credit outputs). Sinks: accept everything, return credits at once.
  std::mt19937 rng(7);
  std::array<std::array<int, kVcs>, kPorts> credits{};
  for (auto& c : credits) c.fill(kDepth);
  std::array<int, kPorts> left{}, vc_of{};
  std::array<std::uint32_t, kPorts> route{};
  std::array<bool, kPorts> first{};
  long delivered = 0, quiet_cycles = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    aio.clear_inputs();
    bio.clear_inputs();
    const bool quiet = quiet_spells && (cycle / 40) % 4 == 3;
    quiet_cycles += quiet;
    for (int p = 0; p < kPorts; ++p) {
      if (left[p] == 0 && rng() % 3 == 0) {
        left[p] = 1 + static_cast<int>(rng() % 6);
        vc_of[p] = static_cast<int>(rng() % kVcs);
        first[p] = true;
        // A destination that dimension-order routing reaches from input p without turning back
        // (the board is 4x4 and the router sits at row 1, column 1).
        int row = static_cast<int>(rng() % 4), col = static_cast<int>(rng() % 4);
        if (p == kPortW) col = 1 + col % 3;                  // travelling east
        if (p == kPortE) col = col % 2;                      // travelling west
        if (p == kPortN) col = 1, row = 1 + row % 3;         // travelling south
        if (p == kPortS) col = 1, row = row % 2;             // travelling north
        route[p] = pack_coord({0, 0, row, col});
      }
      if (!quiet && left[p] > 0 && credits[p][vc_of[p]] > 0) {
        Flit f;
        f.valid = true;
        f.vc = static_cast<std::uint8_t>(vc_of[p]);
        for (auto& w : f.data) w = static_cast<std::uint32_t>(rng());
        f.head = first[p];
        if (f.head) set_field(f, Field{32, 32}, route[p]);
        first[p] = false;
        --credits[p][vc_of[p]];
        --left[p];
        f.tail = left[p] == 0;
        aio.set_flit_in(p, f);
        bio.set_flit_in(p, f);
      }
      if (a.out_valid_o != 0 && aio.flit_out_valid(p)) {
        Flit out;
        aio.flit_out(p, out);
        aio.set_credit_in(p, Credit{true, out.vc});
        bio.set_credit_in(p, Credit{true, out.vc});
        ++delivered;
      }
      const Credit c = aio.credit_out(p);
      if (c.valid) ++credits[p][c.vc];
    }
    edge_a(a);
    edge_b(b);
    for (int p = 0; p < kPorts; ++p) {
      Flit fa, fb;
      ASSERT_EQ(aio.flit_out(p, fa), bio.flit_out(p, fb)) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(fa.data, fb.data) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(fa.vc, fb.vc);
      ASSERT_EQ(fa.head, fb.head);
      ASSERT_EQ(fa.tail, fb.tail);
      const Credit ca = aio.credit_out(p), cb = bio.credit_out(p);
      ASSERT_EQ(ca.valid, cb.valid) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(ca.vc, cb.vc);
    }
    ASSERT_EQ(a.idle_o, b.idle_o) << "cycle " << cycle;
    ASSERT_EQ(a.drained_o, b.drained_o) << "cycle " << cycle;
    ASSERT_EQ(a.stall_credit_o, b.stall_credit_o) << "cycle " << cycle;
    ASSERT_EQ(a.stall_sa_o, b.stall_sa_o) << "cycle " << cycle;
    ASSERT_EQ(a.error_o, b.error_o) << "cycle " << cycle;
  }
  EXPECT_EQ(a.error_o, 0);
  EXPECT_GT(delivered, 10000);   // the comparison covered real traffic, not an idle router
  if (quiet_spells) EXPECT_EQ(quiet_cycles, 5000);
}

TEST(ClockEdge, OneEvalEdgeMatchesTheTwoEvalEdgeEveryCycle) {
  compare_edges([](Model& m) { clock_edge_fast(m); }, [](Model& m) { clock_edge_portable(m); }, false,
                false);
}

TEST(ClockEdge, DirectEdgeMatchesTheTwoEvalEdgeEveryCycle) {
  static_assert(DirectEval<Model>::kInputsGated, "the router's input logic is skipped without a flit");
  compare_edges([](Model& m) { clock_edge_direct(m); }, [](Model& m) { clock_edge_portable(m); }, false,
                true);
}

TEST(ClockEdge, DirectEdgeMatchesTheTwoEvalEdgeUnderAdaptiveRouting) {
  compare_edges([](Model& m) { clock_edge_direct(m); }, [](Model& m) { clock_edge_portable(m); }, true,
                true);
}
#endif

}  // namespace
}  // namespace hxemu::sysc
