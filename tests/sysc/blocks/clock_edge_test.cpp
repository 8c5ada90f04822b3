// sysc/blocks/clock_edge.h: the one-eval clock edge (a Verilator internal written back) behaves
// exactly like the portable two-eval edge. Two copies of the same verilated board router get the
// same legal traffic; one is clocked each way; every output must agree in every cycle.
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
TEST(ClockEdge, OneEvalEdgeMatchesTheTwoEvalEdgeEveryCycle) {
  Model fast(verilated_context()), portable(verilated_context());
  LinkPorts<Model> fio(fast, kPorts, kVcs, kBits), pio(portable, kPorts, kVcs, kBits);
  set_up(fast);
  set_up(portable);
  for (int i = 0; i < 2; ++i) {
    clock_edge_fast(fast);
    clock_edge_portable(portable);
  }
  fast.rst_i = 0;
  portable.rst_i = 0;

  // Sources: per input port one packet at a time, within the router's 32 slots per VC (credits
  // counted from the router's credit outputs). Sinks: accept everything, return credits at once.
  std::mt19937 rng(7);
  std::array<std::array<int, kVcs>, kPorts> credits{};
  for (auto& c : credits) c.fill(kDepth);
  std::array<int, kPorts> left{}, vc_of{};
  std::array<std::uint32_t, kPorts> route{};
  std::array<bool, kPorts> first{};
  long delivered = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    fio.clear_inputs();
    pio.clear_inputs();
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
      if (left[p] > 0 && credits[p][vc_of[p]] > 0) {
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
        fio.set_flit_in(p, f);
        pio.set_flit_in(p, f);
      }
      if (fast.out_valid_o != 0 && fio.flit_out_valid(p)) {
        Flit out;
        fio.flit_out(p, out);
        fio.set_credit_in(p, Credit{true, out.vc});
        pio.set_credit_in(p, Credit{true, out.vc});
        ++delivered;
      }
      const Credit c = fio.credit_out(p);
      if (c.valid) ++credits[p][c.vc];
    }
    clock_edge_fast(fast);
    clock_edge_portable(portable);
    for (int p = 0; p < kPorts; ++p) {
      Flit a, b;
      ASSERT_EQ(fio.flit_out(p, a), pio.flit_out(p, b)) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(a.data, b.data) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(a.vc, b.vc);
      ASSERT_EQ(a.head, b.head);
      ASSERT_EQ(a.tail, b.tail);
      const Credit ca = fio.credit_out(p), cb = pio.credit_out(p);
      ASSERT_EQ(ca.valid, cb.valid) << "cycle " << cycle << " port " << p;
      ASSERT_EQ(ca.vc, cb.vc);
    }
    ASSERT_EQ(fast.idle_o, portable.idle_o) << "cycle " << cycle;
    ASSERT_EQ(fast.error_o, portable.error_o) << "cycle " << cycle;
  }
  EXPECT_EQ(fast.error_o, 0);
  EXPECT_GT(delivered, 10000);   // the comparison covered real traffic, not an idle router
}
#endif

}  // namespace
}  // namespace hxemu::sysc
