// hx_route_torus -- routing on a 2D torus with dateline VC classes: dimension order (X then Y), and
// under adaptive routing a second minimal port (Y before X) for hx_route_board to weigh.
//
// The torus baseline wires the same boards edge to edge (with wrap-around) instead of through
// trees, so positions are given as board and in-board coordinates and turned into global ones here:
// X = gc * b + lc (of KX = y * b columns), Y = gr * a + lr (of KY = x * a rows). Each dimension goes
// the shorter way round (ties: E or S).
//
// Classes, deterministic (adaptive_i low): class 0 until the packet crosses the wrap-around link of
// the dimension it travels in, class 1 after; it restarts at the dimension change. This breaks the
// cycle of each ring, and X-then-Y order keeps the two dimensions acyclic (2 classes).
//
// Classes, adaptive (adaptive_i high): the class counts the wrap-around links crossed, in either
// dimension, and never restarts (0, 1 or 2 on a minimal route: 3 classes). Inside one class a packet
// uses only the non-wrap links, a 2D mesh, and there the alternative follows the north-last turn
// model: it is offered only when the packet still has X work and its Y move is south, so no packet
// ever turns from north to east or west (docs/adaptive-routing.md has the whole argument).
module hx_route_torus #(
  parameter int CW  = 8,
  parameter int CLW = 2
) (
  input  logic           en_i,          // a flit to route (else nothing is worked out: outputs 0)
  input  logic           adaptive_i,
  input  logic [CW-1:0]  my_gr_i,
  input  logic [CW-1:0]  my_gc_i,
  input  logic [CW-1:0]  my_lr_i,
  input  logic [CW-1:0]  my_lc_i,
  input  logic [CW-1:0]  board_rows_i,  // a
  input  logic [CW-1:0]  board_cols_i,  // b
  input  logic [CW-1:0]  grid_rows_i,   // x
  input  logic [CW-1:0]  grid_cols_i,   // y
  input  logic [CW-1:0]  dst_gr_i,
  input  logic [CW-1:0]  dst_gc_i,
  input  logic [CW-1:0]  dst_lr_i,
  input  logic [CW-1:0]  dst_lc_i,
  input  logic [2:0]     in_port_i,
  input  logic [CLW-1:0] in_class_i,
  output logic [2:0]     port_o,
  output logic [CLW-1:0] class_o,
  output logic           alt_valid_o,   // adaptive only: a second minimal port
  output logic [2:0]     alt_port_o,
  output logic [CLW-1:0] alt_class_o
);
  `include "hx_flit.svh"
  localparam int GW = 2 * CW;   // global coordinate width

  logic [GW-1:0] kx, ky, my_x, my_y, dst_x, dst_y, dx, dy;
  logic [2:0]    x_port, y_port;
  logic          x_wrap, y_wrap;  // the X / Y move takes the wrap-around link
  logic          wrap;
  logic          same_dim;      // the packet keeps travelling in the dimension it came in on
  logic [2:0]    port;

  always_comb begin
    kx = '0; ky = '0; my_x = '0; my_y = '0; dst_x = '0; dst_y = '0; dx = '0; dy = '0;
    x_port = '0; y_port = '0; x_wrap = 1'b0; y_wrap = 1'b0; wrap = 1'b0; same_dim = 1'b0;
    port = '0;
    port_o = '0;
    class_o = '0;
    alt_valid_o = 1'b0;
    alt_port_o = '0;
    alt_class_o = '0;
    if (en_i) begin
      kx    = GW'(grid_cols_i) * GW'(board_cols_i);
      ky    = GW'(grid_rows_i) * GW'(board_rows_i);
      my_x  = GW'(my_gc_i) * GW'(board_cols_i) + GW'(my_lc_i);
      my_y  = GW'(my_gr_i) * GW'(board_rows_i) + GW'(my_lr_i);
      dst_x = GW'(dst_gc_i) * GW'(board_cols_i) + GW'(dst_lc_i);
      dst_y = GW'(dst_gr_i) * GW'(board_rows_i) + GW'(dst_lr_i);
      // Eastward / southward distance around the ring.
      dx = (dst_x >= my_x) ? dst_x - my_x : dst_x + kx - my_x;
      dy = (dst_y >= my_y) ? dst_y - my_y : dst_y + ky - my_y;
      x_port = (dx <= kx - dx) ? 3'(HX_PORT_E) : 3'(HX_PORT_W);
      y_port = (dy <= ky - dy) ? 3'(HX_PORT_S) : 3'(HX_PORT_N);
      x_wrap = (x_port == 3'(HX_PORT_E)) ? (my_x == kx - 1'b1) : (my_x == '0);
      y_wrap = (y_port == 3'(HX_PORT_S)) ? (my_y == ky - 1'b1) : (my_y == '0);
      if (dx != '0) begin
        port = x_port;
        wrap = x_wrap;
        same_dim = (in_port_i == 3'(HX_PORT_E)) || (in_port_i == 3'(HX_PORT_W));
      end else if (dy != '0) begin
        port = y_port;
        wrap = y_wrap;
        same_dim = (in_port_i == 3'(HX_PORT_N)) || (in_port_i == 3'(HX_PORT_S));
      end else begin
        port = 3'(HX_PORT_L);
        wrap = 1'b0;
        same_dim = 1'b1;
      end
      port_o = port;
      if (port == 3'(HX_PORT_L)) class_o = in_class_i;
      else if (adaptive_i)       class_o = in_class_i + CLW'(wrap);
      else if (same_dim)         class_o = in_class_i | CLW'(wrap);
      else                       class_o = CLW'(wrap);
      alt_valid_o = adaptive_i && (dx != '0) && (dy != '0) && (y_port == 3'(HX_PORT_S));
      alt_port_o  = y_port;
      alt_class_o = in_class_i + CLW'(y_wrap);
    end
  end
endmodule
