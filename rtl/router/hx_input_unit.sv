// hx_input_unit -- one router input port: the VC buffers and the state of each input VC.
//
// Promise: a head flit at the front of an idle VC asks for the output port its route (computed on
// arrival, stored beside the flit) names, and the output VC class the route computer chose; under
// adaptive routing the route's other minimal port and class are stored beside it too, and the
// router core may send the head there instead (hx_router_core). Once the head wins, the VC
// remembers the output port it took and its output VC until the tail leaves, so the packet's flits
// follow it contiguously on that output VC. (The credit each dequeued flit returns upstream in the
// next cycle is registered by the router core, for all inputs at once: hx_router_core.)
module hx_input_unit #(
  parameter int V   = 2,
  parameter int D   = 8,
  parameter int W   = 256,
  parameter int PW  = 3,
  parameter int VW  = (V > 1) ? $clog2(V) : 1,
  parameter int CLW = 2,
  // 1: the route computer may offer a second minimal port (adaptive routing), stored beside each
  // head; 0: it never does (rt_alt_* ignored), so the side record has no alternative's fields
  parameter int ALT = 1,
  // side record width: HX_META_W of rtl/common/hx_vc_meta.svh (the router core passes it)
  parameter int MW  = (ALT != 0) ? 3 + 2*PW + 2*CLW : 2 + PW + CLW
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
  // state of every input VC, toward the allocators (all from registers)
  output logic [V-1:0]     vc_valid_o,    // a flit waits at the front
  output logic [V-1:0]     vc_active_o,   // the VC owns an output VC (body/tail flits follow)
  output logic [V*MW-1:0]  vc_meta_o,     // side record of the front flit (hx_vc_meta.svh; 0 if none)
  output logic [V*PW-1:0]  vc_oport_o,    // output port owned by an active VC
  output logic [V*VW-1:0]  vc_outvc_o,    // output VC owned by an active VC
  // the VC the switch allocator looks at, its payload, and whether it won
  input  logic [VW-1:0]    sel_vc_i,
  output logic [W-1:0]     sel_data_o,
  input  logic             grant_i,
  input  logic [VW-1:0]    grant_outvc_i,
  input  logic [PW-1:0]    grant_port_i,   // the port the head took (primary or alternative)
  output logic             overflow_o,
  output logic             empty_o
);
  `include "hx_vc_meta.svh"

  logic [MW-1:0]    wr_meta;
  logic [V*MW-1:0]  front_meta;
  logic [V-1:0]     front_valid;
  logic [V-1:0]     active_q;
  logic [V*PW-1:0]  out_port_q;
  logic [V*VW-1:0]  out_vc_q;

  if (ALT != 0) begin : gen_alt
    assign wr_meta = MW'({rt_alt_class_i, rt_alt_port_i, rt_alt_valid_i, rt_class_i, rt_port_i,
                          in_tail_i, in_head_i});
  end else begin : gen_no_alt
    assign wr_meta = MW'({rt_class_i, rt_port_i, in_tail_i, in_head_i});
    logic unused_alt;
    assign unused_alt = ^{rt_alt_class_i, rt_alt_port_i, rt_alt_valid_i};
  end

  hx_vc_buffer #(.V(V), .D(D), .W(W), .MW(MW), .VW(VW)) u_buf (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .wr_valid_i    (in_valid_i),
    .wr_vc_i       (in_vc_i),
    .wr_meta_i     (wr_meta),
    .wr_data_i     (in_data_i),
    .front_valid_o (front_valid),
    .front_meta_o  (front_meta),
    .rd_vc_i       (sel_vc_i),
    .rd_data_o     (sel_data_o),
    .deq_i         (grant_i),
    .deq_vc_i      (sel_vc_i),
    .overflow_o    (overflow_o)
  );

  // Whole registers, not decoded per VC and field: the allocators read the fields they need where
  // they need them, and a simulator does no per-VC work here.
  assign vc_valid_o  = front_valid;
  assign vc_active_o = active_q;
  assign vc_meta_o   = front_meta;
  assign vc_oport_o  = out_port_q;
  assign vc_outvc_o  = out_vc_q;
  assign empty_o     = (front_valid == '0);

  // A head claims the output VC the allocator gave it; a tail gives it back. Whether this input
  // wins is as random as the traffic, and a simulator mispredicts each test of it: the VC's active
  // bit is flipped by arithmetic (it changes exactly when it equals the winning flit's tail bit:
  // a head of a packet longer than one flit sets it, a tail clears it), and the port and VC are
  // stored under one test of a winning head (rarer than a win, so mostly predicted).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      active_q       <= '0;
      out_port_q     <= '0;
      out_vc_q       <= '0;
    end else begin
      active_q <= active_q ^ (V'(grant_i && (active_q[sel_vc_i]
                                             == front_meta[32'(sel_vc_i)*MW + HX_META_TAIL]))
                              << sel_vc_i);
      if (grant_i && !active_q[sel_vc_i]) begin
        out_port_q[32'(sel_vc_i)*PW +: PW] <= grant_port_i;
        out_vc_q[32'(sel_vc_i)*VW +: VW]   <= grant_outvc_i;
      end
    end
  end

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  // Packets arrive whole on each VC: a head opens VC v, its tail closes it; nothing else may start
  // on v in between (the upstream output VC is owned by one packet at a time). No test of an
  // arrival on its own, which is as random as the traffic: the VC's open bit is flipped by
  // arithmetic when it must change, the one test is of a violation, and the assertions run only
  // when it holds. (That a grant's flit kind matches its VC's state is checked by the router
  // core, for all inputs at once.)
  logic [V-1:0] open_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      open_q <= '0;
    end else begin
      open_q <= open_q ^ (V'(in_valid_i && (open_q[in_vc_i] == in_tail_i)) << in_vc_i);
      if (in_valid_i && in_head_i == open_q[in_vc_i]) begin
        assert (!(in_head_i && open_q[in_vc_i])) else hx_rtl_assert_failed($sformatf(
          "%m: packets interleave on input VC %0d: a head arrived before the open packet's tail",
          in_vc_i));
        assert (!(!in_head_i && !open_q[in_vc_i])) else hx_rtl_assert_failed(
          $sformatf("%m: body or tail flit on input VC %0d with no packet open", in_vc_i));
      end
    end
  end
`endif
endmodule
