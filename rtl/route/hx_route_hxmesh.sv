// hx_route_hxmesh -- minimal HammingMesh routing with VC escalation (docs/topology.md).
//
// Global dimension order: first the column (X: on-board W/E moves and at most one row tree), then
// the row (Y: on-board N/S moves and at most one column tree), then eject. A row tree reaches the W
// and E edges of every board in its board row, so a packet leaves its board through the edge
// closer to it (ties: W) and the tree delivers it to the destination board's edge closer to the
// destination (chosen by the switch, hx_route_tree). On boards 4 or more wide the same tree is also
// a wrap-around shortcut inside one board, taken when strictly shorter (a tree costs 2 links).
// The Y dimension is the same with N/S edges and column trees. With no trees in a dimension
// (a single board in it) this is plain XY routing on the board mesh.
//
// VC classes: a packet starts in class 0 and moves up one class on the link that enters a tree, so
// a packet crosses at most two trees and needs three classes; within a class, XY on boards and
// up/down in trees keep the channel dependency graph acyclic.
//
// Minimal adaptive routing (docs/adaptive-routing.md): port_o/class_o above are the X-first
// (deterministic) choice. When both dimensions still have work, alt_valid_o offers the Y-first
// choice (alt_port_o/alt_class_o) -- toward the column tree or along the board's column -- unless
// it is an on-board move to the north (north-last: a packet that moved north on a board may not turn
// east or west in the same class). Either order is minimal and uses at most one tree per dimension,
// so three classes still suffice; within a class the board links follow the north-last turn model
// and every tree link is entered from a lower class, which keeps each class acyclic.
//
// Failed edge cables (edges_down_i, adaptive routing only; bit N: the N edge of this router's
// column, E: the E edge of its row, S and W likewise): a packet bound for a dimension's tree leaves
// through the other edge of its row or column (the same tree; up to b - 1 more board hops), and the
// on-board shortcut through that tree is not taken (the tree would deliver it back toward the dead
// edge). The moves stay X then Y within a class, so the turn rules above still hold.
module hx_route_hxmesh #(
  parameter int CW  = 8,
  parameter int CLW = 2
) (
  input  logic           en_i,         // a flit to route (else the distances are not worked out)
  input  logic [CW-1:0]  my_gr_i,      // board row in the grid
  input  logic [CW-1:0]  my_gc_i,      // board column in the grid
  input  logic [CW-1:0]  my_lr_i,      // row inside the board
  input  logic [CW-1:0]  my_lc_i,      // column inside the board
  input  logic [CW-1:0]  board_rows_i, // a
  input  logic [CW-1:0]  board_cols_i, // b
  input  logic           row_trees_i,  // the grid has more than one board column
  input  logic           col_trees_i,  // the grid has more than one board row
  input  logic [CW-1:0]  dst_gr_i,
  input  logic [CW-1:0]  dst_gc_i,
  input  logic [CW-1:0]  dst_lr_i,
  input  logic [CW-1:0]  dst_lc_i,
  input  logic [CLW-1:0] in_class_i,
  input  logic [3:0]     edges_down_i,
  output logic [2:0]     port_o,
  output logic [CLW-1:0] class_o,
  output logic           alt_valid_o,  // the Y-first port below is also minimal and allowed
  output logic [2:0]     alt_port_o,
  output logic [CLW-1:0] alt_class_o
);
  `include "hx_flit.svh"

  // Distances use one extra bit so that "2 + ..." cannot overflow.
  logic [CW:0] last_col, last_row;           // b - 1, a - 1
  logic [CW:0] to_w, to_e, to_n, to_s;       // hops from here to each edge
  logic [CW:0] dst_to_w, dst_to_e, dst_to_n, dst_to_s;
  logic [CW:0] x_direct, y_direct;           // on-board distance in each dimension
  logic [CW:0] x_via_tree, y_via_tree;       // the same through the dimension's tree
  logic        leave_w, leave_n;             // which edge a tree-bound packet leaves through
  logic        w_up, e_up, n_up, s_up;       // the edge cables of this row and column
  logic        x_tree, y_tree;               // the dimension is resolved through its tree
  logic [2:0]  dor_port;
  logic [2:0]  port;
  logic        enters_tree;

  // (Continuous assignments: Icarus does not take constant bit selects inside always_comb.)
  assign w_up = !edges_down_i[HX_PORT_W];
  assign e_up = !edges_down_i[HX_PORT_E];
  assign n_up = !edges_down_i[HX_PORT_N];
  assign s_up = !edges_down_i[HX_PORT_S];

  // Worked out only for a flit (en_i): without one everything below is zero, and a cycle-based
  // simulator skips the distances.
  always_comb begin
    last_col = '0; last_row = '0; to_w = '0; to_e = '0; to_n = '0; to_s = '0;
    dst_to_w = '0; dst_to_e = '0; dst_to_n = '0; dst_to_s = '0; x_direct = '0; y_direct = '0;
    leave_w = 1'b0; leave_n = 1'b0; x_via_tree = '0; y_via_tree = '0; x_tree = 1'b0; y_tree = 1'b0;
    if (en_i) begin
      last_col = {1'b0, board_cols_i} - 1'b1;
      last_row = {1'b0, board_rows_i} - 1'b1;
      to_w = {1'b0, my_lc_i};
      to_e = last_col - {1'b0, my_lc_i};
      to_n = {1'b0, my_lr_i};
      to_s = last_row - {1'b0, my_lr_i};
      dst_to_w = {1'b0, dst_lc_i};
      dst_to_e = last_col - {1'b0, dst_lc_i};
      dst_to_n = {1'b0, dst_lr_i};
      dst_to_s = last_row - {1'b0, dst_lr_i};
      x_direct = (dst_lc_i > my_lc_i) ? {1'b0, dst_lc_i - my_lc_i} : {1'b0, my_lc_i - dst_lc_i};
      y_direct = (dst_lr_i > my_lr_i) ? {1'b0, dst_lr_i - my_lr_i} : {1'b0, my_lr_i - dst_lr_i};
      leave_w = (w_up == e_up) ? (to_w <= to_e) : w_up;
      leave_n = (n_up == s_up) ? (to_n <= to_s) : n_up;
      x_via_tree = (leave_w ? to_w : to_e) + 2 + ((dst_to_w <= dst_to_e) ? dst_to_w : dst_to_e);
      y_via_tree = (leave_n ? to_n : to_s) + 2 + ((dst_to_n <= dst_to_s) ? dst_to_n : dst_to_s);
      x_tree = row_trees_i && ((dst_gc_i != my_gc_i) || ((x_via_tree < x_direct) && w_up && e_up));
      y_tree = col_trees_i && ((dst_gr_i != my_gr_i) || ((y_via_tree < y_direct) && n_up && s_up));
    end
  end

  hx_route_mesh_dor #(.CW(CW)) u_dor (
    .my_row_i  (my_lr_i),
    .my_col_i  (my_lc_i),
    .dst_row_i (dst_lr_i),
    .dst_col_i (dst_lc_i),
    .port_o    (dor_port)
  );

  // The Y port: toward the column tree's edge when the row dimension goes through it, else along
  // the board's column. The deterministic route takes it once X is done; the adaptive one may
  // take it first. Like the distances, worked out only for a flit (outputs 0 without one).
  logic       x_work, y_work;   // the dimension still has moves (on the board or through its tree)
  logic [2:0] y_port;
  logic       y_enters_tree;
  always_comb begin
    y_port = '0; y_enters_tree = 1'b0; port = '0; enters_tree = 1'b0; x_work = 1'b0; y_work = 1'b0;
    port_o = '0; class_o = '0; alt_valid_o = 1'b0; alt_port_o = '0; alt_class_o = '0;
    if (en_i) begin
      if (y_tree) begin
        y_port = leave_n ? 3'(HX_PORT_N) : 3'(HX_PORT_S);
        y_enters_tree = leave_n ? (to_n == '0) : (to_s == '0);
      end else begin
        y_port = (dst_lr_i < my_lr_i) ? 3'(HX_PORT_N) : 3'(HX_PORT_S);
      end

      if (x_tree) begin
        port = leave_w ? 3'(HX_PORT_W) : 3'(HX_PORT_E);
        enters_tree = leave_w ? (to_w == '0) : (to_e == '0);
      end else if (y_tree && (dst_lc_i == my_lc_i)) begin
        port = y_port;   // the column tree's edge
        enters_tree = y_enters_tree;
      end else begin
        port = dor_port;
      end
      port_o  = port;
      class_o = enters_tree ? in_class_i + CLW'(1) : in_class_i;

      // The Y-first alternative.
      x_work = x_tree || (dst_lc_i != my_lc_i);
      y_work = y_tree || (dst_lr_i != my_lr_i);
      alt_valid_o = x_work && y_work && !(y_port == 3'(HX_PORT_N) && !y_enters_tree);
      alt_port_o  = y_port;
      alt_class_o = y_enters_tree ? in_class_i + CLW'(1) : in_class_i;
    end
  end
endmodule
