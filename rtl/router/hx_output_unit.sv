// hx_output_unit -- one router output port: the state of every output VC (owned by a packet or
// free), the credits of every output VC (free slots in the downstream VC buffer, as this sender
// sees them), and the output register that drives the link.
//
// Promise: an output VC is owned from the cycle its head is sent until its tail is sent, so two
// packets never interleave on one VC; a flit is only sent on a VC with a credit (checked by the
// allocators, enforced again here: a send at zero credits or a credit returned with every credit
// home is a protocol violation, credit_err_o latches high and the count does not wrap). A sent
// flit and a returned credit on the same VC in the same cycle cancel. The link outputs are
// registered.
//
// The downstream buffer's depth is an input (depth_i, at most DDOWN) rather than a parameter, so
// one model serves links whose receivers are sized differently (short on-board traces, long
// cables). It is taken in reset and must be held constant out of reset.
//
// The credits of all VCs are counted in the port's one process, in the branches of a flit sent and
// a credit returned: a simulator pays for the events, not for V counters every cycle.
//
// A port whose link is down (down_i, a failed cable or switch port; from a register of the block)
// keeps sending: the flits it sends are lost on the dead link and no credit comes back, so its VCs
// count as always having a credit and the counters stand still. A packet caught on the port drains
// into the dead link instead of holding its input VC (and the packets behind it) forever; route
// computers avoid the port (credits_o reads 0, and they are told which ports are down).
module hx_output_unit #(
  parameter int V      = 2,
  parameter int DDOWN  = 8,      // largest downstream buffer depth per VC (counter width)
  parameter int W      = 256,
  parameter int VW     = (V > 1) ? $clog2(V) : 1
) (
  input  logic          clk_i,
  input  logic          rst_i,
  input  logic [7:0]    depth_i,       // downstream buffer depth per VC: initial credits
  input  logic          down_i,        // the link behind this port is down (see above)
  // credits from downstream
  input  logic          credit_valid_i,
  input  logic [VW-1:0] credit_vc_i,
  // state toward the allocators
  output logic [V-1:0]  free_o,        // VC not owned by a packet
  output logic [V-1:0]  has_credit_o,  // VC has room downstream now
  output logic [V*8-1:0] credits_o,    // credits per VC (free slots downstream), from registers
  // the flit the crossbar sends this cycle
  input  logic          send_i,
  input  logic [VW-1:0] send_vc_i,
  input  logic          send_head_i,
  input  logic          send_tail_i,
  input  logic [W-1:0]  send_data_i,
  // link out (registered)
  output logic          out_valid_o,
  output logic [VW-1:0] out_vc_o,
  output logic          out_head_o,
  output logic          out_tail_o,
  output logic [W-1:0]  out_data_o,
  output logic          credit_err_o,
  output logic          idle_o        // every VC free and every credit back
);
  localparam int CW = $clog2(DDOWN + 1);

  logic [V-1:0]  owned_q;
  // Credits per VC, VC v's at [v*CW +: CW]. A packed vector, not an array: Verilator 5.006 gives
  // every non-blocking write site of an array element a flag that it sets, clears and tests every
  // cycle, a branch a processor mispredicts as often as flits and credits come and go; a vector is
  // copied whole, without one. (VC v's field is selected where it is used: hx_vc_buffer says why.)
  logic [V*CW-1:0] count_q;
  logic [CW-1:0] init_q;         // depth_i as it was in reset
  logic          err_q;
  logic          out_valid_q;
  logic [VW-1:0] out_vc_q;
  logic          out_head_q;
  logic          out_tail_q;
  logic [W-1:0]  out_data_q;

  // Whether a credit returned (credit_moves, in a cycle with credit_valid_i) or a flit sent
  // (flit_moves, in a cycle with send_i) moves its VC's count: a credit and a flit on the same VC
  // cancel; on different VCs each moves its own count. (Functions, not nets: the process below
  // tests each only in the branch of its event, which it does not test again.)
  function automatic logic credit_moves();
    credit_moves = !down_i && 32'(credit_vc_i) < V && !(send_i && send_vc_i == credit_vc_i);
  endfunction
  function automatic logic flit_moves();
    flit_moves = !down_i && 32'(send_vc_i) < V && !(credit_valid_i && send_vc_i == credit_vc_i);
  endfunction

  // Beside the counts, per VC: whether it has a credit and whether all its credits are home, kept
  // in registers that change with the counts (the allocators read them every cycle; a simulator
  // then pays for them per event, not per VC and cycle).
  logic [V-1:0]  credit_q;       // count_q[v] != 0
  logic [V-1:0]  home_q;         // count_q[v] == init_q

  logic all_home;   // every VC's credits back
  assign has_credit_o = credit_q | {V{down_i}};
  assign all_home     = (home_q == '1);
  always_comb begin
    for (int v = 0; v < V; v++) begin
      credits_o[v*8 +: 8] = down_i ? 8'd0 : 8'(count_q[v*CW +: CW]);
    end
  end

  // One process for the whole port, with one test of each event: a credit returned, a flit sent.
  // Whether either happens is as random as the traffic, and a simulator mispredicts each separate
  // test of it (a process per register group tested send_i four times per port and cycle). A
  // send moves the link registers (the payload among them) and its VC's credits and ownership and
  // is checked against the port's promises; a credit moves its VC's credits.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      count_q     <= {V{CW'(depth_i)}};
      init_q      <= CW'(depth_i);
      credit_q    <= (CW'(depth_i) != '0) ? '1 : '0;
      home_q      <= '1;
      err_q       <= 1'b0;
      owned_q     <= '0;
      out_valid_q <= 1'b0;
      out_vc_q    <= '0;
      out_head_q  <= 1'b0;
      out_tail_q  <= 1'b0;
      // (The payload register has no reset: it is only looked at while out_valid_o is high.)
    end else begin
      out_valid_q <= send_i;
      if (credit_valid_i) begin
        if (credit_moves()) begin
          if (count_q[32'(credit_vc_i)*CW +: CW] == init_q) begin
            err_q <= 1'b1;
`ifdef HX_ASSERT
            assert (count_q[32'(credit_vc_i)*CW +: CW] != init_q) else hx_rtl_assert_failed(
              $sformatf("%m: credits of VC %0d above the depth: a credit returned with all %0d home",
              credit_vc_i, init_q));
`endif
          end else begin
            count_q[32'(credit_vc_i)*CW +: CW] <= count_q[32'(credit_vc_i)*CW +: CW] + CW'(1);
            credit_q[credit_vc_i] <= 1'b1;
            home_q[credit_vc_i]   <= (count_q[32'(credit_vc_i)*CW +: CW] + CW'(1) == init_q);
          end
        end
      end
      if (send_i) begin
        out_vc_q   <= send_vc_i;
        out_head_q <= send_head_i;
        out_tail_q <= send_tail_i;
        out_data_q <= send_data_i;
        owned_q[send_vc_i] <= !send_tail_i;
        if (flit_moves()) begin
          if (count_q[32'(send_vc_i)*CW +: CW] == '0) begin
            err_q <= 1'b1;
`ifdef HX_ASSERT
            assert (count_q[32'(send_vc_i)*CW +: CW] != '0) else hx_rtl_assert_failed($sformatf(
              "%m: credits of VC %0d below zero: a flit sent with no credit", send_vc_i));
`endif
          end else begin
            count_q[32'(send_vc_i)*CW +: CW] <= count_q[32'(send_vc_i)*CW +: CW] - CW'(1);
            credit_q[send_vc_i] <= (count_q[32'(send_vc_i)*CW +: CW] != CW'(1));
            home_q[send_vc_i]   <= 1'b0;
          end
        end
`ifdef HX_ASSERT
        // The send promises (rtl/common/hx_assert.svh), tested in the branch a send takes anyway;
        // the assertions only when the test fails.
        if (32'(send_vc_i) >= V || !has_credit_o[send_vc_i] || send_head_i == owned_q[send_vc_i])
        begin
          assert (32'(send_vc_i) < V) else hx_rtl_assert_failed($sformatf(
            "%m: flit sent on VC %0d of %0d", send_vc_i, V));
          assert (has_credit_o[send_vc_i]) else hx_rtl_assert_failed($sformatf(
            "%m: flit sent on output VC %0d without a credit", send_vc_i));
          assert (!(send_head_i && owned_q[send_vc_i])) else hx_rtl_assert_failed($sformatf(
            "%m: packets interleave on output VC %0d: a head sent while another packet owns it",
            send_vc_i));
          assert (!(!send_head_i && !owned_q[send_vc_i])) else hx_rtl_assert_failed(
            $sformatf("%m: body or tail flit sent on output VC %0d that no packet owns", send_vc_i));
        end
`endif
      end
    end
  end

  assign free_o       = ~owned_q;
  assign out_valid_o  = out_valid_q;
  assign out_vc_o     = out_vc_q;
  assign out_head_o   = out_head_q;
  assign out_tail_o   = out_tail_q;
  assign out_data_o   = out_data_q;
  assign credit_err_o = err_q;
  // A dead link returns no credits: its counters need not be full for the port to be idle.
  assign idle_o       = (owned_q == '0) && (all_home || down_i) && !out_valid_q;

  // Depths above DDOWN cannot be counted; the upper bits only exist to keep the port 8 bits wide.
  logic unused_depth;
  assign unused_depth = ^depth_i;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    // The depth promises, every cycle, as one test; the assertions, each a branch and a run-time
    // check, only when it fails. (The send promises are checked in the link registers' process,
    // in the branch of a send.)
    if (!rst_i) begin
      // (Where DDOWN fills depth_i's 8 bits the first test is constant; it matters for the others.)
      /* verilator lint_off CMPCONST */
      if (32'(depth_i) > DDOWN || CW'(depth_i) != init_q) begin
        assert (32'(depth_i) <= DDOWN) else hx_rtl_assert_failed($sformatf(
          "%m: downstream depth %0d above the %0d credits the counters hold", depth_i, DDOWN));
      /* verilator lint_on CMPCONST */
        assert (CW'(depth_i) == init_q) else hx_rtl_assert_failed($sformatf(
          "%m: downstream depth changed out of reset (%0d, was %0d)", depth_i, init_q));
      end
    end
  end
`endif
endmodule
