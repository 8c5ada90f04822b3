// hx_credit_counter -- free slots of one downstream VC buffer, as the sender sees them.
//
// The downstream buffer's size is an input (init_i, at most DEPTH) rather than a parameter, so one
// model serves links whose receivers are sized differently (short on-board traces, long cables).
// Promise: starts at init_i after reset; dec_i (a flit sent) and inc_i (a credit returned) may
// arrive in the same cycle and cancel. avail_o is high when at least one flit may be sent now.
// A decrement at zero or an increment past DEPTH is a protocol violation: err_o latches high and
// the count does not wrap. init_i must be held constant while out of reset.
module hx_credit_counter #(
  parameter int DEPTH = 8,
  parameter int CW = $clog2(DEPTH + 1)
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic [CW-1:0] init_i,
  input  logic          inc_i,
  input  logic          dec_i,
  output logic [CW-1:0] count_o,
  output logic          avail_o,
  output logic          full_o,
  output logic          err_o
);
  logic [CW-1:0] count_q;
  logic [CW-1:0] init_q;   // init_i as it was in reset: full_o then decodes registers only, so a
                           // cycle-based simulator does not evaluate it again on every input change
  logic          err_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      count_q <= init_i;
      init_q  <= init_i;
      err_q   <= 1'b0;
    end else if (inc_i && !dec_i) begin
      if (count_q == init_q) begin
        err_q <= 1'b1;
`ifdef HX_ASSERT
        // The two event checks sit in the branches their events take anyway (see the assertions
        // section below).
        assert (count_q != init_q) else hx_rtl_assert_failed($sformatf(
          "%m: credit counter above its depth: a credit returned with all %0d home", init_q));
`endif
      end
      else count_q <= count_q + CW'(1);
    end else if (dec_i && !inc_i) begin
      if (count_q == '0) begin
        err_q <= 1'b1;
`ifdef HX_ASSERT
        assert (count_q != '0) else hx_rtl_assert_failed($sformatf(
          "%m: credit counter below zero: a flit sent with no credit"));
`endif
      end
      else count_q <= count_q - CW'(1);
    end
  end

  assign count_o = count_q;
  assign avail_o = (count_q != '0);
  assign full_o  = (count_q == init_q);
  assign err_o   = err_q;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      // A router holds a counter per output VC: its configuration checks are one test per cycle,
      // and its credit checks live in the counting branches above, so a cycle without an error
      // costs no assertion (hx_assert.svh).
      // (Where DEPTH fills init_i's range the depth test is constant; it matters for the others.)
      /* verilator lint_off CMPCONST */
      if (init_i != init_q || 32'(init_i) > DEPTH) begin
      /* verilator lint_on CMPCONST */
        assert (32'(init_i) <= DEPTH) else hx_rtl_assert_failed($sformatf(
          "%m: credit counter: init_i %0d above DEPTH %0d", init_i, DEPTH));
        assert (init_i == init_q) else hx_rtl_assert_failed($sformatf(
          "%m: credit counter: init_i changed out of reset (%0d, was %0d)", init_i, init_q));
      end
    end
  end
`endif
endmodule
