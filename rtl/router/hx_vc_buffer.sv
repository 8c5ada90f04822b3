// hx_vc_buffer -- the input buffers of one router port: V independent FIFOs of D flits each.
//
// Promise: flits written to a VC leave that VC in the order written. A flit written in cycle t is at
// the front from cycle t+1. Each flit carries a small side record (meta: head/tail flags and the
// route computed on arrival) that is readable at the front of every VC at once, while the wide
// payload is read for one VC per cycle only (the one the switch allocator looks at; meaningless
// when that VC is empty), which keeps the per-cycle work of a simulation proportional to ports,
// not ports x VCs.
// A write into a full VC is a credit-protocol violation by the sender: it is dropped and
// overflow_o latches high, so tests and the emulator can report it. The reader only dequeues a VC
// whose front_valid_o is high.
module hx_vc_buffer #(
  parameter int V  = 2,
  parameter int D  = 8,
  parameter int W  = 256,
  parameter int MW = 8,
  parameter int VW = (V > 1) ? $clog2(V) : 1
) (
  input  logic            clk_i,
  input  logic            rst_i,
  // write side (from the link)
  input  logic            wr_valid_i,
  input  logic [VW-1:0]   wr_vc_i,
  input  logic [MW-1:0]   wr_meta_i,
  input  logic [W-1:0]    wr_data_i,
  // front of every VC
  output logic [V-1:0]    front_valid_o,
  output logic [V*MW-1:0] front_meta_o,
  // payload of the front of one VC
  input  logic [VW-1:0]   rd_vc_i,
  output logic [W-1:0]    rd_data_o,
  // pop the front of one VC
  input  logic            deq_i,
  input  logic [VW-1:0]   deq_vc_i,
  output logic            overflow_o
);
  localparam int PW = (D > 1) ? $clog2(D) : 1;
  localparam int CW = $clog2(D + 1);

  logic [W-1:0]  data_mem [V*D];
  logic [MW-1:0] meta_mem [V*D];
  // Per VC, VC v's at [v*PW +: PW] / [v*CW +: CW]: packed vectors, not arrays (hx_output_unit's
  // credit counters say why). Each field is selected where it is used, written out: reading them
  // through small functions made Verilator keep a temporary per call (3.5% more instructions,
  // and half the wall-time gain gone; docs/speed.md, Measured and not taken).
  logic [V*PW-1:0] rd_ptr_q;
  logic [V*PW-1:0] wr_ptr_q;
  logic [V*CW-1:0] count_q;
  logic            overflow_q;

  // The front of every VC is kept in registers (front_valid_q, front_meta_q) that change only
  // when a flit is written into an empty VC or a VC's front leaves: the allocators read them every
  // cycle, and a simulator then pays per flit for them, not per VC and cycle.
  logic [V-1:0]    front_valid_q;
  logic [V*MW-1:0] front_meta_q;
  assign front_valid_o = front_valid_q;
  assign front_meta_o  = front_meta_q;

  // The payload at the front of VC rd_vc_i, read whether or not that VC holds a flit: only a VC
  // with a flit is ever dequeued, and nobody looks at the payload otherwise (an empty VC's slot
  // holds an old flit or nothing). A guard here would cost a simulator a test and a clear of W
  // bits per port and cycle for nothing.
  assign rd_data_o = data_mem[32'(rd_vc_i)*D + 32'(rd_ptr_q[32'(rd_vc_i)*PW +: PW])];

  // Scratch values of the process below: what this cycle's write and dequeue do, worked out in
  // the process, not as nets a simulator would evaluate on their own. Written with blocking
  // assignments and read only after, in the same process (hence the BLKSEQ waiver there);
  // declared here, not inside the process, because a variable declared in a block makes that
  // block a scope, and the assertions' %m would then name it instead of this buffer.
  logic          wr_ok;      // the flit written fits: its VC has room
  logic          inc;        // VC wr_vc_i gains a flit this cycle
  logic          dec;        // VC deq_vc_i loses its front this cycle
  logic [PW-1:0] deq_next;   // the slot after VC deq_vc_i's front (its next front)

  // One test of each event, a write and a dequeue: whether either happens is as random as the
  // traffic, and a simulator mispredicts each test of it, so each is tested once and everything
  // it moves is done in its branch; the counts move by arithmetic, without a test. Only the VCs
  // written and read this cycle move (a simulator pays per flit, not per VC).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
      front_valid_q <= '0;
      front_meta_q  <= '0;
      overflow_q <= 1'b0;
    end else begin
      /* verilator lint_off BLKSEQ */
      wr_ok = 32'(count_q[32'(wr_vc_i)*CW +: CW]) < D;
      inc   = wr_valid_i && wr_ok && 32'(wr_vc_i) < V;
      dec   = deq_i && 32'(deq_vc_i) < V && count_q[32'(deq_vc_i)*CW +: CW] != '0;
      /* verilator lint_on BLKSEQ */
      // Each VC's count as one sum over the packed fields: a field that gains a flit holds fewer
      // than D (no carry out of it) and one that loses its front holds at least one (no borrow),
      // so the fields never touch; a write and a dequeue of one VC leave its count as it was.
      count_q <= count_q + ((V*CW)'(inc) << (32'(wr_vc_i)*CW))
                         - ((V*CW)'(dec) << (32'(deq_vc_i)*CW));
      if (wr_valid_i) begin
        if (inc) begin
          // (Storage has no reset: a slot's contents are only used after it was written.)
          data_mem[32'(wr_vc_i)*D + 32'(wr_ptr_q[32'(wr_vc_i)*PW +: PW])] <= wr_data_i;
          meta_mem[32'(wr_vc_i)*D + 32'(wr_ptr_q[32'(wr_vc_i)*PW +: PW])] <= wr_meta_i;
          wr_ptr_q[32'(wr_vc_i)*PW +: PW] <= (32'(wr_ptr_q[32'(wr_vc_i)*PW +: PW]) == D - 1)
                                             ? '0 : wr_ptr_q[32'(wr_vc_i)*PW +: PW] + PW'(1);
          // A flit written into an empty VC is its front from the next cycle.
          if (count_q[32'(wr_vc_i)*CW +: CW] == '0) begin
            front_valid_q[wr_vc_i] <= 1'b1;
            front_meta_q[32'(wr_vc_i)*MW +: MW] <= wr_meta_i;
          end
        end else begin
          // A write into a full VC (a sender without a credit) or one that does not exist.
          if (!wr_ok) overflow_q <= 1'b1;
`ifdef HX_ASSERT
          // ---- assertions (rtl/common/hx_assert.svh), in the branch of a write that failed ----
          assert (32'(wr_vc_i) < V) else hx_rtl_assert_failed($sformatf(
            "%m: flit written on VC %0d of %0d", wr_vc_i, V));
          assert (wr_ok) else hx_rtl_assert_failed($sformatf(
            "%m: VC buffer overflow: flit written into full VC %0d (%0d slots), sent without a %s",
            wr_vc_i, D, "credit"));
`endif
        end
      end
      if (deq_i) begin
        if (dec) begin
          /* verilator lint_off BLKSEQ */
          deq_next = (32'(rd_ptr_q[32'(deq_vc_i)*PW +: PW]) == D - 1)
                   ? '0 : rd_ptr_q[32'(deq_vc_i)*PW +: PW] + PW'(1);
          /* verilator lint_on BLKSEQ */
          rd_ptr_q[32'(deq_vc_i)*PW +: PW] <= deq_next;
          // The front leaves: the next flit of the VC becomes the front, the one written now when
          // that is the next (the VC held one flit), or nothing (the side record reads 0).
          if (32'(count_q[32'(deq_vc_i)*CW +: CW]) > 1) begin
            front_meta_q[32'(deq_vc_i)*MW +: MW] <= meta_mem[32'(deq_vc_i)*D + 32'(deq_next)];
          end else if (inc && wr_vc_i == deq_vc_i) begin
            front_meta_q[32'(deq_vc_i)*MW +: MW] <= wr_meta_i;
          end else begin
            front_valid_q[deq_vc_i] <= 1'b0;
            front_meta_q[32'(deq_vc_i)*MW +: MW] <= '0;
          end
        end else begin
`ifdef HX_ASSERT
          // (In the branch of a dequeue that failed: from an empty VC or one that does not exist.)
          assert (dec) else hx_rtl_assert_failed(
            $sformatf("%m: VC buffer underflow: dequeue from empty VC %0d", deq_vc_i));
`endif
        end
      end
    end
  end
  assign overflow_o = overflow_q;

`ifdef HX_ASSERT
  `include "hx_assert.svh"
`endif
endmodule
