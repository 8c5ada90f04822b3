// hx_nic_seq_table -- one 16-bit message sequence number per node (NODES entries), all zero after
// reset. TX counts in it the messages sent to each destination (the receiving host puts a source's
// messages back in posted order by these numbers).
//
// Promise: while rd_en_i is high, rd_seq_o is the value of entry rd_idx_i (combinational read, 0 for
// an entry never written since reset); while it is low, rd_seq_o is 0 and the table is not read (a
// simulator then touches no table memory: on a large system, two cache misses per NIC and cycle).
// A write lands at the clock edge. Reset clears a NODES-bit valid vector, not
// the storage, so the storage stays a plain memory (an SRAM in a real implementation) and the
// per-cycle work of a simulation does not grow with NODES.
module hx_nic_seq_table #(
  parameter int NODES = 4096,
  parameter int IW    = (NODES > 1) ? $clog2(NODES) : 1
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic          rd_en_i,
  input  logic [IW-1:0] rd_idx_i,
  output logic [15:0]   rd_seq_o,
  input  logic          wr_i,
  input  logic [IW-1:0] wr_idx_i,
  input  logic [15:0]   wr_seq_i
);
  logic [15:0]      seq_mem [NODES];
  logic [NODES-1:0] written_q;

  always_ff @(posedge clk_i) begin
    if (wr_i) seq_mem[wr_idx_i] <= wr_seq_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      written_q <= '0;
    end else if (wr_i) begin
      written_q[wr_idx_i] <= 1'b1;
    end
  end

  always_comb begin
    rd_seq_o = 16'd0;
    // Nested, not `rd_en_i && ...`: Verilator turns a 1-bit && into an &, which reads written_q.
    if (rd_en_i) begin
      if (written_q[rd_idx_i]) rd_seq_o = seq_mem[rd_idx_i];
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // The read is combinational and only meaningful when the caller uses it; a write names an entry.
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!wr_i || 32'(wr_idx_i) < NODES) else hx_rtl_assert_failed($sformatf(
        "%m: sequence table write to entry %0d of %0d", wr_idx_i, NODES));
    end
  end
`endif
endmodule
