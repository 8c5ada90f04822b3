// RTL assertions (rtl/common/hx_assert.svh): each test plants one violation of a promise an RTL
// module states in its header and checks that exactly the assertion guarding that promise fired,
// with its message, and that the process went on. Violations a neighbour can commit are planted
// through the product's models (the board router and the NIC from the model registry); promises
// only the next block in a module can break are planted on that block verilated alone
// (CMakeLists.txt). A clean run fires none. The output unit's credit counters, one packed register
// for all its VCs, are checked on that model too (OutputUnitCredits).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vhx_fifo_w8_d4.h"
#include "Vhx_output_unit_v2_w32.h"
#include "Vhx_vc_alloc_v4.h"
#include "sysc/blocks/board_router.h"
#include "sysc/blocks/clock_edge.h"
#include "sysc/blocks/nic.h"
#include "sysc/blocks/verilated_context.h"
#include "sysc/fabric/flit.h"
#include "sysc/system/vc_plan.h"
#include "tb/router_bench.h"

namespace hxemu::sysc {
namespace {

using Messages = std::vector<std::string>;

// What fired since the last call, sorted (assertions of one clock edge fire in no defined order).
Messages take_sorted() {
  RtlAssertionReport r = take_rtl_assertions();
  EXPECT_EQ(r.count, r.messages.size());
  std::sort(r.messages.begin(), r.messages.end());
  return r.messages;
}

template <class M>
void reset(M& m) {
  m.rst_i = 1;
  clock_edge_portable(m);
  clock_edge_portable(m);
  m.rst_i = 0;
}

TEST(RtlAssertions, BuiltAndOnByDefault) {
  EXPECT_TRUE(rtl_assertions_built());
  EXPECT_EQ(rtl_assertion_count(), 0u);
  EXPECT_EQ(first_rtl_assertion(), "");
}

// ---- hx_fifo ---------------------------------------------------------------------------------

TEST(FifoAssertions, PushIntoFullWithoutPopFires) {
  Vhx_fifo_w8_d4 m(verilated_context());
  reset(m);
  m.push_i = 1;
  for (int i = 0; i < 4; ++i) {
    m.data_i = static_cast<std::uint8_t>(i);
    clock_edge_portable(m);
  }
  EXPECT_EQ(m.full_o, 1);
  EXPECT_EQ(take_sorted(), Messages{});
  m.pop_i = 1;                      // push and pop while full: legal
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{});
  m.pop_i = 0;                      // push while full: the planted violation
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(),
            Messages{"TOP.hx_fifo: FIFO overflow: push into a full FIFO (4 entries) without a pop"});
  EXPECT_EQ(m.count_o, 4);          // the push was dropped, as the header says
  EXPECT_EQ(m.data_o, 1);
}

TEST(FifoAssertions, PopOfEmptyFires) {
  Vhx_fifo_w8_d4 m(verilated_context());
  reset(m);
  m.pop_i = 1;
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_fifo: FIFO underflow: pop of an empty FIFO"});
  m.pop_i = 0;
  m.push_i = 1;
  m.data_i = 0x5a;
  clock_edge_portable(m);
  EXPECT_EQ(m.data_o, 0x5a);
  m.push_i = 0;
  m.pop_i = 1;                      // pop of the one entry: legal
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{});
  EXPECT_EQ(m.empty_o, 1);
  EXPECT_EQ(m.data_o, 0);           // an empty FIFO reads no storage: data_o is 0 (its header)
}

// ---- hx_vc_alloc --------------------------------------------------------------------------------

TEST(VcAllocAssertions, AllocationWithoutCandidateFires) {
  Vhx_vc_alloc_v4 m(verilated_context());
  reset(m);
  m.alloc_i = 1;
  m.candidates_i = 0x4;
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{});
  m.candidates_i = 0;
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_vc_alloc: VC allocation with no candidate at outputs 1 "
                                    "(bit o: output o; no VC of the class free with a credit)"});
}

// ---- hx_output_unit ----------------------------------------------------------------------------

void send(Vhx_output_unit_v2_w32& m, int vc, bool head, bool tail) {
  m.send_i = 1;
  m.send_vc_i = static_cast<std::uint8_t>(vc);
  m.send_head_i = head;
  m.send_tail_i = tail;
  clock_edge_portable(m);
  m.send_i = 0;
}

TEST(OutputUnitAssertions, TwoPacketsOnOneOutputVcFire) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 4;
  reset(m);
  send(m, 0, true, false);          // packet A owns VC 0
  send(m, 1, true, true);           // a one-flit packet on VC 1: legal
  EXPECT_EQ(take_sorted(), Messages{});
  send(m, 0, true, false);          // packet B's head on VC 0 before A's tail
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_output_unit: packets interleave on output VC 0: a head "
                                    "sent while another packet owns it"});
  send(m, 1, false, true);          // a tail on VC 1, which no packet owns
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_output_unit: body or tail flit sent on output VC 1 "
                                    "that no packet owns"});
}

TEST(OutputUnitAssertions, FlitWithoutCreditFires) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 1;
  reset(m);
  send(m, 1, true, true);           // the one credit of VC 1
  EXPECT_EQ(take_sorted(), Messages{});
  send(m, 1, true, true);
  EXPECT_EQ(take_sorted(),
            (Messages{"TOP.hx_output_unit: credits of VC 1 below zero: a flit sent with no credit",
                      "TOP.hx_output_unit: flit sent on output VC 1 without a credit"}));
  EXPECT_EQ(m.credit_err_o, 1);
}

// A credit and a flit on one VC in one cycle cancel, legal even with every credit home; a credit
// alone then is one nobody consumed. The counts neither pass the depth nor wrap below zero.
TEST(OutputUnitAssertions, CreditsAboveDepthAndBelowZeroFire) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 2;
  reset(m);
  m.credit_valid_i = 1;
  m.credit_vc_i = 0;
  send(m, 0, true, true);
  EXPECT_EQ(take_sorted(), Messages{});
  EXPECT_EQ(m.credits_o & 0xffu, 2u);
  clock_edge_portable(m);            // the credit alone
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_output_unit: credits of VC 0 above the depth: a credit "
                                    "returned with all 2 home"});
  EXPECT_EQ(m.credits_o & 0xffu, 2u);
  EXPECT_EQ(m.credit_err_o, 1);
  m.credit_valid_i = 0;
  send(m, 0, true, true);
  send(m, 0, true, true);
  EXPECT_EQ(take_sorted(), Messages{});
  EXPECT_EQ(m.credits_o & 0xffu, 0u);
  send(m, 0, true, true);            // a flit with no credit
  EXPECT_EQ(take_sorted(),
            (Messages{"TOP.hx_output_unit: credits of VC 0 below zero: a flit sent with no credit",
                      "TOP.hx_output_unit: flit sent on output VC 0 without a credit"}));
  EXPECT_EQ(m.credits_o & 0xffu, 0u);
}

TEST(OutputUnitAssertions, DepthChangedOutOfResetFires) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 3;
  reset(m);
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{});
  m.depth_i = 4;
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_output_unit: downstream depth changed out of reset "
                                    "(4, was 3)"});
}

TEST(OutputUnitAssertions, DepthAboveWhatTheCountersHoldFires) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 5;                    // DDOWN is 4
  reset(m);
  clock_edge_portable(m);
  EXPECT_EQ(take_sorted(),
            (Messages{"TOP.hx_output_unit: downstream depth 5 above the 4 credits the counters hold"}));
}

// The credit counters of the VCs share one packed register (hx_output_unit): a flit or a credit
// moves its own VC's count and no other, a flit and a credit on different VCs in one cycle each
// move theirs, and the counts reach zero and the depth without touching the neighbour's field.
TEST(OutputUnitCredits, EachVcCountsItsOwn) {
  Vhx_output_unit_v2_w32 m(verilated_context());
  m.depth_i = 4;
  reset(m);
  auto credits = [&](int vc) { return (m.credits_o >> (8 * vc)) & 0xffu; };
  auto has_credit = [&](int vc) { return (m.has_credit_o >> vc) & 1u; };
  EXPECT_EQ(credits(0), 4u);
  EXPECT_EQ(credits(1), 4u);
  for (int i = 0; i < 4; ++i) send(m, 1, i == 0, i == 3);   // VC 1 spends all four
  EXPECT_EQ(credits(0), 4u);
  EXPECT_EQ(credits(1), 0u);
  EXPECT_EQ(has_credit(0), 1u);
  EXPECT_EQ(has_credit(1), 0u);
  m.credit_valid_i = 1;                                       // a credit home on VC 1 while
  m.credit_vc_i = 1;                                          // VC 0 sends
  send(m, 0, true, false);
  m.credit_valid_i = 0;
  EXPECT_EQ(credits(0), 3u);
  EXPECT_EQ(credits(1), 1u);
  EXPECT_EQ(has_credit(1), 1u);
  send(m, 0, false, false);
  send(m, 0, false, true);
  EXPECT_EQ(credits(0), 1u);
  EXPECT_EQ(credits(1), 1u);
  m.credit_valid_i = 1;
  for (int i = 0; i < 3; ++i) {                               // VC 1's other credits come home
    m.credit_vc_i = 1;
    clock_edge_portable(m);
  }
  m.credit_valid_i = 0;
  EXPECT_EQ(credits(0), 1u);
  EXPECT_EQ(credits(1), 4u);
  EXPECT_EQ(m.idle_o, 0u);                                    // VC 0's credits are still out
  m.credit_valid_i = 1;
  for (int i = 0; i < 3; ++i) {
    m.credit_vc_i = 0;
    clock_edge_portable(m);
  }
  m.credit_valid_i = 0;
  EXPECT_EQ(credits(0), 4u);
  EXPECT_EQ(credits(1), 4u);
  EXPECT_EQ(m.idle_o, 1u);
  EXPECT_EQ(m.credit_err_o, 0u);
  EXPECT_EQ(take_sorted(), Messages{});
}

// ---- the board router (the product's model) ----------------------------------------------------

constexpr int kN = 0, kE = 1, kW = 3;
constexpr int kVcs = 2;

// A router in the middle of a 3x3 board, `out_depth` credits per VC behind every output.
std::unique_ptr<BoardRouterBlock> make_router(int out_depth) {
  auto r = make_board_router(kVcs, 256);
  RouterSetup s;
  s.mode = RouteMode::kHammingMesh;
  s.local_row = 1;
  s.local_col = 1;
  s.board_rows = 3;
  s.board_cols = 3;
  s.vc = make_vc_plan(kVcs, 1, kVcs, VcPolicy::kDynamic);
  s.out_depth.fill(out_depth);
  r->reset(s);
  return r;
}

// A flit on VC `vc`; a head goes east (to local (1, 2)).
Flit flit(int vc, bool head, bool tail) {
  Flit f;
  f.valid = true;
  f.head = head;
  f.tail = tail;
  f.vc = static_cast<std::uint8_t>(vc);
  if (head) {
    set_field(f, hdr::kDstLocalRow, 1);
    set_field(f, hdr::kDstLocalCol, 2);
  }
  return f;
}

void cycle(LinkBlock& b, int port = -1, const Flit& f = Flit{}) {
  b.clear_inputs();
  if (port >= 0) b.set_flit_in(port, f);
  b.tick();
}

const std::string kInput3 = "TOP.hx_board_router.u_core.gen_input[3].u_in";

TEST(RouterAssertions, FlitBeyondAdvertisedCreditsOverflowsTheInputVc) {
  auto r = make_router(0);            // no credits downstream: nothing leaves the router
  const int slots = r->buffer_slots();
  cycle(*r, kW, flit(1, true, false));
  for (int i = 1; i < slots; ++i) cycle(*r, kW, flit(1, false, false));
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{});
  EXPECT_FALSE(r->error());
  cycle(*r, kW, flit(1, false, false));   // flit slots + 1 on a VC that advertised `slots` credits
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{kInput3 + ".u_buf: VC buffer overflow: flit written into full "
                                    "VC 1 (" + std::to_string(slots) + " slots), sent without a "
                                    "credit"});
  EXPECT_TRUE(r->error());             // the sticky flag agrees
}

TEST(RouterAssertions, CreditNeverConsumedOverflowsTheOutputCounter) {
  auto r = make_router(4);
  for (int i = 0; i < 3; ++i) cycle(*r);
  r->clear_inputs();
  r->set_credit_in(kE, Credit{true, 1});   // every credit of east VC 1 is home
  r->tick();
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(),
            Messages{"TOP.hx_board_router.u_core.gen_output[1].u_out: credits of VC 1 above the "
                     "depth: a credit returned with all 4 home"});
  EXPECT_TRUE(r->error());
}

TEST(RouterAssertions, TwoPacketsInterleavedOnOneInputVc) {
  // One credit per output VC and none returned: packet A's head leaves and takes east VC 0's only
  // credit, so packet B's head, wrongly queued behind it on the same input VC, stays where it is.
  auto r = make_router(1);
  cycle(*r, kW, flit(0, true, false));    // packet A: head, tail still to come
  EXPECT_EQ(take_sorted(), Messages{});
  cycle(*r, kW, flit(0, true, true));     // packet B on the same VC
  for (int i = 0; i < 10; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{kInput3 + ": packets interleave on input VC 0: a head arrived "
                                    "before the open packet's tail"});
}

TEST(RouterAssertions, TailWithNoPacketOpen) {
  auto r = make_router(0);                // nothing leaves: the stray tail stays in its buffer
  cycle(*r, kN, flit(1, false, true));
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_board_router.u_core.gen_input[0].u_in: body or tail "
                                    "flit on input VC 1 with no packet open"});
}

TEST(RouterAssertions, HeadRoutedToAClassWithoutVcs) {
  auto r = make_board_router(kVcs, 256);
  RouterSetup s;
  s.local_row = 1;
  s.local_col = 1;
  s.board_rows = 3;
  s.board_cols = 3;
  s.vc = make_vc_plan(kVcs, 1, kVcs, VcPolicy::kDynamic);
  s.vc.class_vcs[0] = 0;                  // a plan that leaves class 0 without VCs
  s.out_depth.fill(4);
  r->reset(s);
  cycle(*r, kW, flit(0, true, true));
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_board_router.u_core: heads on inputs 01000 (bit p: "
                                    "input p) routed to a VC class that has no VC"});
}

TEST(RouterAssertions, SwitchedOffTheyStayQuiet) {
  auto r = make_router(0);
  enable_rtl_assertions(false);
  cycle(*r, kW, flit(0, false, true));    // a tail with no packet open
  enable_rtl_assertions(true);
  for (int i = 0; i < 5; ++i) cycle(*r);
  EXPECT_EQ(take_sorted(), Messages{});
  cycle(*r, kW, flit(0, false, true));
  EXPECT_EQ(take_sorted(), Messages{kInput3 + ": body or tail flit on input VC 0 with no packet "
                                    "open"});
}

// Random traffic with random back-pressure through the router: every promise holds.
TEST(RouterAssertions, RandomTrafficFiresNone) {
  tb::RouterBenchConfig cfg;
  cfg.vcs = 4;
  cfg.seed = 99;
  tb::RouterBench b(cfg);
  std::mt19937_64 rng(cfg.seed);
  std::uniform_real_distribution<double> u(0, 1);
  b.set_drain_probability(0.6);
  for (int cycle = 0; cycle < 20000; ++cycle) {
    for (int in = 0; in < 5; ++in) {
      if (u(rng) < 0.15) {
        const auto outs = tb::RouterBench::legal_outputs(in);
        const int out = outs[std::uniform_int_distribution<int>(0, outs.size() - 1)(rng)];
        const auto [row, col] = b.dst_for(out);
        b.send(in, std::uniform_int_distribution<int>(0, cfg.vcs - 1)(rng), row, col,
               std::uniform_int_distribution<int>(1, 6)(rng));
      }
    }
    b.step();
  }
  ASSERT_TRUE(b.drain(200000));
  EXPECT_GT(b.packets_done(), 10000u);
  EXPECT_TRUE(b.errors().empty());
  EXPECT_EQ(rtl_assertion_count(), 0u) << first_rtl_assertion();
}

// ---- the NIC (the product's model) --------------------------------------------------------------

TEST(NicAssertions, ReadResponseWithoutRequestFires) {
  auto n = make_nic(2, 256);
  n->reset(NicSetup{0, 16, 0x3, 8, 0});
  for (int i = 0; i < 3; ++i) {
    n->clear_inputs();
    n->tick();
  }
  EXPECT_EQ(take_sorted(), Messages{});
  n->clear_inputs();
  DmaIn in;
  in.rd_valid = true;                 // read data nobody asked for
  n->set_dma_in(in);
  n->tick();
  n->clear_inputs();
  n->set_dma_in(DmaIn{});
  for (int i = 0; i < 5; ++i) n->tick();
  EXPECT_EQ(take_sorted(),
            Messages{"TOP.hx_nic.u_tx: DMA read response with no request open"});
  EXPECT_TRUE(n->error());
}

// A NIC fed by hand on its ejection port, memory always ready.
std::unique_ptr<NicBlock> make_quiet_nic() {
  auto n = make_nic(2, 256);
  n->reset(NicSetup{1, 16, 0x3, 8, 0});
  return n;
}

void eject(NicBlock& n, const Flit& f) {
  n.clear_inputs();
  n.set_dma_in(DmaIn{});
  if (f.valid) n.set_flit_in(0, f);
  n.tick();
}

// A head flit for the NIC: message `seq` from node 0, `msg_len` bytes, this packet `bytes` of them.
Flit nic_head(int vc, int seq, int msg_len, int bytes) {
  Flit f = flit(vc, true, bytes == 0);
  set_field(f, hdr::kDst, 1);
  set_field(f, hdr::kSeq, static_cast<std::uint64_t>(seq));
  set_field(f, hdr::kMsgLen, static_cast<std::uint64_t>(msg_len));
  set_field(f, hdr::kPacketBytes, static_cast<std::uint64_t>(bytes));
  return f;
}

TEST(NicAssertions, BodyFlitBeyondThePacketsBytesFires) {
  auto n = make_quiet_nic();
  eject(*n, nic_head(0, 0, 64, 32));      // a packet of 32 bytes: one body flit
  eject(*n, flit(0, false, false));
  eject(*n, flit(0, false, true));        // a second body flit it has no bytes for
  for (int i = 0; i < 10; ++i) eject(*n, Flit{});
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_nic.u_rx: body flit on VC 0 after the packet's bytes "
                                    "were all written"});
}

TEST(NicAssertions, TailBeforeThePacketsBytesFires) {
  auto n = make_quiet_nic();
  eject(*n, nic_head(0, 0, 96, 96));      // a packet of 96 bytes: three body flits
  eject(*n, flit(0, false, true));        // the tail after one
  for (int i = 0; i < 10; ++i) eject(*n, Flit{});
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_nic.u_rx: tail on VC 0 with 96 of the packet's bytes "
                                    "still to come"});
}

TEST(NicAssertions, TwoPacketsInterleavedOnOneEjectionVc) {
  auto n = make_quiet_nic();
  eject(*n, nic_head(1, 0, 64, 32));      // message 0: head, its body still to come
  eject(*n, nic_head(1, 1, 0, 0));        // message 1 on the same VC
  for (int i = 0; i < 10; ++i) eject(*n, Flit{});
  EXPECT_EQ(take_sorted(), Messages{"TOP.hx_nic.u_rx: packets interleave on ejection VC 1: a head "
                                    "arrived before the open packet's tail"});
}

}  // namespace
}  // namespace hxemu::sysc
