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
