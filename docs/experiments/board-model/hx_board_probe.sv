// Probe, not part of the build (docs/experiments/board-model/README.md): an R x C board of
// hx_board_router (NL = 1, DOR_ONLY) as one model, each on-board link one register stage (board
// latency 1), the routers' local ports as the model's ports.
module hx_board_probe #(
  parameter int R = 8, parameter int C = 8, parameter int V = 2, parameter int D = 8,
  parameter int W = 256,
  parameter int VW = (V > 1) ? $clog2(V) : 1, parameter int N = R * C
) (
  input  logic clk_i,
  input  logic rst_i,
  input  logic [31:0]     dims_i,
  input  logic [V*2-1:0]  vc_class_i,
  input  logic [4*V-1:0]  class_vcs_i,
  input  logic [V*V-1:0]  vc_allow_i,
  input  logic [N-1:0]    t_in_valid_i,
  input  logic [N-1:0]    t_in_head_i,
  input  logic [N-1:0]    t_in_tail_i,
  input  logic [N*VW-1:0] t_in_vc_i,
  input  logic [N*W-1:0]  t_in_data_i,
  output logic [N-1:0]    t_in_credit_valid_o,
  output logic [N*VW-1:0] t_in_credit_vc_o,
  output logic [N-1:0]    t_out_valid_o,
  output logic [N-1:0]    t_out_head_o,
  output logic [N-1:0]    t_out_tail_o,
  output logic [N*VW-1:0] t_out_vc_o,
  output logic [N*W-1:0]  t_out_data_o,
  input  logic [N-1:0]    t_out_credit_valid_i,
  input  logic [N*VW-1:0] t_out_credit_vc_i
);
  localparam int P = 5;
  // per router: inputs and outputs of its 5 ports
  logic [P-1:0]    iv [N]; logic [P-1:0] ih [N]; logic [P-1:0] it [N];
  logic [P*VW-1:0] ivc [N]; logic [P*W-1:0] id [N];
  logic [P-1:0]    icv [N]; logic [P*VW-1:0] icvc [N];
  logic [P-1:0]    ov [N]; logic [P-1:0] oh [N]; logic [P-1:0] ot [N];
  logic [P*VW-1:0] ovc [N]; logic [P*W-1:0] od [N];
  logic [P-1:0]    ocv [N]; logic [P*VW-1:0] ocvc [N];
  logic [N*P-1:0]  unused_stall_c, unused_stall_s;
  logic [N-1:0]    unused_idle, unused_drained, unused_err;

  for (genvar n = 0; n < N; n++) begin : gen_r
    localparam int RR = n / C;
    localparam int CC = n % C;
    logic [P*8-1:0] depth;
    assign depth = {5{8'(D)}};
    hx_board_router #(.NL(1), .V(V), .D(D), .W(W), .DOR_ONLY(1)) u_r (
      .clk_i(clk_i), .rst_i(rst_i), .mode_i(2'd0), .adaptive_i(1'b0), .margin_i(4'd8),
      .pos_i({8'(CC), 8'(RR), 8'd0, 8'd0}), .dims_i(dims_i),
      .vc_class_i(vc_class_i), .class_vcs_i(class_vcs_i), .vc_allow_i(vc_allow_i),
      .out_depth_i(depth), .port_down_i('0), .edges_down_i('0),
      .in_valid_i(iv[n]), .in_head_i(ih[n]), .in_tail_i(it[n]), .in_vc_i(ivc[n]), .in_data_i(id[n]),
      .in_credit_valid_o(icv[n]), .in_credit_vc_o(icvc[n]),
      .out_valid_o(ov[n]), .out_head_o(oh[n]), .out_tail_o(ot[n]), .out_vc_o(ovc[n]), .out_data_o(od[n]),
      .out_credit_valid_i(ocv[n]), .out_credit_vc_i(ocvc[n]),
      .stall_credit_o(unused_stall_c[n*P +: P]), .stall_sa_o(unused_stall_s[n*P +: P]),
      .idle_o(unused_idle[n]), .drained_o(unused_drained[n]), .error_o(unused_err[n]));
    // terminal port 4
    assign iv[n][4] = t_in_valid_i[n];
    assign ih[n][4] = t_in_head_i[n];
    assign it[n][4] = t_in_tail_i[n];
    assign ivc[n][4*VW +: VW] = t_in_vc_i[n*VW +: VW];
    assign id[n][4*W +: W] = t_in_data_i[n*W +: W];
    assign t_in_credit_valid_o[n] = icv[n][4];
    assign t_in_credit_vc_o[n*VW +: VW] = icvc[n][4*VW +: VW];
    assign t_out_valid_o[n] = ov[n][4];
    assign t_out_head_o[n] = oh[n][4];
    assign t_out_tail_o[n] = ot[n][4];
    assign t_out_vc_o[n*VW +: VW] = ovc[n][4*VW +: VW];
    assign t_out_data_o[n*W +: W] = od[n][4*W +: W];
    assign ocv[n][4] = t_out_credit_valid_i[n];
    assign ocvc[n][4*VW +: VW] = t_out_credit_vc_i[n*VW +: VW];
    // mesh ports 0..3 (N E S W): input from the neighbour's opposite port through one register
    for (genvar p = 0; p < 4; p++) begin : gen_p
      localparam int NR = (p == 0) ? RR - 1 : (p == 2) ? RR + 1 : RR;
      localparam int NC = (p == 1) ? CC + 1 : (p == 3) ? CC - 1 : CC;
      localparam int OP = (p + 2) % 4;
      if (NR < 0 || NR >= R || NC < 0 || NC >= C) begin : gen_edge
        assign iv[n][p] = 1'b0; assign ih[n][p] = 1'b0; assign it[n][p] = 1'b0;
        assign ivc[n][p*VW +: VW] = '0; assign id[n][p*W +: W] = '0;
        assign ocv[n][p] = 1'b0; assign ocvc[n][p*VW +: VW] = '0;
      end else begin : gen_link
        localparam int M = NR * C + NC;
        logic v_q, h_q, t_q, cv_q; logic [VW-1:0] vc_q, cvc_q; logic [W-1:0] d_q;
        always_ff @(posedge clk_i) begin
          if (rst_i) begin v_q <= 1'b0; cv_q <= 1'b0; end
          else begin
            v_q <= ov[M][OP]; cv_q <= icv[M][OP];
          end
          h_q <= oh[M][OP]; t_q <= ot[M][OP]; vc_q <= ovc[M][OP*VW +: VW];
          cvc_q <= icvc[M][OP*VW +: VW];
          if (ov[M][OP]) d_q <= od[M][OP*W +: W];
        end
        assign iv[n][p] = v_q; assign ih[n][p] = h_q; assign it[n][p] = t_q;
        assign ivc[n][p*VW +: VW] = vc_q; assign id[n][p*W +: W] = d_q;
        // credits for my output p come from the neighbour's input OP
        assign ocv[n][p] = cv_q; assign ocvc[n][p*VW +: VW] = cvc_q;
      end
    end
  end
endmodule
