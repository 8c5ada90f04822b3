// hx_port_load -- what a switch's adaptive route computers weigh, per output port and VC class,
// worked out once per switch for all its inputs:
//   free_o: the output VCs of the class that are free and have a credit (hx_route_tree's up-port
//           choice, hx_route_multidim's lane choice);
//   occ_o:  the flits queued downstream of the port in the class's VCs, i.e. buffer depth minus
//           free credits summed over the class's VCs (hx_route_dragonfly's UGAL comparison).
// Every input's route computer used to derive these itself from the same registers, scanning every
// candidate port's VCs through variable bit slices: K copies of the same sums (two thirds of the
// verilated 16-port switch's code). Here they are summed once, with constant slices, and a route
// computer picks its candidate's entry.
//
// Each table is computed only while its enable is set (the switch's role needs it: a leaf with
// adaptive up ports or a multidim router; a Dragonfly router with UGAL), and is zero otherwise, so
// a switch that never consults it pays nothing in simulation.
module hx_port_load #(
  parameter int P  = 8,       // output ports
  parameter int V  = 2,       // VCs per port
  parameter int FW = 5,       // bits of a free-VC count (V <= 2^FW - 1)
  parameter int OW = 13       // bits of an occupancy (V x 255 flits fits)
) (
  input  logic              free_en_i,
  input  logic              occ_en_i,
  input  logic [P*V-1:0]    ready_vcs_i,  // output VCs free with credit (the output units' registers)
  input  logic [P*V*8-1:0]  credits_i,    // free credits per output VC (registers)
  input  logic [P*8-1:0]    depths_i,     // buffer depth per VC behind each output
  input  logic [4*V-1:0]    class_vcs_i,  // VCs of each class
  output logic [P*4*FW-1:0] free_o,       // entry (port * 4 + class)
  output logic [P*4*OW-1:0] occ_o         // entry (port * 4 + class)
);
  logic [FW-1:0] cnt;
  logic [OW-1:0] occ;

  always_comb begin
    free_o = '0;
    cnt = '0;
    if (free_en_i) begin
      for (int p = 0; p < P; p++) begin
        for (int c = 0; c < 4; c++) begin
          cnt = '0;
          for (int v = 0; v < V; v++) begin
            if (ready_vcs_i[p*V + v] && class_vcs_i[c*V + v]) cnt = cnt + FW'(1);
          end
          free_o[(p*4 + c)*FW +: FW] = cnt;
        end
      end
    end
  end

  always_comb begin
    occ_o = '0;
    occ = '0;
    if (occ_en_i) begin
      for (int p = 0; p < P; p++) begin
        for (int c = 0; c < 4; c++) begin
          occ = '0;
          for (int v = 0; v < V; v++) begin
            if (class_vcs_i[c*V + v]) begin
              occ = occ + OW'(depths_i[p*8 +: 8]) - OW'(credits_i[(p*V + v)*8 +: 8]);
            end
          end
          occ_o[(p*4 + c)*OW +: OW] = occ;
        end
      end
    end
  end
endmodule
