// hx_route_board -- route computer of a board router: selects the routing function of the
// topology the router sits in (an input, so one router model serves every topology and position).
//   mode 0: HammingMesh (hx_route_hxmesh); a single board, or a grid dimension of one board, has no
//           trees, which makes it plain XY routing on the board's 2D mesh.
//   mode 1: 2D torus over the same boards (hx_route_torus), dateline classes.
// Other mode values route like mode 0.
// A router has NL local ports (one per NIC rail); a packet leaves through the local port of the
// rail its head names (hx_flit.svh HX_HDR_RAIL), the first one when that rail does not exist.
//
// adaptive_i: where hx_route_hxmesh (or hx_route_torus) offers a second minimal port, the head weighs
// the free credits (downstream buffer slots) summed over the VCs of the class it would use at each
// (credits_i, from registers) and takes the Y-first port only when its free fraction (free slots
// over the port's buffering in that class) exceeds the X-first port's by more than margin_i
// eighths (router.adaptive_margin). So balanced traffic stays on the deterministic routes and only real
// congestion diverts packets: a local choice cannot see that the other route merges with other
// flows further on (docs/adaptive-routing.md has the measurements that chose the margin). The port
// not taken leaves on alt_*_o (HammingMesh mode only): the router core switches a head to it at the
// front of its VC when the chosen port has no free VC with a credit there and then (so with
// margin_i = 8, never divert on arrival, a head diverts only when it would otherwise wait).
//
// Only a flit is routed: on an input without one this cycle the topology's route computer is not
// evaluated and the outputs are zero (nothing is written then). A cycle-based simulator so skips the
// routing logic of every idle input. Body flits are routed like heads (their route is not used;
// computing it keeps a malformed packet's flits, e.g. body flits whose head was lost, going where
// they went before this gate existed).
module hx_route_board #(
  parameter int CLW = 2,
  parameter int NL  = 1,
  parameter int V   = 2,
  parameter int P   = 4 + NL
) (
  input  logic             valid_i,    // a head flit is on this input (else every output is 0)
  input  logic             adaptive_i,
  input  logic [3:0]       margin_i,   // divert margin in eighths of the X-first port's class buffering
  input  logic [P*V*8-1:0] credits_i,  // credits per output VC, 8 bits each
  input  logic [P*8-1:0]   depths_i,   // buffer depth per VC behind each output (held constant)
  input  logic [4*V-1:0]   class_vcs_i,// VCs of each class
  input  logic [3:0]       edges_down_i,// failed edge cables of this row / column (hx_board_router)
  input  logic [1:0]       mode_i,
  input  logic [31:0]    pos_i,      // coordinate word (hx_flit.svh): {lc, lr, gc, gr}, 8 bits each
  input  logic [31:0]    dims_i,     // coordinate word of the sizes: {b, a, y, x}
  input  logic [31:0]    dst_i,      // routing field of the head flit: {dlc, dlr, dgc, dgr}
  input  logic [1:0]     rail_i,     // the head's rail field
  input  logic [2:0]     in_port_i,
  input  logic [CLW-1:0] in_class_i,
  output logic [2:0]     port_o,
  output logic [CLW-1:0] class_o,
  // The minimal port not chosen (a mesh port; valid only under adaptive routing when both
  // dimensions have work): the router core takes it instead when the head reaches the front of its
  // VC and the chosen port has no free VC with a credit (hx_router_core).
  output logic           alt_valid_o,
  output logic [2:0]     alt_port_o,
  output logic [CLW-1:0] alt_class_o
);
  logic [7:0] gr, gc, lr, lc, x, y, a, b, dgr, dgc, dlr, dlc;
  // The coordinate word (hx_flit.svh), least significant byte first: grid row, grid column, row in
  // the board, column in the board -- for the position, the sizes and the head's destination alike.
  assign {lc, lr, gc, gr} = pos_i;
  assign {b, a, y, x} = dims_i;
  assign {dlc, dlr, dgc, dgr} = dst_i;

  logic [2:0]     hm_port, to_port, hm_alt_port, to_alt_port, pri_port, alt_port;
  logic [CLW-1:0] hm_class, to_class, hm_alt_class, to_alt_class, pri_class, alt_class;
  logic           hm_alt_valid, to_alt_valid, alt_valid;
  logic           torus;
  assign torus = (mode_i == 2'd1);

  hx_route_hxmesh #(.CW(8), .CLW(CLW)) u_hxmesh (
    .en_i         (valid_i && !torus),
    .my_gr_i      (gr),
    .my_gc_i      (gc),
    .my_lr_i      (lr),
    .my_lc_i      (lc),
    .board_rows_i (a),
    .board_cols_i (b),
    .row_trees_i  (y > 8'd1),
    .col_trees_i  (x > 8'd1),
    .dst_gr_i     (dgr),
    .dst_gc_i     (dgc),
    .dst_lr_i     (dlr),
    .dst_lc_i     (dlc),
    .in_class_i   (in_class_i),
    .edges_down_i (adaptive_i ? edges_down_i : 4'd0),   // deterministic routes stay fixed
    .port_o       (hm_port),
    .class_o      (hm_class),
    .alt_valid_o  (hm_alt_valid),
    .alt_port_o   (hm_alt_port),
    .alt_class_o  (hm_alt_class)
  );

  // ---- adaptive choice between the X-first and the Y-first port ---------------------------------
  // The topology's own candidates: its deterministic port and, under adaptive routing, the other one.
  assign pri_port  = torus ? to_port : hm_port;
  assign pri_class = torus ? to_class : hm_class;
  assign alt_valid = torus ? to_alt_valid : hm_alt_valid;
  assign alt_port  = torus ? to_alt_port : hm_alt_port;
  assign alt_class = torus ? to_alt_class : hm_alt_class;

  logic [11:0] pri_score, alt_score;
  logic [11:0] pri_buf, alt_buf;   // each port's buffering in the class the packet would use there
  logic [31:0] alt_side, pri_side;
  logic        take_alt;
  logic [1:0] pri_mesh, alt_mesh;   // both are mesh ports (0..3) whenever alt_valid is high
  assign pri_mesh = pri_port[1:0];
  assign alt_mesh = alt_port[1:0];
  // Free credits are compared as fractions of each port's buffering (a cable port has 4x the
  // slots of an on-board one): take the Y-first port when
  //   alt_free / alt_buf > pri_free / pri_buf + margin_i / 8,
  // multiplied out to integers. Only a head with a choice weighs credits (in a simulation a
  // deterministic router skips the sums: measured 12% of a mesh-8x8 run when they were computed
  // for every input every cycle).
  always_comb begin
    pri_score = '0;
    alt_score = '0;
    pri_buf   = '0;
    alt_buf   = '0;
    alt_side  = '0;
    pri_side  = '0;
    take_alt  = 1'b0;
    if (valid_i && adaptive_i && alt_valid) begin
      for (int v = 0; v < V; v++) begin
        if (class_vcs_i[32'(pri_class)*V + v]) begin
          pri_buf   = pri_buf + 12'(depths_i[32'(pri_mesh)*8 +: 8]);
          pri_score = pri_score + 12'(credits_i[(32'(pri_mesh)*V + v)*8 +: 8]);
        end
        if (class_vcs_i[32'(alt_class)*V + v]) begin
          alt_buf   = alt_buf + 12'(depths_i[32'(alt_mesh)*8 +: 8]);
          alt_score = alt_score + 12'(credits_i[(32'(alt_mesh)*V + v)*8 +: 8]);
        end
      end
      alt_side = (32'(alt_score) * 32'(pri_buf)) << 3;
      pri_side = ((32'(pri_score) * 32'(alt_buf)) << 3) + 32'(margin_i) * 32'(pri_buf) * 32'(alt_buf);
      take_alt = alt_side > pri_side;
    end
  end

  hx_route_torus #(.CW(8), .CLW(CLW)) u_torus (
    .en_i         (valid_i && torus),
    .adaptive_i   (adaptive_i),
    .my_gr_i      (gr),
    .my_gc_i      (gc),
    .my_lr_i      (lr),
    .my_lc_i      (lc),
    .board_rows_i (a),
    .board_cols_i (b),
    .grid_rows_i  (x),
    .grid_cols_i  (y),
    .dst_gr_i     (dgr),
    .dst_gc_i     (dgc),
    .dst_lr_i     (dlr),
    .dst_lc_i     (dlc),
    .in_port_i    (in_port_i),
    .in_class_i   (in_class_i),
    .port_o       (to_port),
    .class_o      (to_class),
    .alt_valid_o  (to_alt_valid),
    .alt_port_o   (to_alt_port),
    .alt_class_o  (to_alt_class)
  );

  `include "hx_flit.svh"
  logic [2:0] port;
  always_comb begin
    port        = '0;
    port_o      = '0;
    class_o     = '0;
    alt_valid_o = 1'b0;
    alt_port_o  = '0;
    alt_class_o = '0;
    if (valid_i) begin
      if (take_alt) begin
        port    = alt_port;
        class_o = alt_class;
      end else begin
        port    = pri_port;
        class_o = pri_class;
      end
      if (port == 3'(HX_PORT_L) && 32'(rail_i) < NL) port_o = port + 3'(rail_i);
      else                                            port_o = port;
      // HammingMesh (and mesh, HyperX) only: on the torus a head diverted at the front of its VC
      // meets the other dimension's dateline traffic, and uniform saturation fell 5% below
      // deterministic (docs/adaptive-routing.md), so torus heads keep their arrival choice.
      alt_valid_o = adaptive_i && alt_valid && !torus;
      alt_port_o  = take_alt ? pri_port : alt_port;
      alt_class_o = take_alt ? pri_class : alt_class;
    end
  end
endmodule
