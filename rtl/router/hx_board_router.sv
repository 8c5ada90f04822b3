// hx_board_router -- the router of one accelerator on a HammingMesh board (ports N, E, S, W and NL
// local ports, one per NIC rail), or of a torus node. The router core (hx_router_core) plus one
// route computer per input.
//
// Pipeline: 2 cycles per hop at zero load (see hx_router_core). Position, grid dimensions, routing
// mode and the VC-class tables are inputs held constant after reset, so one verilated model serves
// every router of a system.
module hx_board_router #(
  parameter int NL    = 1,     // local ports (NIC rails), 1..4
  parameter int V     = 2,     // VCs per port
  parameter int D     = 32,    // input buffer slots per VC
  parameter int DDOWN = D,     // largest buffer depth per VC of the neighbours
  parameter int W     = 256,   // payload bits per flit
  // 1: a router for deterministic HammingMesh / mesh routing with every link up, and nothing else:
  // mode_i, adaptive_i, margin_i, port_down_i and edges_down_i are ignored (taken as 0), so the
  // torus, adaptive and failed-link logic is not built (a cycle-based simulation of this variant
  // runs about 10% fewer instructions per cycle). 0: every routing mode and link failures, chosen
  // by those inputs at run time.
  parameter int DOR_ONLY = 0,
  parameter int VW    = (V > 1) ? $clog2(V) : 1,
  parameter int P     = 4 + NL
) (
  input  logic            clk_i,
  input  logic            rst_i,
  // where this router is and how it routes
  input  logic [1:0]      mode_i,        // 0 HammingMesh / mesh, 1 torus
  input  logic            adaptive_i,    // minimal adaptive (docs/adaptive-routing.md)
  input  logic [3:0]      margin_i,      // adaptive divert margin, eighths of a class's buffering
  input  logic [31:0]     pos_i,         // coordinate word (hx_flit.svh): {lc, lr, gc, gr}
  input  logic [31:0]     dims_i,        // sizes as a coordinate word (hx_flit.svh): {b, a, y, x}
  input  logic [V*2-1:0]  vc_class_i,    // class of each VC (2 bits per VC)
  input  logic [4*V-1:0]  class_vcs_i,   // VCs of each class (V bits per class)
  input  logic [V*V-1:0]  vc_allow_i,    // output VCs each input VC may take (VC policy)
  input  logic [P*8-1:0]  out_depth_i,   // buffer depth per VC behind each output (credits)
  // Failed links, from this cycle on (may rise at any cycle): port_down_i, the link behind each
  // output is down (flits sent on it are lost; hx_router_core); edges_down_i, the cable of the
  // board edge this router's row or column leaves through is down (bit N: the N edge of its column,
  // E: the E edge of its row, S, W likewise; port numbering of hx_flit.svh), as a fabric manager
  // tells every router of that row or column. Adaptive routing leaves through the other edge.
  input  logic [P-1:0]    port_down_i,
  input  logic [3:0]      edges_down_i,
  // links in, port order N, E, S, W, L0 .. L(NL-1)
  input  logic [P-1:0]    in_valid_i,
  input  logic [P-1:0]    in_head_i,
  input  logic [P-1:0]    in_tail_i,
  input  logic [P*VW-1:0] in_vc_i,
  input  logic [P*W-1:0]  in_data_i,
  output logic [P-1:0]    in_credit_valid_o,
  output logic [P*VW-1:0] in_credit_vc_o,
  // links out
  output logic [P-1:0]    out_valid_o,
  output logic [P-1:0]    out_head_o,
  output logic [P-1:0]    out_tail_o,
  output logic [P*VW-1:0] out_vc_o,
  output logic [P*W-1:0]  out_data_o,
  input  logic [P-1:0]    out_credit_valid_i,
  input  logic [P*VW-1:0] out_credit_vc_i,
  output logic [P-1:0]    stall_credit_o,  // statistics: see hx_router_core
  output logic [P-1:0]    stall_sa_o,
  output logic            idle_o,
  output logic            drained_o,
  output logic            error_o
);
  `include "hx_flit.svh"

  logic [P*3-1:0] rt_port;
  logic [P*2-1:0] rt_class;
  logic [P-1:0]   rt_alt_valid;
  logic [P*3-1:0] rt_alt_port;
  logic [P*2-1:0] rt_alt_class;
  // Credits per output VC: what the adaptive choice weighs. (Free-with-credit VCs: unused here.)
  logic [P*V*8-1:0] credits;
  logic [P*V-1:0]   unused_ready_vcs;
  // port_down_i registered: the allocators then depend on registers only (hx_router_core). The route
  // computers take edges_down_i as it is: like the head's fields they depend on inputs only, so a
  // cycle-based simulator evaluates them when an input changes, not after every clock edge (with a
  // register here they cost 5% more instructions on hx2mesh-64 traffic).
  logic [P-1:0]     port_down_q;
  // What the route computers and the core see of the run-time routing inputs (constants in a
  // DOR_ONLY router).
  logic [1:0]       mode;
  logic             adaptive;
  logic [3:0]       edges_down;
  if (DOR_ONLY != 0) begin : gen_dor_only
    assign mode       = 2'd0;
    assign adaptive   = 1'b0;
    assign edges_down = 4'd0;
    assign port_down_q = '0;
    logic unused_inputs;
    assign unused_inputs = ^{mode_i, adaptive_i, port_down_i, edges_down_i};
  end else begin : gen_any_routing
    assign mode       = mode_i;
    assign adaptive   = adaptive_i;
    assign edges_down = edges_down_i;
    always_ff @(posedge clk_i) begin
      if (rst_i) port_down_q <= '0;
      else       port_down_q <= port_down_i;
    end
  end

  for (genvar p = 0; p < P; p++) begin : gen_rc
    logic [1:0] in_class;
    logic [2:0] in_port;
    assign in_port = 3'(p);
    assign in_class = vc_class_i[32'(in_vc_i[p*VW +: VW])*2 +: 2];
    hx_route_board #(.CLW(2), .NL(NL), .V(V), .P(P)) u_rc (
      .valid_i     (in_valid_i[p] && in_head_i[p]),
      .adaptive_i  (adaptive),
      .margin_i    (margin_i),
      .credits_i   (credits),
      .depths_i    (out_depth_i),
      .class_vcs_i (class_vcs_i),
      .edges_down_i (edges_down),
      .mode_i     (mode),
      .pos_i      (pos_i),
      .dims_i     (dims_i),
      .dst_i      (in_data_i[p*W + HX_HDR_DGR_LSB +: 32]),
      .rail_i     (in_data_i[p*W + HX_HDR_RAIL_LSB +: HX_HDR_RAIL_W]),
      .in_port_i  (in_port),
      .in_class_i (in_class),
      .port_o     (rt_port[p*3 +: 3]),
      .class_o    (rt_class[p*2 +: 2]),
      .alt_valid_o (rt_alt_valid[p]),
      .alt_port_o  (rt_alt_port[p*3 +: 3]),
      .alt_class_o (rt_alt_class[p*2 +: 2])
    );
  end


  // (A DOR_ONLY router's route computers never offer an alternative port: adaptive is 0.)
  hx_router_core #(.P(P), .V(V), .D(D), .DDOWN(DDOWN), .W(W), .PW(3), .VW(VW), .CLW(2),
                   .ALT((DOR_ONLY != 0) ? 0 : 1)) u_core (
    .clk_i              (clk_i),
    .rst_i              (rst_i),
    .in_valid_i         (in_valid_i),
    .in_head_i          (in_head_i),
    .in_tail_i          (in_tail_i),
    .in_vc_i            (in_vc_i),
    .in_data_i          (in_data_i),
    .in_credit_valid_o  (in_credit_valid_o),
    .in_credit_vc_o     (in_credit_vc_o),
    .rt_port_i          (rt_port),
    .rt_class_i         (rt_class),
    .rt_alt_valid_i     (rt_alt_valid),
    .rt_alt_port_i      (rt_alt_port),
    .rt_alt_class_i     (rt_alt_class),
    .class_vcs_i        (class_vcs_i),
    .vc_allow_i         (vc_allow_i),
    .out_depth_i        (out_depth_i),
    .port_down_i        (port_down_q),
    .out_valid_o        (out_valid_o),
    .out_head_o         (out_head_o),
    .out_tail_o         (out_tail_o),
    .out_vc_o           (out_vc_o),
    .out_data_o         (out_data_o),
    .out_credit_valid_i (out_credit_valid_i),
    .out_credit_vc_i    (out_credit_vc_i),
    .out_ready_vcs_o    (unused_ready_vcs),
    .out_credits_o      (credits),
    .stall_credit_o     (stall_credit_o),
    .stall_sa_o         (stall_sa_o),
    .idle_o             (idle_o),
    .drained_o          (drained_o),
    .error_o            (error_o)
  );
endmodule
