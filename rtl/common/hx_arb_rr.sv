// hx_arb_rr -- round-robin arbiter with a separate accept.
//
// Promise: grant_o is one-hot (or zero when no request) and picks the first request at or after the
// priority pointer. The pointer moves just past the granted requester only when accept_i is high in
// the same cycle, so a grant that a later stage throws away does not cost the requester its turn
// (the iSLIP rule that keeps separable allocators fair).
module hx_arb_rr #(
  parameter int N = 4,
  parameter int IW = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic [N-1:0]  req_i,
  input  logic          accept_i,
  output logic [N-1:0]  grant_o,
  output logic [IW-1:0] grant_idx_o,
  output logic          any_o
);
  logic [IW-1:0] ptr_q;
  `include "hx_rr_pick.svh"

  // The rule (the first request at or after the pointer) is hx_rr_pick, which the switch
  // allocator's arbiters share (N <= 64).
  always_comb begin
    any_o       = (req_i != '0);
    grant_idx_o = IW'(hx_rr_pick(64'(req_i), 6'(ptr_q)));
    grant_o     = any_o ? (N'(1) << grant_idx_o) : '0;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ptr_q <= '0;
    end else if (accept_i && any_o) begin
      ptr_q <= IW'(hx_rr_next(6'(grant_idx_o), N));
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // Under HX_ASSERT_ARBITER only, not HX_ASSERT: the grant is a function of req_i and ptr_q alone,
  // and tests/rtl/arbiter checks it exhaustively (every request vector at every pointer, each
  // width the product builds) with these assertions compiled in. In the system models, where every
  // allocator holds several arbiters, they cost about 10% of a mesh's emulation instructions and
  // could find nothing that test does not.
`ifdef HX_ASSERT_ARBITER
  `include "hx_assert.svh"
  // Requesters 0 .. k-1 (shifts, not a loop).
  function automatic [N-1:0] below(input [IW-1:0] k);
    below = ~({N{1'b1}} << k);
  endfunction
  // Requesters from the pointer up to (not including) k, circularly: what a grant to k passed over.
  function automatic [N-1:0] passed_over(input [IW-1:0] k, input [IW-1:0] ptr);
    logic [N-1:0] bk;
    logic [N-1:0] bp;
    bk = below(k);
    bp = below(ptr);
    passed_over = (k >= ptr) ? (bk & ~bp) : (bk | ~bp);
  endfunction
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert ($onehot0(grant_o) && (grant_o & ~req_i) == '0 && (grant_o != '0) == any_o)
        else hx_rtl_assert_failed($sformatf(
          "%m: arbiter grant %b is not one of the requests %b", grant_o, req_i));
      assert (!any_o || (grant_o[grant_idx_o] && (req_i & passed_over(grant_idx_o, ptr_q)) == '0))
        else hx_rtl_assert_failed($sformatf(
          "%m: arbiter granted %0d, not the first request at or after %0d (requests %b)",
          grant_idx_o, ptr_q, req_i));
    end
  end
`endif
endmodule
