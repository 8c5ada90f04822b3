// One rising clock edge of a verilated model: the only place hxemu touches Verilator internals.
//
// Verilator detects a posedge by comparing clk_i with the value it saw at the previous eval(), kept
// in a generated member of the model's root class. The portable way to show it the clock low between
// two rises is a second eval() with clk_i = 0, which re-runs all input-driven logic for nothing (no
// hxemu block has falling-edge logic): 17-20% of wall time. The fast way writes that member
// (Verilator 5.006 names it __Vtrigrprev__TOP__clk_i) back to 0 instead.
//
// The fast way is verified for Verilator 5.006 only (tests/sysc/blocks/clock_edge_test.cpp steps a
// router both ways and compares every output, every cycle). With any other Verilator the build stops
// here with a message, so a changed internal can never silently change results; configuring with
// -DHX_PORTABLE_CLOCK=ON takes the portable way on any version.
#pragma once

#include <type_traits>
#include <utility>

#include "verilated.h"
#include "sysc/blocks/port_bits.h"

namespace hxemu::sysc {

// Two evals: correct on every Verilator version.
template <class M>
void clock_edge_portable(M& m) {
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.eval();
}

#if !defined(HX_PORTABLE_CLOCK)
#if !defined(VERILATOR_VERSION_INTEGER) || VERILATOR_VERSION_INTEGER != 5006000
#error "hxemu: sysc/blocks/clock_edge.h skips the falling-edge eval through a Verilator 5.006 internal (__Vtrigrprev__TOP__clk_i), and this is another Verilator version. Configure with -DHX_PORTABLE_CLOCK=ON (about 20% slower), or check that internal for this version and extend the test in tests/sysc/blocks/clock_edge_test.cpp."
#endif

template <class M, class = void>
struct HasClockTrigger : std::false_type {};
template <class M>
struct HasClockTrigger<M, std::void_t<decltype(std::declval<M&>().rootp->__Vtrigrprev__TOP__clk_i)>>
    : std::true_type {};

// One eval: the rise, then the edge detector's memory of the clock set back to low.
template <class M>
void clock_edge_fast(M& m) {
  static_assert(HasClockTrigger<M>::value,
                "hxemu: this verilated model has no rootp->__Vtrigrprev__TOP__clk_i (a top without a "
                "clk_i clock, or another Verilator): configure with -DHX_PORTABLE_CLOCK=ON");
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.rootp->__Vtrigrprev__TOP__clk_i = 0;
}

// The direct way, one step further: the edge as the two region functions Verilator 5.006's eval()
// runs for it, called by their generated names. For a model with one clock, eval() at a rising
// edge is exactly eval_ico (the logic that reads the top's inputs) and then eval_nba (the flops and
// the logic behind them), each once, wrapped in loops that test trigger flags, count iterations
// and look at the clock's last value (about 140 instructions a cycle of a board router, 3% of a
// mesh-8x8 run). Those names are declared per model by HX_DIRECT_EVAL below, which the model
// registry writes for each of its models (cmake/HxVariants.cmake); a model without them (another
// Verilator: the #error above) does not link. DirectStep's edge goes this way; everything else
// (reset pulses, tests, traced copies) keeps eval(), and tests/sysc/blocks/clock_edge_test.cpp
// compares the two ways output by output, every cycle.
//
// kInputsGated: the model reads what its input-combinational logic computes only where a flit
// arrives (in_valid_i has the port's bit): a board router, whose only such logic is its route
// computers and the buffer's write record, both used only to write an arriving flit
// (rtl/route/hx_route_board.sv: "Only a flit is routed"). Its eval_ico is skipped in a cycle with
// no flit in: the values it would compute are not looked at until it runs again, in the next
// cycle that has a flit. At load 0.3 on mesh-8x8 that is 7% of the router-cycles (a router sees a
// flit on some input in most cycles), most of the edge's saving being eval()'s wrapping.
template <class M>
struct DirectEval {
  static constexpr bool kAvailable = false;
};

template <class M>
void clock_edge_direct(M& m) {
  using D = DirectEval<M>;
  static_assert(D::kAvailable, "hxemu: clock_edge_direct needs HX_DIRECT_EVAL(<model>) first");
  auto* const r = m.rootp;
  if (!D::kInputsGated || any_bit_set(m.in_valid_i)) {
    r->__VicoTriggered.at(0) = true;
    D::ico(r);
  }
  r->__VnbaTriggered.at(0) = true;
  D::nba(r);
}
#endif

template <class M>
void clock_edge(M& m) {
#if defined(HX_PORTABLE_CLOCK)
  clock_edge_portable(m);
#else
  clock_edge_fast(m);
#endif
}

}  // namespace hxemu::sysc

#if !defined(HX_PORTABLE_CLOCK)
// Declares model P's two region functions (clock_edge_direct) and enables the direct edge for it;
// GATED: DirectEval::kInputsGated. At global scope, after P's headers (P.h, P___024root.h).
#define HX_DIRECT_EVAL(P, GATED)                                                  \
  void P##___024root___eval_ico(P##___024root* vlSelf);                         \
  void P##___024root___eval_nba(P##___024root* vlSelf);                         \
  namespace hxemu::sysc {                                                       \
  template <>                                                                   \
  struct DirectEval<P> {                                                        \
    static constexpr bool kAvailable = true;                                    \
    static constexpr bool kInputsGated = GATED;                                 \
    static void ico(P##___024root* r) { P##___024root___eval_ico(r); }         \
    static void nba(P##___024root* r) { P##___024root___eval_nba(r); }         \
  };                                                                            \
  }
#endif
