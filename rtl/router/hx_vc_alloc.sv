// hx_vc_alloc -- output VC allocation for one output port.
//
// The switch allocator grants each output to at most one input per cycle, so a head flit that wins
// an output is the only candidate for that output's VCs in that cycle; this allocator then gives it
// one VC of the class its route asked for, among those that are free and have a credit, round robin
// so that successive packets spread over the class's VCs (more buffering for a single stream).
// Promise: a VC is only given when allowed_i has a candidate; the switch allocator's eligibility
// check guarantees one exists whenever alloc_i is high.
module hx_vc_alloc #(
  parameter int V  = 2,
  parameter int VW = (V > 1) ? $clog2(V) : 1
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic          alloc_i,       // a head flit won this output
  input  logic [V-1:0]  candidates_i,  // free, with credit, in the requested class
  output logic [VW-1:0] vc_o,
  output logic          ok_o
);
  // The round-robin pick of rtl/common/hx_rr_pick.svh (the rule of hx_arb_rr), made only in a cycle
  // in which a head won this output: a simulator pays for VC allocation per head, not per output
  // and cycle. Nobody reads vc_o or ok_o without alloc_i (both read 0 then).
  `include "hx_rr_pick.svh"
  logic [VW-1:0] ptr_q;
  always_comb begin
    vc_o = '0;
    ok_o = 1'b0;
    if (alloc_i) begin
      ok_o = (candidates_i != '0);
      vc_o = VW'(hx_rr_pick(64'(candidates_i), 6'(ptr_q)));
    end
  end

  // The pointer moves just past the VC given.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ptr_q <= '0;
    end else if (ok_o) begin
      ptr_q <= (32'(vc_o) == V - 1) ? '0 : vc_o + VW'(1);
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i && alloc_i && !ok_o) begin
      assert (!alloc_i || ok_o) else hx_rtl_assert_failed($sformatf(
        "%m: VC allocation with no candidate (no VC of the class free with a credit)"));
    end
  end
`endif
endmodule
