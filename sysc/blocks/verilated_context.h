// The one VerilatedContext every model of the process shares, and the record of the RTL assertions
// that fired in any model.
//
// RTL assertions (rtl/common/hx_assert.svh) check the promises the RTL modules state in their
// headers. They are verilated into the models when the build has HX_RTL_ASSERT=ON (the default,
// cmake/HxModels.cmake). A failed assertion never stops the process: its message is recorded here
// and the first few are printed to stderr. A harness or testbench asks rtl_assertion_count() after
// (or during) a run; anything but 0 means the RTL broke one of its promises, or a neighbour
// (another block, a test driving a model by hand) broke the protocol the RTL relies on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

class VerilatedContext;

namespace hxemu::sysc {

VerilatedContext* verilated_context();

// What fired since the start of the process or the last take_rtl_assertions().
struct RtlAssertionReport {
  std::uint64_t count = 0;             // every failure, each cycle it fails
  std::vector<std::string> messages;   // the first kRtlAssertionMessagesKept, in order
};
inline constexpr std::size_t kRtlAssertionMessagesKept = 64;
inline constexpr std::size_t kRtlAssertionMessagesPrinted = 8;

// True when the models were verilated with their assertions (HX_RTL_ASSERT=ON).
bool rtl_assertions_built();

// Failures so far. A message reads "<instance>: <what broke>", the instance being the model's name
// followed by the RTL hierarchy (e.g. "TOP.hx_board_router.u_core.gen_input[1].u_in.u_buf: ...").
// Besides hxemu's own assertions this counts errors Verilator's run time reports itself (a $stop
// or a failed unique-case check): their text is on stdout, the message here names the count only.
std::uint64_t rtl_assertion_count();
std::string first_rtl_assertion();   // "" when none
RtlAssertionReport rtl_assertions();
// Returns what fired and forgets it (a test that planted a violation takes what it expected).
RtlAssertionReport take_rtl_assertions();

// Run-time switch for every model (VerilatedContext::assertOn); on by default. Off, a model skips
// its checks (they cost a test of a flag each).
void enable_rtl_assertions(bool on);

}  // namespace hxemu::sysc
