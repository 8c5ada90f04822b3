// hx_route_dragonfly -- route computer of one input of a Dragonfly router (docs/topology.md).
//
// The system: g groups of a routers; every router has p terminal ports, a-1 local ports (one to each
// other router of its group) and h global ports. Router ports: 0 .. p-1 terminals, then the local
// ports p .. p+a-2 to the group's other routers in index order skipping this one, then the global
// ports p+a-1 .. p+a-1+h-1 (dims_i = {h, p, a, g}, one count per byte of the coordinate word).
// Global wiring ("absolute"): global port k (0 .. a*h-1) of a group is slot k % h of router k / h;
// group i reaches group j != i through its global port k = (j < i ? j : j-1), so every pair of
// groups has one global link and ports k >= g-1 are unconnected. h is a power of two (hlog2_i) so
// that router and slot are a shift and a mask: the RTL never divides.
//
// The head's route field (bits 63:32) is the destination's coordinate word {0, terminal, router,
// group}; pos_i is this router's {-, -, router, group}.
//
// Minimal route (L? G? L?): in the destination group, the local port to the destination's router or
// the terminal port; elsewhere, the global port toward the destination group when it sits on this
// router, else the local port to the router that holds it.
//
// VC classes: class = global links taken so far (the class moves up on the link that takes a global
// port): minimal routes need 2 classes, non-minimal ones 3 (docs/deadlock-freedom.md).
//
// adaptive_i: UGAL-L, decided once, at the source router (class 0, head from a terminal port, bound
// for another group). The non-minimal candidates are this router's own connected global ports
// except the one toward the destination group (none leads back to the source group), so no header
// bit is needed: after its first global hop a packet routes minimally, which is exactly the second
// half of a Valiant route through that group. Occupancy of a (port, class) = buffer depth x VCs of
// the class minus the free credits of those VCs, i.e. flits queued downstream or on the wire
// (occ_i: hx_port_load sums it once per switch from the output units' credit counters). The least occupied candidate (ties: the first
// from a rotating start, so equal ports take turns) is taken when
//   occ(minimal) > 2 * occ(candidate) + thresh_i,
// UGAL's hop-weighted comparison (a non-minimal route is about twice as long) with a threshold that
// keeps uniform traffic minimal (docs/adaptive-routing.md has the measurements that chose it).
//
// Everything is evaluated only for a head on a Dragonfly router (enable_i && head_i), so tree
// switches, which share hx_switch, pay nothing for it in simulation.
module hx_route_dragonfly #(
  parameter int P   = 8,      // router ports (radix)
  parameter int PW  = (P > 1) ? $clog2(P) : 1,
  parameter int CLW = 2,
  parameter int IN_PORT = 0,  // the input this route computer serves
  parameter int OW  = 13      // bits of an occupancy (hx_port_load)
) (
  input  logic             clk_i,
  input  logic             rst_i,
  input  logic             enable_i,     // the switch is a Dragonfly router
  input  logic             adaptive_i,   // UGAL-L at the source router, else minimal
  input  logic [7:0]       thresh_i,     // UGAL threshold (flits)
  input  logic [31:0]      dims_i,       // {h, p, a, g}
  input  logic [31:0]      pos_i,        // {-, -, router, group}
  input  logic [3:0]       hlog2_i,      // log2(h)
  input  logic             head_i,       // a head flit is on this input
  input  logic [31:0]      dst_i,        // head bits 63:32: {-, terminal, router, group}
  input  logic [CLW-1:0]   in_class_i,
  input  logic [P*4*OW-1:0] occ_i,       // occupancy per (output port * 4 + class), hx_port_load
  output logic [PW-1:0]    port_o,
  output logic [CLW-1:0]   class_o
);
  logic [7:0]  g, a, pt, h, grp, rtr, dg, dr, dt;
  assign {h, pt, a, g} = dims_i;
  assign grp = pos_i[7:0];
  assign rtr = pos_i[15:8];
  assign dg  = dst_i[7:0];
  assign dr  = dst_i[15:8];
  assign dt  = dst_i[23:16];

  logic [7:0]     kd;          // the group's global port index toward the destination group
  logic [7:0]     kd_router, kd_slot;
  logic [7:0]     first_global;  // p + a - 1
  logic [7:0]     min_port;
  logic [CLW-1:0] min_class;
  logic           decide;      // a UGAL decision at the source router
  logic [7:0]     rr_q;        // rotating start among the global slots
  logic [CLW-1:0] nm_class;    // the class of a non-minimal first hop (a global port)
  assign nm_class = in_class_i + CLW'(1);

  // ---- minimal route ----------------------------------------------------------------------------
  always_comb begin
    kd = '0;
    kd_router = '0;
    kd_slot = '0;
    first_global = '0;
    min_port = '0;
    min_class = in_class_i;
    decide = 1'b0;
    if (enable_i && head_i) begin
      first_global = pt + a - 8'd1;
      if (dg == grp) begin
        if (dr == rtr) min_port = dt;
        else           min_port = pt + ((dr < rtr) ? dr : dr - 8'd1);
      end else begin
        kd = (dg < grp) ? dg : dg - 8'd1;
        kd_router = kd >> hlog2_i;
        kd_slot = kd & (h - 8'd1);
        if (kd_router == rtr) begin
          min_port = first_global + kd_slot;
          min_class = in_class_i + CLW'(1);
        end else begin
          min_port = pt + ((kd_router < rtr) ? kd_router : kd_router - 8'd1);
        end
        decide = adaptive_i && in_class_i == '0 && 8'(IN_PORT) < pt;
      end
    end
  end

  // ---- UGAL-L at the source router -----------------------------------------------------------------
  logic [OW-1:0] occ_min, occ, best_occ;
  logic [PW-1:0] best_port;
  logic [7:0]  cand_port;
  logic [15:0] cand_k;          // the candidate's global port index in the group
  logic [7:0]  slot;
  logic        found, take_nm;
  always_comb begin
    occ_min = '0;
    occ = '0;
    best_occ = '0;
    best_port = '0;
    cand_port = '0;
    cand_k = '0;
    slot = '0;
    found = 1'b0;
    take_nm = 1'b0;
    if (decide) begin
      occ_min = occ_i[(32'(min_port)*4 + 32'(min_class))*OW +: OW];
      // Scan the h slots from the rotating start; keep the first least-occupied candidate.
      for (int s = 0; s < P; s++) begin
        slot = (rr_q + 8'(s)) & (h - 8'd1);
        cand_k = ({8'd0, rtr} << hlog2_i) + {8'd0, slot};
        cand_port = first_global + slot;
        if (s < 32'(h) && cand_k < {8'd0, g} - 16'd1 && cand_k != {8'd0, kd}) begin
          occ = occ_i[(32'(cand_port)*4 + 32'(nm_class))*OW +: OW];
          if (!found || occ < best_occ) begin
            found = 1'b1;
            best_occ = occ;
            best_port = PW'(cand_port);
          end
        end
      end
      take_nm = found && occ_min > (best_occ << 1) + OW'(thresh_i);
    end
  end

  always_comb begin
    if (take_nm) begin
      port_o = best_port;
      class_o = nm_class;
    end else begin
      port_o = PW'(min_port);
      class_o = min_class;
    end
  end

  // The rotating start moves on with every UGAL decision, so equally loaded candidates take turns.
  always_ff @(posedge clk_i) begin
    if (rst_i) rr_q <= '0;
    else if (decide) rr_q <= (rr_q + 8'd1) & (h - 8'd1);
  end

  logic unused;
  assign unused = ^{pos_i[31:16], dst_i[31:24]};
endmodule
