// hx_crossbar -- P x P switch: each output takes the payload of the input its allocator chose.
// Pure combinational; the output unit behind it registers the result. An output whose valid_i is
// low carries 0.
module hx_crossbar #(
  parameter int P  = 5,
  parameter int W  = 256,
  parameter int PW = (P > 1) ? $clog2(P) : 1
) (
  input  logic [P*W-1:0]  in_data_i,
  input  logic [P*PW-1:0] sel_i,
  input  logic [P-1:0]    valid_i,     // the output sends this cycle
  output logic [P*W-1:0]  out_data_o
);
  // Unpack once so the selection is an indexed read rather than a wide variable shift.
  logic [W-1:0] in_arr [P];
  always_comb begin
    for (int i = 0; i < P; i++) begin
      in_arr[i] = in_data_i[i*W +: W];
    end
    // Only an output that sends takes a payload (0 otherwise; its output unit ignores it then), so
    // a simulator copies no payload for an idle output.
    for (int o = 0; o < P; o++) begin
      out_data_o[o*W +: W] = '0;
      if (valid_i[o]) out_data_o[o*W +: W] = in_arr[sel_i[o*PW +: PW]];
    end
  end
endmodule
