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
  logic [V-1:0] grant;
  hx_arb_rr #(.N(V), .IW(VW)) u_arb (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .req_i       (candidates_i),
    .accept_i    (alloc_i),
    .grant_o     (grant),
    .grant_idx_o (vc_o),
    .any_o       (ok_o)
  );
  logic unused_grant;
  assign unused_grant = ^grant;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!alloc_i || ok_o) else hx_rtl_assert_failed($sformatf(
        "%m: VC allocation with no candidate (no VC of the class free with a credit)"));
    end
  end
`endif
endmodule
