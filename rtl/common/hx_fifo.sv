// hx_fifo -- synchronous first-word-fall-through FIFO of DEPTH entries of W bits.
//
// Promise: data_o is the oldest entry whenever empty_o is low (read it and pop in the same cycle),
// and 0 while empty_o is high.
// A push and a pop may happen in the same cycle, also when the FIFO is full (the pop makes room).
// Callers never push into a full FIFO without a pop (such a push is dropped) and never pop an empty
// one (such a pop is ignored): they check full_o / empty_o (or count_o) first. Every output is a
// function of registers only (no path from push_i / pop_i / data_i to an output), so an output of
// this FIFO may drive a block output directly.
module hx_fifo #(
  parameter int W     = 8,
  parameter int DEPTH = 4,
  parameter int CW    = $clog2(DEPTH + 1)
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic          push_i,
  input  logic [W-1:0]  data_i,
  input  logic          pop_i,
  output logic [W-1:0]  data_o,
  output logic          empty_o,
  output logic          full_o,
  output logic [CW-1:0] count_o
);
  localparam int PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;

  logic [W-1:0]  mem [DEPTH];
  logic [PW-1:0] rd_ptr_q;
  logic [PW-1:0] wr_ptr_q;
  logic [CW-1:0] count_q;
  logic          do_push;
  logic          do_pop;

  assign do_pop  = pop_i && (count_q != '0);
  assign do_push = push_i && ((32'(count_q) < DEPTH) || do_pop);

  // Storage has no reset: an entry is only read after it was written.
  always_ff @(posedge clk_i) begin
    if (do_push) mem[wr_ptr_q] <= data_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (do_push) wr_ptr_q <= (32'(wr_ptr_q) == DEPTH - 1) ? '0 : wr_ptr_q + PW'(1);
      if (do_pop)  rd_ptr_q <= (32'(rd_ptr_q) == DEPTH - 1) ? '0 : rd_ptr_q + PW'(1);
      if (do_push && !do_pop) count_q <= count_q + CW'(1);
      if (do_pop && !do_push) count_q <= count_q - CW'(1);
    end
  end

  // The storage is read only when it holds an entry (data_o is 0 while the FIFO is empty, when no
  // caller looks at it): a cycle-based simulator then touches no storage of an empty FIFO, which on
  // a large system is a cache miss per FIFO and cycle.
  always_comb begin
    data_o = '0;
    if (count_q != '0) data_o = mem[rd_ptr_q];
  end
  assign empty_o = (count_q == '0);
  assign full_o  = (32'(count_q) == DEPTH);
  assign count_o = count_q;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!(push_i && full_o && !pop_i)) else hx_rtl_assert_failed($sformatf(
        "%m: FIFO overflow: push into a full FIFO (%0d entries) without a pop", DEPTH));
      assert (!(pop_i && empty_o)) else hx_rtl_assert_failed($sformatf(
        "%m: FIFO underflow: pop of an empty FIFO"));
    end
  end
`endif
endmodule
