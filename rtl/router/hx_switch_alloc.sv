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
  logic [P-1:0]  in_any;
  logic [PW-1:0] in_port [P];
  logic [P-1:0]  out_req [P];   // out_req[o][i]: input i asks for output o
  logic [P-1:0]  out_grant [P];
  logic [PW-1:0] out_idx [P];
  logic [P-1:0]  out_any;
  logic [P-1:0]  win1;          // input won in iteration 1
  // iteration 2
  logic [P-1:0]  any2;
  logic [PW-1:0] port2 [P];
  logic [P-1:0]  out_req2 [P];
  logic [P-1:0]  out_grant2 [P];
  logic [PW-1:0] out_idx2 [P];
  logic [P-1:0]  out_any2;
  logic [P-1:0]  win2;

  for (genvar p = 0; p < P; p++) begin : gen_in
    logic [V-1:0]  grant;
    logic [VW-1:0] idx;
    hx_arb_rr #(.N(V), .IW(VW)) u_arb (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .req_i       (req_i[p*V +: V]),
      .accept_i    (win1[p]),
      .grant_o     (grant),
      .grant_idx_o (idx),
      .any_o       (in_any[p])
    );
    logic unused_grant;
    assign unused_grant = ^grant;
    assign in_port[p] = port_i[(p*V + 32'(idx))*PW +: PW];

    // Iteration 2: the VCs of a losing input that ask for an output left free.
    logic [V-1:0]    req2;
    logic [V-1:0]    grant2;
    logic [VW-1:0]   pick2;
    logic            lost1;
    logic [V-1:0]    my_req;
    logic [V*PW-1:0] my_ports;
    // (Slices taken outside the process: Icarus does not take constant selects inside always_*.)
    assign lost1    = in_any[p] && !win1[p];
    assign my_req   = req_i[p*V +: V];
    assign my_ports = port_i[p*V*PW +: V*PW];
    always_comb begin
      for (int v = 0; v < V; v++) begin
        req2[v] = lost1 && my_req[v] && !out_any[32'(my_ports[v*PW +: PW])];
      end
    end
    hx_arb_rr #(.N(V), .IW(VW)) u_arb2 (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .req_i       (req2),
      .accept_i    (win2[p]),
      .grant_o     (grant2),
      .grant_idx_o (pick2),
      .any_o       (any2[p])
    );
    logic unused_grant2;
    assign unused_grant2 = ^grant2;
    assign port2[p] = port_i[(p*V + 32'(pick2))*PW +: PW];
    assign in_vc_o[p*VW +: VW] = win2[p] ? pick2 : idx;
  end

  always_comb begin
    for (int o = 0; o < P; o++) begin
      for (int i = 0; i < P; i++) begin
        out_req[o][i] = in_any[i] && (32'(in_port[i]) == o);
      end
    end
  end

  for (genvar o = 0; o < P; o++) begin : gen_out
    hx_arb_rr #(.N(P), .IW(PW)) u_arb (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .req_i       (out_req[o]),
      .accept_i    (1'b1),
      .grant_o     (out_grant[o]),
      .grant_idx_o (out_idx[o]),
      .any_o       (out_any[o])
    );
    hx_arb_rr #(.N(P), .IW(PW)) u_arb2 (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .req_i       (out_req2[o]),
      .accept_i    (1'b1),
      .grant_o     (out_grant2[o]),
      .grant_idx_o (out_idx2[o]),
      .any_o       (out_any2[o])
    );
    assign out_valid_o[o] = out_any[o] || out_any2[o];
    assign out_in_o[o*PW +: PW] = out_any[o] ? out_idx[o] : out_idx2[o];
  end

  always_comb begin
    win1 = '0;
    for (int o = 0; o < P; o++) begin
      win1 = win1 | out_grant[o];
    end
  end

  // Only outputs free after iteration 1 receive iteration-2 requests (req2 masks the others).
  always_comb begin
    for (int o = 0; o < P; o++) begin
      for (int i = 0; i < P; i++) begin
        out_req2[o][i] = any2[i] && (32'(port2[i]) == o);
      end
    end
  end

  always_comb begin
    win2 = '0;
    for (int o = 0; o < P; o++) begin
      win2 = win2 | out_grant2[o];
    end
    in_win_o = win1 | win2;
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // One grant per output is the output arbiter's own promise (hx_arb_rr); here: no input wins two
  // outputs, and a winner is an input VC that asked.
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  function automatic [P-1:0] won_twice();
    logic [P-1:0] seen;
    seen = '0;
    won_twice = '0;
    for (int o = 0; o < P; o++) begin
      won_twice = won_twice | (seen & (out_grant[o] | out_grant2[o]));
      seen = seen | out_grant[o] | out_grant2[o];
    end
  endfunction
  function automatic [P-1:0] won_unasked();
    won_unasked = '0;
    for (int p = 0; p < P; p++) begin
      won_unasked = won_unasked | (P'(in_win_o[p] && !req_i[p*V + 32'(in_vc_o[p*VW +: VW])]) << p);
    end
  endfunction
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (won_twice() == '0) else hx_rtl_assert_failed($sformatf(
        "%m: inputs %b (bit p: input p) won two outputs in one cycle", won_twice()));
      assert (won_unasked() == '0) else hx_rtl_assert_failed($sformatf(
        "%m: inputs %b (bit p: input p) won with a VC that did not ask", won_unasked()));
    end
  end
`endif
endmodule
