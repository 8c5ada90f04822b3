// hx_input_unit -- one router input port: the VC buffers, the state of each input VC, and the
// credit that goes back upstream.
//
// Promise: a head flit at the front of an idle VC asks for the output port its route (computed on
// arrival, stored beside the flit) names, and the output VC class the route computer chose; under
// adaptive routing the route's other minimal port and class are stored beside it too, and the
// router core may send the head there instead (hx_router_core). Once the head wins, the VC
// remembers the output port it took and its output VC until the tail leaves, so the packet's flits
// follow it contiguously on that output VC. Every dequeued flit returns one credit for its VC
// on the next cycle (credit_*_o are registered).
module hx_input_unit #(
  parameter int V  = 2,
  parameter int D  = 8,
  parameter int W  = 256,
  parameter int PW = 3,
  parameter int VW = (V > 1) ? $clog2(V) : 1,
  parameter int CLW = 2
) (
  input  logic             clk_i,
  input  logic             rst_i,
  // link in
  input  logic             in_valid_i,
  input  logic             in_head_i,
  input  logic             in_tail_i,
  input  logic [VW-1:0]    in_vc_i,
  input  logic [W-1:0]     in_data_i,
  // route of the arriving flit (meaningful for head flits)
  input  logic [PW-1:0]    rt_port_i,
  input  logic [CLW-1:0]   rt_class_i,
  input  logic             rt_alt_valid_i,  // a second minimal port (adaptive), kept beside the head
  input  logic [PW-1:0]    rt_alt_port_i,
  input  logic [CLW-1:0]   rt_alt_class_i,
  // state of every input VC, toward the allocators
  output logic [V-1:0]     vc_valid_o,    // a flit waits at the front
  output logic [V-1:0]     vc_active_o,   // the VC owns an output VC (body/tail flits follow)
  output logic [V-1:0]     vc_tail_o,     // the front flit is a tail
  output logic [V-1:0]     vc_head_o,     // the front flit is a head
  output logic [V*PW-1:0]  vc_port_o,     // output port the front flit goes to
  output logic [V*CLW-1:0] vc_class_o,    // output VC class a waiting head asks for
  output logic [V*VW-1:0]  vc_outvc_o,    // output VC owned by an active VC
  output logic [V-1:0]     vc_alt_valid_o,  // the front head has a second minimal port ...
  output logic [V*PW-1:0]  vc_alt_port_o,   // ... this one
  output logic [V*CLW-1:0] vc_alt_class_o,  // ... in this output VC class
  // the VC the switch allocator looks at, its payload, and whether it won
  input  logic [VW-1:0]    sel_vc_i,
  output logic [W-1:0]     sel_data_o,
  input  logic             grant_i,
  input  logic [VW-1:0]    grant_outvc_i,
  input  logic [PW-1:0]    grant_port_i,   // the port the head took (primary or alternative)
  // credit back upstream
  output logic             credit_valid_o,
  output logic [VW-1:0]    credit_vc_o,
  output logic             overflow_o,
  output logic             empty_o
);
  // Side record stored with each flit: {alternative class, alternative port, alternative valid,
  // class, port, tail, head}.
  localparam int MW = CLW + PW + 2 + 1 + PW + CLW;

  logic [V*MW-1:0]  front_meta;
  logic [V-1:0]     front_valid;
  logic [V-1:0]     active_q;
  logic [PW-1:0]    out_port_q [V];
  logic [VW-1:0]    out_vc_q   [V];
  logic             credit_valid_q;
  logic [VW-1:0]    credit_vc_q;

  hx_vc_buffer #(.V(V), .D(D), .W(W), .MW(MW), .VW(VW)) u_buf (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .wr_valid_i    (in_valid_i),
    .wr_vc_i       (in_vc_i),
    .wr_meta_i     ({rt_alt_class_i, rt_alt_port_i, rt_alt_valid_i, rt_class_i, rt_port_i, in_tail_i, in_head_i}),
    .wr_data_i     (in_data_i),
    .front_valid_o (front_valid),
    .front_meta_o  (front_meta),
    .rd_vc_i       (sel_vc_i),
    .rd_data_o     (sel_data_o),
    .deq_i         (grant_i),
    .deq_vc_i      (sel_vc_i),
    .overflow_o    (overflow_o)
  );

  // The fields of a VC's front flit are decoded only when it has one (0 otherwise; the allocators
  // look at a VC's fields only while vc_valid_o is high).
  always_comb begin
    vc_head_o      = '0;
    vc_tail_o      = '0;
    vc_port_o      = '0;
    vc_class_o     = '0;
    vc_alt_valid_o = '0;
    vc_alt_port_o  = '0;
    vc_alt_class_o = '0;
    for (int v = 0; v < V; v++) begin
      vc_valid_o[v]  = front_valid[v];
      vc_active_o[v] = active_q[v];
      vc_outvc_o[v*VW +: VW] = out_vc_q[v];
      if (front_valid[v]) begin
        vc_head_o[v]   = front_meta[v*MW];
        vc_tail_o[v]   = front_meta[v*MW + 1];
        vc_port_o[v*PW +: PW]    = active_q[v] ? out_port_q[v] : front_meta[v*MW + 2 +: PW];
        vc_class_o[v*CLW +: CLW] = front_meta[v*MW + 2 + PW +: CLW];
        vc_alt_valid_o[v]            = front_meta[v*MW + 2 + PW + CLW];
        vc_alt_port_o[v*PW +: PW]    = front_meta[v*MW + 3 + PW + CLW +: PW];
        vc_alt_class_o[v*CLW +: CLW] = front_meta[v*MW + 3 + 2*PW + CLW +: CLW];
      end
    end
    empty_o = (front_valid == '0);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int v = 0; v < V; v++) begin
        active_q[v]   <= 1'b0;
        out_port_q[v] <= '0;
        out_vc_q[v]   <= '0;
      end
      credit_valid_q <= 1'b0;
      credit_vc_q    <= '0;
    end else begin
      credit_valid_q <= grant_i;
      credit_vc_q    <= sel_vc_i;
      if (grant_i) begin
        // A head claims the output VC the allocator gave it; a tail gives it back.
        if (!active_q[sel_vc_i]) begin
          out_port_q[sel_vc_i] <= grant_port_i;
          out_vc_q[sel_vc_i]   <= grant_outvc_i;
        end
        active_q[sel_vc_i] <= !front_meta[32'(sel_vc_i)*MW + 1];
      end
    end
  end

  assign credit_valid_o = credit_valid_q;
  assign credit_vc_o    = credit_vc_q;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  // Packets arrive whole on each VC: a head opens VC v, its tail closes it; nothing else may start
  // on v in between (the upstream output VC is owned by one packet at a time).
  logic [V-1:0] open_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      open_q <= '0;
    end else begin
      if (in_valid_i) open_q[in_vc_i] <= !in_tail_i;
    end
    // One test of the conditions below (a head on an open VC or a body on a closed one; a grant
    // whose flit kind does not match the VC's state), the assertions only when it fails
    // (hx_output_unit).
    if (!rst_i && ((in_valid_i && in_head_i == open_q[in_vc_i])
                   || (grant_i && front_meta[32'(sel_vc_i)*MW] == active_q[sel_vc_i]))) begin
      assert (!(in_valid_i && in_head_i && open_q[in_vc_i])) else hx_rtl_assert_failed($sformatf(
        "%m: packets interleave on input VC %0d: a head arrived before the open packet's tail",
        in_vc_i));
      assert (!(in_valid_i && !in_head_i && !open_q[in_vc_i])) else hx_rtl_assert_failed(
        $sformatf("%m: body or tail flit on input VC %0d with no packet open", in_vc_i));
      // The allocators move a head only from an idle VC and a body or tail only from the VC that
      // owns an output VC.
      assert (!(grant_i && front_meta[32'(sel_vc_i)*MW] && active_q[sel_vc_i]))
        else hx_rtl_assert_failed($sformatf(
          "%m: VC %0d granted a head while its packet holds an output VC", sel_vc_i));
      assert (!(grant_i && !front_meta[32'(sel_vc_i)*MW] && !active_q[sel_vc_i]))
        else hx_rtl_assert_failed($sformatf(
          "%m: VC %0d granted a body or tail flit while it holds no output VC", sel_vc_i));
    end
  end
`endif
endmodule
