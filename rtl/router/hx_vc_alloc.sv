// hx_vc_alloc -- output VC allocation for the P output ports of a router.
//
// The switch allocator grants each output to at most one input per cycle, so a head flit that wins
// an output is the only candidate for that output's VCs in that cycle; this allocator then gives it
// one VC of the class its route asked for, among those that are free and have a credit, round robin
// per output so that successive packets spread over the class's VCs (more buffering for a single
// stream).
// Promise: a VC is only given when candidates_i has one; the switch allocator's eligibility check
// guarantees one exists whenever alloc_i is high.
//
// One instance for all outputs, and each output's round-robin pick (rtl/common/hx_rr_pick.svh, the
// rule of hx_arb_rr) made only in a cycle in which a head won it: a simulator pays for VC
// allocation per head, not per output and cycle. Nobody reads an output's vc_o or ok_o without its
// alloc_i (both read 0 then).
module hx_vc_alloc #(
  parameter int P  = 1,
  parameter int V  = 2,
  parameter int VW = (V > 1) ? $clog2(V) : 1
) (
  input  logic            clk_i,
  input  logic            rst_i,
  input  logic [P-1:0]    alloc_i,       // a head flit won output o (bit o)
  input  logic [P*V-1:0]  candidates_i,  // output o: [o*V +: V], free, with credit, in the class
  output logic [P*VW-1:0] vc_o,          // output o: [o*VW +: VW]
  output logic [P-1:0]    ok_o
);
  `include "hx_rr_pick.svh"
  logic [P*VW-1:0] ptr_q;   // output o's at [o*VW +: VW] (a vector: hx_switch_alloc's pointers)
  always_comb begin
    vc_o = '0;
    ok_o = '0;
    if (alloc_i != '0) begin
      for (int o = 0; o < P; o++) begin
        if (alloc_i[o]) begin
          ok_o[o] = (candidates_i[o*V +: V] != '0);
          vc_o[o*VW +: VW] = VW'(hx_rr_pick(64'(candidates_i[o*V +: V]), 6'(ptr_q[o*VW +: VW])));
        end
      end
    end
  end

  // An output's pointer moves just past the VC it gave.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ptr_q <= '0;
    end else if (ok_o != '0) begin
      for (int o = 0; o < P; o++) begin
        if (ok_o[o]) ptr_q[o*VW +: VW] <= VW'(hx_rr_next(6'(vc_o[o*VW +: VW]), V));
      end
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i && (alloc_i & ~ok_o) != '0) begin
      assert ((alloc_i & ~ok_o) == '0) else hx_rtl_assert_failed($sformatf(
        "%m: VC allocation with no candidate at outputs %b (bit o: output o; no VC of the class %s",
        alloc_i & ~ok_o, "free with a credit)"));
    end
  end
`endif
endmodule
