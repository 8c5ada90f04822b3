// hx_route_mesh_dor -- dimension-order (X then Y) routing on a 2D mesh.
//
// Pure function of the router's own coordinates (inputs, so one router model serves every position)
// and the destination's. X is the column (W/E), Y the row (N/S); a packet first corrects its column,
// then its row, then leaves through the local port. Deadlock-free in one VC class: the channel
// dependency graph of XY routing on a mesh is acyclic.
module hx_route_mesh_dor #(
  parameter int CW = 8    // coordinate width
) (
  input  logic [CW-1:0] my_row_i,
  input  logic [CW-1:0] my_col_i,
  input  logic [CW-1:0] dst_row_i,
  input  logic [CW-1:0] dst_col_i,
  output logic [2:0]    port_o
);
  `include "hx_flit.svh"
  always_comb begin
    if (dst_col_i > my_col_i)       port_o = 3'(HX_PORT_E);
    else if (dst_col_i < my_col_i)  port_o = 3'(HX_PORT_W);
    else if (dst_row_i > my_row_i)  port_o = 3'(HX_PORT_S);
    else if (dst_row_i < my_row_i)  port_o = 3'(HX_PORT_N);
    else                            port_o = 3'(HX_PORT_L);
  end
endmodule
