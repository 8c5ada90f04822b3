// hx_route_tree -- route computer of one input of a tree switch (row tree, column tree, or the
// fat-tree baseline).
//
// A tree's endpoints ("tree ports") are numbered 0 .. n-1:
//   row tree    (kind 0): port 2*j is the W edge, 2*j + 1 the E edge of board column j; a packet
//                         enters the destination board through the edge closer to its column
//                         (ties: W), so the tree port is 2*dgc + (dlc > b-1-dlc);
//   column tree (kind 1): likewise 2*i (N edge) / 2*i + 1 (S edge) of board row i, from dgr, dlr, a;
//   fat tree    (kind 2): the destination node id;
//   multidim    (kind 5): a Switch dimension's group (hx_route_multidim): the destination's index
//                         in dimension md_dim_i, byte md_dim_i of the head's route field.
// Roles (level_i):
//   0 single switch: the tree port is the switch port;
//   1 leaf of a two-level tree: ports 0 .. 2^down_log2-1 go down to tree ports
//     index*2^down_log2 + k; ports from 2^down_log2 on, up_ports_i of them, go up to the spines.
//     A destination below goes down; anything else goes up, to the up port chosen adaptively
//     (most output VCs of the packet's class free with credit, ties broken round robin) or by a
//     hash of the destination (up_hash_i), which keeps a flow on one path and so in order;
//   2 spine: port l goes down to leaf l, i.e. tree port >> down_log2.
// The VC class is carried through unchanged: boards escalate it on the link that enters a tree.
//
// Failed links (port_down_i, from a register of the switch): under adaptive routing (up_hash_i 0)
// the up-port choice skips ports that are down, and a row or column tree whose port toward the
// destination board's chosen edge is down delivers to the same board's other edge of that row or
// column (tree port ^ 1, on the same switch), from where the board routes the packet on. Under
// hash routing the route is fixed: a packet routed to a dead port is lost there (hx_output_unit).
module hx_route_tree #(
  parameter int P   = 8,      // switch ports
  parameter int PW  = (P > 1) ? $clog2(P) : 1,
  parameter int CLW = 2,
  parameter int FW  = 5       // bits of a free-VC count (hx_port_load)
) (
  input  logic            clk_i,
  input  logic            rst_i,
  input  logic [2:0]      kind_i,
  input  logic [1:0]      md_dim_i,      // kind 5: the dimension the group spans
  input  logic [1:0]      level_i,
  input  logic [7:0]      index_i,       // leaf index
  input  logic [3:0]      down_log2_i,   // log2 of down ports per leaf
  input  logic [7:0]      up_ports_i,    // up ports per leaf (tapering: fewer than down ports)
  input  logic            up_hash_i,     // 1: hash of the destination, 0: adaptive
  input  logic [31:0]     dims_i,        // coordinate word of the sizes (hx_flit.svh): {b, a, y, x}
  input  logic            valid_i,       // a flit is on the input this cycle (the up-port scan runs)
  input  logic            head_i,        // a head flit is on the input this cycle (advances the tie-break)
  input  logic [63:0]     hdr_i,         // routing fields of the head flit
  input  logic [CLW-1:0]  in_class_i,
  input  logic [P*4*FW-1:0] free_i,     // output VCs free with credit per (port * 4 + class),
                                         // hx_port_load (valid while this is an adaptive leaf)
  input  logic [P-1:0]    port_down_i,   // the link behind each output is down
  output logic [PW-1:0]   port_o,
  output logic [CLW-1:0]  class_o
);
  `include "hx_flit.svh"
  localparam int PW1 = PW + 1;
  localparam int PP  = 1 << PW;

  logic [7:0]  a, b, dgr, dgc, dlr, dlc;
  logic [15:0] dst;
  logic [15:0] tree_port;
  logic [15:0] leaf_of_dst;
  logic [8:0]  far_c, far_r;       // b-1-dlc, a-1-dlr
  logic [7:0]  hash;
  logic [15:0] hash_pick;
  logic [PW-1:0] up_first;
  logic [PW-1:0] up_adaptive;
  logic [PW-1:0] up_hashed;
  logic [PW-1:0] rr_q;             // rotating tie-break start among the up ports
  logic [FW-1:0] best_score;
  logic [FW-1:0] score;
  logic [PW-1:0] cand;
  logic [PW:0]   cand_wide;
  logic [PP-1:0] down;             // port_down_i, indexable by any PW-bit port number
  logic          found;
  logic          any_down;
  assign any_down = (port_down_i != '0);
  logic [15:0]   base;             // first tree port below this switch
  logic [15:0]   dest_port;        // tree port delivered to, after a failed edge's detour
  logic [PW-1:0] edge_own, edge_other;
  assign down = PP'(port_down_i);

  assign a   = dims_i[HX_COORD_LR_LSB +: 8];
  assign b   = dims_i[HX_COORD_LC_LSB +: 8];
  assign dst = hdr_i[HX_HDR_DST_LSB +: 16];
  assign dgr = hdr_i[HX_HDR_DGR_LSB +: 8];
  assign dgc = hdr_i[HX_HDR_DGC_LSB +: 8];
  assign dlr = hdr_i[HX_HDR_DLR_LSB +: 8];
  assign dlc = hdr_i[HX_HDR_DLC_LSB +: 8];

  always_comb begin
    far_c = {1'b0, b} - 9'd1 - {1'b0, dlc};
    far_r = {1'b0, a} - 9'd1 - {1'b0, dlr};
    case (kind_i)
      3'd0:    tree_port = {7'd0, dgc, 1'b0} + {15'd0, ({1'b0, dlc} > far_c)};
      3'd1:    tree_port = {7'd0, dgr, 1'b0} + {15'd0, ({1'b0, dlr} > far_r)};
      3'd5:    tree_port = {8'd0, hdr_i[HX_HDR_DGR_LSB + 32'(md_dim_i)*8 +: 8]};
      default: tree_port = dst;
    endcase
    // A failed edge link: the same board's other edge (row and column trees, adaptive only). Worked
    // out only while some port is down (a simulator then skips it in every healthy cycle).
    base = (level_i == 2'd1) ? ({8'd0, index_i} << down_log2_i) : 16'd0;
    edge_own   = '0;
    edge_other = '0;
    dest_port = tree_port;
    if (any_down && !up_hash_i && (kind_i == 3'd0 || kind_i == 3'd1) && (level_i != 2'd1 || down_log2_i != '0)) begin
      edge_own   = PW'(tree_port - base);
      edge_other = PW'((tree_port ^ 16'd1) - base);
      if (down[edge_own] && !down[edge_other]) dest_port = tree_port ^ 16'd1;
    end
    leaf_of_dst = tree_port >> down_log2_i;
    up_first = PW'(16'd1 << down_log2_i);
    // Fibonacci hash of the destination, scaled into [0, up_ports).
    hash = 8'(({16'd0, tree_port} * 32'd40503) >> 8);
    hash_pick = (16'(hash) * 16'(up_ports_i)) >> 8;
    up_hashed = up_first + PW'(hash_pick);
  end

  // Adaptive: scan the up ports from the rotating start, keep the first with the highest score
  // (number of output VCs of the packet's class that are free and have a credit) among those that
  // are up (all down: the first, where the packet is lost). Worked out only for a flit on an
  // adaptive leaf (a cycle-based simulator skips it otherwise; body flits are routed like heads,
  // as before this gate existed, though only a head's route is used).
  always_comb begin
    best_score = '0;
    up_adaptive = up_first;
    found = 1'b0;
    cand = '0;
    cand_wide = '0;
    score = '0;
    if (valid_i && level_i == 2'd1 && !up_hash_i) begin
      for (int k = 0; k < P; k++) begin
        cand_wide = {1'b0, rr_q} + PW1'(k);
        if (cand_wide >= PW1'(up_ports_i)) cand_wide = cand_wide - PW1'(up_ports_i);
        cand = up_first + PW'(cand_wide);
        score = free_i[(32'(cand)*4 + 32'(in_class_i))*FW +: FW];
        if ((k < 32'(up_ports_i)) && !down[cand] && (!found || score > best_score)) begin
          best_score = score;
          up_adaptive = cand;
          found = 1'b1;
        end
      end
    end
  end

  always_comb begin
    class_o = in_class_i;
    case (level_i)
      2'd1: begin
        if (leaf_of_dst == {8'd0, index_i}) begin
          port_o = PW'(dest_port - base);
        end else begin
          port_o = up_hash_i ? up_hashed : up_adaptive;
        end
      end
      2'd2:    port_o = PW'(leaf_of_dst);
      default: port_o = PW'(dest_port);
    endcase
  end

  // The tie-break start moves on with every head routed up, so equal up ports take turns.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rr_q <= '0;
    end else if (head_i && level_i == 2'd1 && leaf_of_dst != {8'd0, index_i} && !up_hash_i) begin
      rr_q <= (32'(rr_q) + 1 >= 32'(up_ports_i)) ? '0 : rr_q + PW'(1);
    end
  end

  logic unused_hdr;
  assign unused_hdr = ^{hdr_i, dims_i[15:0], best_score, hash_pick};
endmodule
