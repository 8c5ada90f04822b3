// hx_switch_alloc -- separable input-first switch allocator built from round-robin arbiters, with
// two iterations (iSLIP-style).
//
// Iteration 1: every input port picks one of its eligible VCs (round robin over V); every output
// port picks one of the inputs whose pick asks for it (round robin over P).
// Iteration 2: an input that lost picks again among its VCs that ask for an output nobody won in
// iteration 1, and those outputs pick among them. It fills the matching that one iteration leaves
// short when several inputs' picks collide on one output while their other VCs wait for idle ones
// (head-of-line blocking across an input's VCs).
// Promise: at most one flit per input and per output per cycle. An arbiter only advances when its
// pick won, so under sustained contention every input gets an equal share of an output and every VC
// of an input an equal share of the input.
//
// Written for a cycle-based simulator: the whole allocation is one process whose work is guarded by
// the requests (no request, no arbitration; no loser, no second iteration; an output nobody asks
// for, no arbiter), so a simulation pays per cycle for what is asked, not for P x V arbiters. Every
// arbiter is the round-robin pick of rtl/common/hx_rr_pick.svh, the one hx_arb_rr is made of.
module hx_switch_alloc #(
  parameter int P  = 5,
  parameter int V  = 2,
  parameter int PW = (P > 1) ? $clog2(P) : 1,
  parameter int VW = (V > 1) ? $clog2(V) : 1
) (
  input  logic            clk_i,
  input  logic            rst_i,
  input  logic [P*V-1:0]  req_i,        // input VC (p, v) may send now
  input  logic [P*V*PW-1:0] port_i,     // output port each input VC wants
  output logic [P*VW-1:0] in_vc_o,      // VC each input put forward
  output logic [P-1:0]    in_win_o,     // that VC won its output
  output logic [P-1:0]    out_valid_o,  // output has a winner
  output logic [P*PW-1:0] out_in_o      // input that won each output
);
  `include "hx_rr_pick.svh"

  // Round-robin pointers: per input, of iterations 1 and 2; per output, of iterations 1 and 2;
  // port p's at [p*VW +: VW] (inputs) or [p*PW +: PW] (outputs). Packed vectors, not arrays:
  // every index is a loop constant, and Verilator 5.006 keeps a flag per non-blocking write site of
  // an array element (set, cleared and tested every cycle) where a vector is one copy (1.5% of a
  // board router's instructions per cycle).
  logic [P*VW-1:0] in_ptr_q;
  logic [P*VW-1:0] in_ptr2_q;
  logic [P*PW-1:0] out_ptr_q;
  logic [P*PW-1:0] out_ptr2_q;

  // Results of the process below, kept for the pointer updates and the assertions. Each input's
  // iteration-1 pick (replaced by its iteration-2 pick when that one wins) and each output's winner
  // are written straight into in_vc_o and out_in_o (an input wins in one iteration at most, and an
  // output is taken in one at most): no per-port copies of them.
  logic [P-1:0]  in_any;       // input p put a VC forward in iteration 1
  logic [P-1:0]  out_any;      // output o has an iteration-1 winner
  logic [P-1:0]  win1;
  logic [P-1:0]  any2;
  logic [P-1:0]  out_any2;
  logic [P-1:0]  win2;

  logic [PW-1:0] in_port [P];   // the output each input's iteration-1 pick asks for
  logic [PW-1:0] port2 [P];     // ... and its iteration-2 pick
  logic [VW-1:0] pick2 [P];     // an input's iteration-2 pick (its VC only if that pick wins)
  logic [P-1:0]  lost1;
  localparam int PP = 1 << PW;  // every PW-bit port number, so a request never indexes past oreq
  logic [P-1:0]  oreq [PP];     // scratch: the inputs asking for each output
  logic [V-1:0]  req2;          // scratch: one input's iteration-2 requests
  logic [VW-1:0] pick;          // scratch: one input's pick
  logic [PW-1:0] won;           // scratch: one output's winner
  // The pointers after this cycle, worked out where each arbiter's pick is taken (an input's when
  // its pick wins an output, an output's when it picks): the register update is then one copy,
  // not a test per arbiter of whether it moves (each a branch as random as the traffic).
  logic [P*VW-1:0] in_ptr_next;
  logic [P*VW-1:0] in_ptr2_next;
  logic [P*PW-1:0] out_ptr_next;
  logic [P*PW-1:0] out_ptr2_next;
  always_comb begin
    in_vc_o  = '0;
    out_in_o = '0;
    for (int o = 0; o < PP; o++) oreq[o] = '0;
    req2     = '0;
    pick     = '0;
    won      = '0;
    in_any   = '0;
    out_any  = '0;
    win1     = '0;
    any2     = '0;
    out_any2 = '0;
    win2     = '0;
    for (int p = 0; p < P; p++) begin
      in_port[p] = '0;
      port2[p]   = '0;
      pick2[p]   = '0;
    end
    lost1 = '0;
    in_ptr_next   = in_ptr_q;
    in_ptr2_next  = in_ptr2_q;
    out_ptr_next  = out_ptr_q;
    out_ptr2_next = out_ptr2_q;
    if (req_i != '0) begin
      // Iteration 1, inputs: each picks one of its requesting VCs.
      for (int p = 0; p < P; p++) begin
        if (req_i[p*V +: V] != '0) begin
          in_any[p] = 1'b1;
          pick = VW'(hx_rr_pick(64'(req_i[p*V +: V]), 6'(in_ptr_q[p*VW +: VW])));
          in_vc_o[p*VW +: VW] = pick;
          in_port[p] = port_i[(p*V + 32'(pick))*PW +: PW];
        end
      end
      // Iteration 1, outputs: each picks one of the inputs whose pick asks for it. (The requests
      // are scattered to their outputs, one step per input, not gathered by P x P compares.)
      for (int i = 0; i < P; i++) begin
        if (in_any[i]) oreq[in_port[i]] = oreq[in_port[i]] | (P'(1) << i);
      end
      for (int o = 0; o < P; o++) begin
        if (oreq[o] != '0) begin
          out_any[o] = 1'b1;
          won = PW'(hx_rr_pick(64'(oreq[o]), 6'(out_ptr_q[o*PW +: PW])));
          out_in_o[o*PW +: PW] = won;
          win1[won] = 1'b1;
          out_ptr_next[o*PW +: PW] = PW'(hx_rr_next(6'(won), P));
          in_ptr_next[32'(won)*VW +: VW] = VW'(hx_rr_next(6'(in_vc_o[32'(won)*VW +: VW]), V));
        end
      end
      lost1 = in_any & ~win1;
      // Iteration 2: the VCs of a losing input that ask for an output left free.
      if (lost1 != '0 && out_any != '1) begin
        for (int p = 0; p < P; p++) begin
          if (lost1[p]) begin
            req2 = '0;
            for (int v = 0; v < V; v++) begin
              req2[v] = req_i[p*V + v] && !out_any[port_i[(p*V + v)*PW +: PW]];
            end
            if (req2 != '0) begin
              any2[p] = 1'b1;
              pick2[p] = VW'(hx_rr_pick(64'(req2), 6'(in_ptr2_q[p*VW +: VW])));
              port2[p] = port_i[(p*V + 32'(pick2[p]))*PW +: PW];
            end
          end
        end
        // Only outputs free after iteration 1 receive iteration-2 requests (req2 masks the others).
        if (any2 != '0) begin
          for (int o = 0; o < P; o++) oreq[o] = '0;
          for (int i = 0; i < P; i++) begin
            if (any2[i]) oreq[port2[i]] = oreq[port2[i]] | (P'(1) << i);
          end
          for (int o = 0; o < P; o++) begin
            if (oreq[o] != '0) begin
              out_any2[o] = 1'b1;
              won = PW'(hx_rr_pick(64'(oreq[o]), 6'(out_ptr2_q[o*PW +: PW])));
              out_in_o[o*PW +: PW] = won;
              win2[won] = 1'b1;
              in_vc_o[32'(won)*VW +: VW] = pick2[won];   // the input's VC is the one that won
              out_ptr2_next[o*PW +: PW] = PW'(hx_rr_next(6'(won), P));
              in_ptr2_next[32'(won)*VW +: VW] = VW'(hx_rr_next(6'(pick2[won]), V));
            end
          end
        end
      end
    end
    out_valid_o = out_any | out_any2;
    in_win_o    = win1 | win2;
  end

  // An arbiter's pointer moves past its pick when the pick won (an output's pick always does):
  // the moves were worked out above, where the picks were taken.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      in_ptr_q   <= '0;
      in_ptr2_q  <= '0;
      out_ptr_q  <= '0;
      out_ptr2_q <= '0;
    end else begin
      in_ptr_q   <= in_ptr_next;
      in_ptr2_q  <= in_ptr2_next;
      out_ptr_q  <= out_ptr_next;
      out_ptr2_q <= out_ptr2_next;
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // One grant per output holds by construction (one pick per output); here: no input wins two
  // outputs, and a winner is an input VC that asked.
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  function automatic [P-1:0] won_twice();
    logic [P-1:0] seen;
    logic [P-1:0] g;
    seen = '0;
    won_twice = '0;
    for (int o = 0; o < P; o++) begin
      g = (out_any[o] || out_any2[o]) ? (P'(1) << out_in_o[o*PW +: PW]) : '0;
      won_twice = won_twice | (seen & g);
      seen = seen | g;
    end
  endfunction
  function automatic [P-1:0] won_unasked();
    won_unasked = '0;
    for (int p = 0; p < P; p++) begin
      won_unasked = won_unasked | (P'(in_win_o[p] && !req_i[p*V + 32'(in_vc_o[p*VW +: VW])]) << p);
    end
  endfunction
  always_ff @(posedge clk_i) begin
    // Only in a cycle with a winner. (Nested tests: Verilator evaluates both sides of a 1-bit &&,
    // so one combined condition would count the bits of in_win_o and out_valid_o every cycle.)
    if (!rst_i && in_win_o != '0) begin
      // An input that won two outputs leaves fewer winning inputs than outputs with a winner: the
      // per-output search runs only then.
      if ($countones(in_win_o) != $countones(out_valid_o)) begin
        assert (won_twice() == '0) else hx_rtl_assert_failed($sformatf(
          "%m: inputs %b (bit p: input p) won two outputs in one cycle", won_twice()));
      end
      assert (won_unasked() == '0) else hx_rtl_assert_failed($sformatf(
        "%m: inputs %b (bit p: input p) won with a VC that did not ask", won_unasked()));
    end
  end
`endif
endmodule
