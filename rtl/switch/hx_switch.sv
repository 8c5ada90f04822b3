// hx_switch -- a K-port switch: the router core (hx_router_core) with one tree route computer
// (hx_route_tree), one Dragonfly route computer (hx_route_dragonfly) and one multidim route
// computer (hx_route_multidim) per input, selected by kind_i; the loads their adaptive choices
// weigh are summed once for all inputs (hx_port_load). Used for row trees, column trees, the
// fat-tree baseline, the routers of the Dragonfly baseline, and the NPU routers and Switch-dimension
// switches of multi-dimensional platforms; its role (single switch, leaf or spine, leaf index, up
// ports, up-port policy, tree kind; or Dragonfly position and routing; or multidim shape and
// position) and the system's dimensions are inputs held constant after reset, so one verilated
// model per radix serves every switch of every topology.
//
// Pipeline: as the router core, 2 cycles per switch at zero load (see hx_router_core).
module hx_switch #(
  parameter int K     = 8,     // ports (radix)
  parameter int V     = 2,
  parameter int D     = 32,
  parameter int DDOWN = D,
  parameter int W     = 256,
  parameter int PW    = (K > 1) ? $clog2(K) : 1,
  parameter int VW    = (V > 1) ? $clog2(V) : 1,
  // Route computers built per input: bit 0 tree (hx_route_tree), bit 1 Dragonfly
  // (hx_route_dragonfly), bit 2 multidim (hx_route_multidim). The emulator's variants build all
  // three so one model per radix serves every kind_i; a chip built for one role needs only its own
  // (hxemu area synthesizes that one). A head whose kind_i has no route computer goes to port 0.
  parameter int ROUTES = 7
) (
  input  logic            clk_i,
  input  logic            rst_i,
  // place in the tree and routing policy
  input  logic [2:0]      kind_i,        // 0 row tree, 1 column tree, 2 fat tree (destination id),
                                         // 3 Dragonfly router, 4 multidim NPU router, 5 multidim
                                         // Switch-dimension switch (hx_route_tree)
  input  logic [1:0]      level_i,       // 0 single switch, 1 leaf, 2 spine
  input  logic [7:0]      index_i,       // leaf index
  input  logic [3:0]      down_log2_i,   // log2 of the down ports of a leaf; Dragonfly: log2(h)
  input  logic [7:0]      up_ports_i,    // up ports of a leaf
  input  logic            up_hash_i,     // up-port choice: 1 hash of destination, 0 adaptive
  input  logic [31:0]     dims_i,        // sizes as a coordinate word (hx_flit.svh): {b, a, y, x};
                                         // Dragonfly: {h, p, a, g} (hx_route_dragonfly)
  input  logic [31:0]     pos_i,         // Dragonfly: this router's {-, -, router, group}
  input  logic            adaptive_i,    // Dragonfly: UGAL-L at the source router
  input  logic [7:0]      ugal_thresh_i, // Dragonfly: UGAL threshold in flits
  input  logic [7:0]      md_kinds_i,    // multidim (hx_route_multidim): kind of each dimension,
  input  logic [15:0]     md_lanes_i,    //   lanes of each dimension,
  input  logic [31:0]     md_base_i,     //   first port of each dimension,
  input  logic [7:0]      md_order_i,    //   routing order;
  input  logic [1:0]      md_dim_i,      //   kind 5: the dimension the switch's group spans
  input  logic [V*2-1:0]  vc_class_i,
  input  logic [4*V-1:0]  class_vcs_i,
  input  logic [V*V-1:0]  vc_allow_i,    // output VCs each input VC may take (VC policy)
  input  logic [K*8-1:0]  out_depth_i,
  // the link behind each port is down from this cycle on (a failed cable or switch port; may rise
  // at any cycle): flits sent on it are lost, adaptive routes avoid it (hx_router_core,
  // hx_route_tree)
  input  logic [K-1:0]    port_down_i,
  // links
  input  logic [K-1:0]    in_valid_i,
  input  logic [K-1:0]    in_head_i,
  input  logic [K-1:0]    in_tail_i,
  input  logic [K*VW-1:0] in_vc_i,
  input  logic [K*W-1:0]  in_data_i,
  output logic [K-1:0]    in_credit_valid_o,
  output logic [K*VW-1:0] in_credit_vc_o,
  output logic [K-1:0]    out_valid_o,
  output logic [K-1:0]    out_head_o,
  output logic [K-1:0]    out_tail_o,
  output logic [K*VW-1:0] out_vc_o,
  output logic [K*W-1:0]  out_data_o,
  input  logic [K-1:0]    out_credit_valid_i,
  input  logic [K*VW-1:0] out_credit_vc_i,
  output logic [K-1:0]    stall_credit_o,  // statistics: see hx_router_core
  output logic [K-1:0]    stall_sa_o,
  output logic            idle_o,
  output logic            drained_o,
  output logic            error_o
);
  `include "hx_flit.svh"

  logic [K*PW-1:0] rt_port;
  logic [K*2-1:0]  rt_class;
  logic [K*V-1:0]  ready_vcs;
  // The tree and multidim route computers weigh free output VCs, the Dragonfly ones credit counts,
  // both per (output port, class) from hx_port_load.
  logic [K*V*8-1:0] out_credits;
  logic [K*4*5-1:0]  load_free;
  logic [K*4*13-1:0] load_occ;
  logic             dragonfly, multidim;
  // Registered: the allocators and route computers then depend on registers only (hx_router_core).
  logic [K-1:0]     port_down_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) port_down_q <= '0;
    else       port_down_q <= port_down_i;
  end
  assign dragonfly = kind_i == 3'd3;
  assign multidim = kind_i == 3'd4;

  // A build without some route computer (ROUTES) does not read its set-up inputs; they stay ports so
  // every build has one interface. Verilator does not report signals named unused_*.
  if ((ROUTES & 1) == 0) begin : gen_tree_unused
    logic unused_tree;
    assign unused_tree = ^{level_i, index_i, down_log2_i, up_ports_i, up_hash_i, md_dim_i, dims_i};
  end
  if ((ROUTES & 2) == 0) begin : gen_df_unused
    logic unused_df;
    assign unused_df = ^{adaptive_i, ugal_thresh_i, down_log2_i, dims_i, pos_i, load_occ};
  end
  if ((ROUTES & 4) == 0) begin : gen_md_unused
    logic unused_md;
    assign unused_md = ^{md_kinds_i, md_lanes_i, md_base_i, md_order_i, dims_i, pos_i};
  end
  if ((ROUTES & 5) == 0) begin : gen_free_unused
    logic unused_free;
    assign unused_free = ^load_free;
  end

  // Free VCs per (port, class) while a tree leaf chooses up ports adaptively or the switch is a
  // multidim router; occupancy while a Dragonfly router routes UGAL. Otherwise both stay zero.
  logic free_en, occ_en;
  assign free_en = ((ROUTES & 1) != 0 && level_i == 2'd1 && !up_hash_i) || ((ROUTES & 4) != 0 && multidim);
  assign occ_en  = (ROUTES & 2) != 0 && dragonfly && adaptive_i;
  hx_port_load #(.P(K), .V(V), .FW(5), .OW(13)) u_load (
    .free_en_i   (free_en),
    .occ_en_i    (occ_en),
    .ready_vcs_i (ready_vcs),
    .credits_i   (out_credits),
    .depths_i    (out_depth_i),
    .class_vcs_i (class_vcs_i),
    .free_o      (load_free),
    .occ_o       (load_occ)
  );

  for (genvar p = 0; p < K; p++) begin : gen_rc
    logic [1:0]    in_class;
    logic          head;
    logic [PW-1:0] tree_port, df_port, md_port;
    logic [1:0]    tree_class, df_class, md_class;
    assign in_class = vc_class_i[32'(in_vc_i[p*VW +: VW])*2 +: 2];
    assign head = in_valid_i[p] && in_head_i[p];
    if ((ROUTES & 1) != 0) begin : gen_tree
    hx_route_tree #(.P(K), .PW(PW), .CLW(2), .FW(5)) u_rc (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .kind_i      (kind_i),
      .md_dim_i    (md_dim_i),
      .level_i     (level_i),
      .index_i     (index_i),
      .down_log2_i (down_log2_i),
      .up_ports_i  (up_ports_i),
      .up_hash_i   (up_hash_i),
      .dims_i      (dims_i),
      .valid_i     (in_valid_i[p]),
      .head_i      (head),
      .hdr_i       (in_data_i[p*W +: 64]),
      .in_class_i  (in_class),
      .free_i      (load_free),
      .port_down_i (port_down_q),
      .port_o      (tree_port),
      .class_o     (tree_class)
    );
    end else begin : gen_no_tree
      assign tree_port  = '0;
      assign tree_class = '0;
    end
    if ((ROUTES & 2) != 0) begin : gen_df
    hx_route_dragonfly #(.P(K), .PW(PW), .CLW(2), .IN_PORT(p), .OW(13)) u_df (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .enable_i    (dragonfly),
      .adaptive_i  (adaptive_i),
      .thresh_i    (ugal_thresh_i),
      .dims_i      (dims_i),
      .pos_i       (pos_i),
      .hlog2_i     (down_log2_i),
      .head_i      (head),
      .dst_i       (in_data_i[p*W + 32 +: 32]),
      .in_class_i  (in_class),
      .occ_i       (load_occ),
      .port_o      (df_port),
      .class_o     (df_class)
    );
    end else begin : gen_no_df
      assign df_port  = '0;
      assign df_class = '0;
    end
    if ((ROUTES & 4) != 0) begin : gen_md
    hx_route_multidim #(.P(K), .PW(PW), .CLW(2), .IN_PORT(p), .FW(5)) u_md (
      .clk_i       (clk_i),
      .rst_i       (rst_i),
      .enable_i    (multidim),
      .dims_i      (dims_i),
      .pos_i       (pos_i),
      .kinds_i     (md_kinds_i),
      .lanes_i     (md_lanes_i),
      .base_i      (md_base_i),
      .order_i     (md_order_i),
      .head_i      (head),
      .dst_i       (in_data_i[p*W + HX_HDR_DGR_LSB +: 32]),
      .rail_i      (in_data_i[p*W + HX_HDR_RAIL_LSB +: HX_HDR_RAIL_W]),
      .in_class_i  (in_class),
      .free_i      (load_free),
      .port_o      (md_port),
      .class_o     (md_class)
    );
    end else begin : gen_no_md
      assign md_port  = '0;
      assign md_class = '0;
    end
    assign rt_port[p*PW +: PW] = dragonfly ? df_port : multidim ? md_port : tree_port;
    assign rt_class[p*2 +: 2]  = dragonfly ? df_class : multidim ? md_class : tree_class;
  end

  hx_router_core #(.P(K), .V(V), .D(D), .DDOWN(DDOWN), .W(W), .PW(PW), .VW(VW), .CLW(2), .ALT(0)) u_core (
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
    .rt_alt_valid_i     ({K{1'b0}}),
    .rt_alt_port_i      ({(K*PW){1'b0}}),
    .rt_alt_class_i     ({(K*2){1'b0}}),
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
    .out_ready_vcs_o    (ready_vcs),
    .out_credits_o      (out_credits),
    .stall_credit_o     (stall_credit_o),
    .stall_sa_o         (stall_sa_o),
    .idle_o             (idle_o),
    .drained_o          (drained_o),
    .error_o            (error_o)
  );
endmodule
