// hx_assert.svh -- what a module's closing assertions section includes.
//
// Every "Promise:" in an RTL module header is checked by immediate assertions at the end of that
// module, inside `ifdef HX_ASSERT. Only the Verilator build of the models defines HX_ASSERT (with
// --assert; cmake/HxModels.cmake, option HX_RTL_ASSERT); Icarus and Yosys (scripts/lint.sh,
// scripts/synth.sh) never see the section, and Verilator lint checks the RTL both with and without
// it. One exception: hx_arb_rr's assertions sit under HX_ASSERT_ARBITER, defined only by its
// exhaustive unit test (tests/rtl/arbiter), not by the system models (see hx_arb_rr.sv).
//
// Conventions:
//   - Assertions are sampled at the rising clock edge, out of reset, in an always_ff block: the
//     C++ harness sets a cycle's inputs and then raises the clock in one eval(), so combinational
//     values seen after the edge mix the new state with the previous cycle's inputs (see
//     sysc/blocks/link_ports.h); at the edge they are the cycle's own.
//   - A module whose checks run every cycle in a router (input and output units, VC buffers,
//     credit counters) tests all its conditions in one guard and evaluates the assertions, each a
//     run-time test and a branch, only when the guard fails; a check that an existing branch
//     already decides sits in that branch. Same messages in the same cycles: 13% fewer
//     instructions per router cycle than one flat assertion per condition (a 5-port, 2-VC router,
//     valgrind). Loops go inside functions, so that %m names the module, not an unnamed block.
//   - A failure calls hx_rtl_assert_failed with a message that starts with the instance (%m) and
//     says what broke. The function is C++ (sysc/blocks/verilated_context.cpp): it records the
//     message, counts it and lets the simulation go on, so a fired assertion is visible to the
//     harness and never aborts the process.
import "DPI-C" function void hx_rtl_assert_failed(input string msg);
