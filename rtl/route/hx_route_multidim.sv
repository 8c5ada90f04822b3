// hx_route_multidim -- route computer of one input of an NPU's router on a multi-dimensional
// platform (topology "multidim", docs/multidim.md; Won et al. / LIBRA).
//
// The platform is up to four dimensions d = 0 .. 3 (innermost first), each a Ring, a FullyConnected
// group or a Switch of size n_d (dims_i byte d; 1 = absent). An NPU's coordinate word has one index
// per dimension (pos_i, and a head's route field, bits 63:32). Router ports: the NPU's NICs first
// (port r = rail r), then the ports of dimension d from base_i byte d on:
//   Ring   2L ports: L lanes toward coordinate +1 (mod n), then L lanes toward -1;
//   FC     (n-1)L ports: L lanes to each other member, in coordinate order, this NPU skipped;
//   Switch L ports: lane l to the l-th switch of the group (one switch, or tree, per lane).
// L = lanes_i nibble d. kinds_i holds 2 bits per dimension (0 Ring, 1 FC, 2 Switch).
//
// Dimension order: the first dimension in order_i (2 bits per position, position 0 first) whose
// coordinate differs is corrected; none differing means the head is home and leaves on the NIC
// port of its rail (the first NIC when the NPU has no such rail). Rings go the shorter way (ties: +). Among the L lanes of the chosen direction
// the one with the most output VCs of the packet's class free with credit is taken, ties broken by
// a start that rotates with every head this input sends to a multi-lane dimension: lanes are
// parallel links between the same two blocks, so any choice is the same route (and the same
// channel-dependency argument, docs/deadlock-freedom.md).
//
// VC classes (dateline, per ring): a head entering a dimension starts in class 0; staying in a
// ring it keeps its class, and the hop over the ring's wrap-around link (n-1 -> 0 going +, 0 ->
// n-1 going -) moves it to class 1. Dimensions are corrected in a fixed order, so dependencies run
// from one dimension to the next only; inside a ring class 0 never takes the wrap link and class 1
// never reaches it again on a minimal route: acyclic with 2 classes.
//
// Everything is evaluated only for a head on a multidim router (enable_i && head_i), so the tree
// switches and Dragonfly routers that share hx_switch pay nothing for it in simulation.
module hx_route_multidim #(
  parameter int P   = 16,     // router ports (radix)
  parameter int PW  = (P > 1) ? $clog2(P) : 1,
  parameter int CLW = 2,
  parameter int IN_PORT = 0,  // the input this route computer serves
  parameter int FW  = 5       // bits of a free-VC count (hx_port_load)
) (
  input  logic             clk_i,
  input  logic             rst_i,
  input  logic             enable_i,     // the switch is a multidim NPU router
  input  logic [31:0]      dims_i,       // size of each dimension, one per byte
  input  logic [31:0]      pos_i,        // this NPU's coordinate in each dimension
  input  logic [7:0]       kinds_i,      // 2 bits per dimension: 0 Ring, 1 FC, 2 Switch
  input  logic [15:0]      lanes_i,      // 4 bits per dimension: parallel links (1..15)
  input  logic [31:0]      base_i,       // first router port of each dimension, one per byte
  input  logic [7:0]       order_i,      // routing order: 2 bits per position, dimension index
  input  logic             head_i,       // a head flit is on this input
  input  logic [31:0]      dst_i,        // head bits 63:32: the destination's coordinate word
  input  logic [1:0]       rail_i,       // head's rail field: the NIC port at the destination
  input  logic [CLW-1:0]   in_class_i,
  input  logic [P*4*FW-1:0] free_i,      // output VCs free with credit per (port * 4 + class),
                                         // hx_port_load
  output logic [PW-1:0]    port_o,
  output logic [CLW-1:0]   class_o
);
  localparam int PW1 = PW + 1;

  logic          found;       // some coordinate differs
  logic [1:0]    dsel;        // the dimension to correct
  logic [7:0]    n, p, t, base, fwd, span;
  logic [3:0]    lanes;
  logic [1:0]    kind;
  logic          plus, wrap, same_dim;
  logic [PW-1:0] first;       // port of lane 0 of the chosen direction / peer
  logic [CLW-1:0] cls;
  logic [PW-1:0] rr_q;        // rotating lane tie-break start
  logic [PW-1:0] start;       // rr_q within this dimension's lanes (rr_q may come from a wider one)
  logic [PW-1:0] best_port, cand;
  logic [PW:0]   cand_wide;
  logic [FW-1:0] best_score, score;
  logic [7:0]    nics;        // NIC ports: 0 .. nics-1 (dimension 0's ports start right after)

  assign nics = base_i[7:0];

  always_comb begin
    found = 1'b0;
    dsel = 2'd0;
    n = 8'd1;
    p = '0;
    t = '0;
    base = '0;
    fwd = '0;
    span = '0;
    lanes = 4'd1;
    kind = 2'd0;
    plus = 1'b1;
    wrap = 1'b0;
    same_dim = 1'b0;
    first = '0;
    cls = '0;
    best_port = '0;
    best_score = '0;
    score = '0;
    cand = '0;
    cand_wide = '0;
    start = '0;
    // Home: the NIC of the head's rail; a rail the NPU does not have (synthetic traffic) takes the
    // first.
    port_o = (8'(rail_i) < nics) ? PW'(rail_i) : '0;
    class_o = '0;
    if (enable_i && head_i) begin
      for (int k = 0; k < 4; k++) begin
        if (!found && dst_i[32'(order_i[k*2 +: 2])*8 +: 8] != pos_i[32'(order_i[k*2 +: 2])*8 +: 8]) begin
          found = 1'b1;
          dsel = order_i[k*2 +: 2];
        end
      end
      if (found) begin
        n = dims_i[32'(dsel)*8 +: 8];
        p = pos_i[32'(dsel)*8 +: 8];
        t = dst_i[32'(dsel)*8 +: 8];
        base = base_i[32'(dsel)*8 +: 8];
        lanes = lanes_i[32'(dsel)*4 +: 4];
        kind = kinds_i[32'(dsel)*2 +: 2];
        case (kind)
          2'd0:    span = {3'd0, lanes, 1'b0};
          2'd1:    span = 8'((n - 8'd1) * {4'd0, lanes});
          default: span = {4'd0, lanes};
        endcase
        same_dim = (8'(IN_PORT) >= base) && (8'(IN_PORT) < base + span);
        case (kind)
          2'd0: begin   // Ring: the shorter way, + on a tie; class 1 from the wrap-around hop on
            fwd = (t >= p) ? t - p : t + n - p;
            plus = fwd <= n - fwd;
            first = PW'(base) + (plus ? PW'(0) : PW'(lanes));
            wrap = plus ? (p == n - 8'd1) : (p == 8'd0);
            cls = (same_dim ? in_class_i : '0) | CLW'(wrap);
          end
          2'd1: begin   // FC: straight to the member
            first = PW'(base) + PW'(((t < p) ? t : t - 8'd1) * {4'd0, lanes});
            cls = '0;
          end
          default: begin   // Switch: up to the lane's switch
            first = PW'(base);
            cls = '0;
          end
        endcase
        // The lane with the most VCs of the class free with credit, from the rotating start.
        best_port = first;
        // One tie-break start serves every dimension, so it may exceed this one's lanes (3 lanes
        // on FC, 1 on a ring): past them it starts at lane 0, and start + k then wraps once at most.
        start = (32'(rr_q) < 32'(lanes)) ? rr_q : '0;
        for (int k = 0; k < 16; k++) begin
          if (k < 32'(lanes)) begin
            cand_wide = {1'b0, start} + PW1'(k);
            if (cand_wide >= PW1'(lanes)) cand_wide = cand_wide - PW1'(lanes);
            cand = first + PW'(cand_wide);
            score = free_i[(32'(cand)*4 + 32'(cls))*FW +: FW];
            if (k == 0 || score > best_score) begin
              best_score = score;
              best_port = cand;
            end
          end
        end
        port_o = best_port;
        class_o = cls;
      end
    end
  end

  // The tie-break start moves on with every head sent to a dimension with more than one lane.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rr_q <= '0;
    end else if (enable_i && head_i && found && lanes > 4'd1) begin
      rr_q <= (32'(rr_q) + 1 >= 32'(lanes)) ? '0 : rr_q + PW'(1);
    end
  end
endmodule
