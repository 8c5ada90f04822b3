// hx_nic -- the network interface of one accelerator (docs/nic-and-host-memory.md): put commands
// in, DMA reads of the local source buffer, packets into the router's local port; packets from the
// router, DMA writes into the destination buffer, completions (TX per message, RX per packet) out. Wiring only: hx_nic_tx and
// hx_nic_rx do the work.
//
// The link ports have exactly the names and shapes of hx_router_core's with P = 1 (in_* is the
// router's ejection side toward this NIC, out_* the injection side toward the router), so the C++
// LinkPorts<M> adapter serves the NIC unchanged.
//
// Every output is registered (or read from a FIFO's registers): no combinational path from any
// input to any output. idle_o (registered): nothing queued, nothing in flight inside the NIC, no
// command pending, and no input arrived in the last cycle; while idle_o is high and no input is
// valid (in_valid_i, out_credit_valid_i, cmd_valid_i, rd_resp_valid_i), a clock edge changes no
// state, so a harness may skip it. wait_o (registered) promises the same while work is in flight:
// TX waits for DMA read data or a credit and nothing else moves (idle_o implies it); a harness may
// skip those edges too, up to the cycle its memory presents the next read word. error_o (sticky): a flit arrived for a full RX buffer, a credit
// came back for a VC with all credits home, or a DMA read response arrived with no request open.
//
// crc_en_i: an end-to-end CRC-32 per packet (rtl/common/hx_crc32.svh). TX ends every packet with a
// trailer flit (the tail) carrying the CRC of the head's and data flits' payloads; RX checks it
// per VC, flags the packet's landing record (rxc_crc_bad_o) and counts bad packets
// (crc_errors_o). Cost: one flit of every packet carries no payload -- capacity (pkt_flits - 2) * B
// bytes instead of (pkt_flits - 1) * B, e.g. 1/15 fewer payload bytes per 16-flit packet -- and
// a header-only packet takes two flits. Off, the NIC is exactly as without it.
module hx_nic #(
  parameter int V     = 2,       // VCs of the router's local port
  parameter int D     = 32,      // RX buffer slots per VC
  parameter int W     = 256,     // payload bits per flit (>= 192, multiple of 32)
  parameter int MAXP  = 16,      // largest packet length in flits, head included
  parameter int CMDQ  = 16,      // command queue depth
  parameter int CQ    = 16,      // depth of each completion queue
  parameter int NODES = 4096,    // largest node count: per-destination sequence table (TX)
  parameter int RDQ   = 32,      // most DMA read words requested or buffered
  parameter int TXM   = 16,      // messages in transmission at once (their packets alternate)
  parameter int VW    = (V > 1) ? $clog2(V) : 1
) (
  input  logic            clk_i,
  input  logic            rst_i,
  // held constant after reset
  input  logic [15:0]     node_i,          // this node's id
  input  logic [1:0]      rail_i,          // this NIC's rail: its router local port (0..3); a NIC
                                           // sends only to the NICs of the same rail
  input  logic [7:0]      pkt_flits_i,     // packet length limit in flits, head included (2..MAXP;
                                           // 3..MAXP with crc_en_i)
  input  logic            crc_en_i,        // every packet ends with a CRC trailer (see above)
  input  logic [V-1:0]    inj_vcs_i,       // VCs the NIC may inject on (the router's class-0 VCs)
  input  logic [7:0]      inj_depth_i,     // router's local input buffer depth per VC
  // ejection link (router -> NIC) and its credits
  input  logic            in_valid_i,
  input  logic            in_head_i,
  input  logic            in_tail_i,
  input  logic [VW-1:0]   in_vc_i,
  input  logic [W-1:0]    in_data_i,
  output logic            in_credit_valid_o,
  output logic [VW-1:0]   in_credit_vc_o,
  // injection link (NIC -> router) and its credits
  output logic            out_valid_o,
  output logic            out_head_o,
  output logic            out_tail_o,
  output logic [VW-1:0]   out_vc_o,
  output logic [W-1:0]    out_data_o,
  input  logic            out_credit_valid_i,
  input  logic [VW-1:0]   out_credit_vc_i,
  // command queue (put)
  input  logic            cmd_valid_i,
  output logic            cmd_ready_o,
  input  logic [15:0]     cmd_dst_i,
  input  logic [31:0]     cmd_route_i,     // {dlc, dlr, dgc, dgr}: head-flit bits [63:32]
  input  logic [31:0]     cmd_src_addr_i,
  input  logic [31:0]     cmd_dst_addr_i,
  input  logic [31:0]     cmd_len_i,
  input  logic [15:0]     cmd_tag_i,
  // TX completions (message's last flit sent; in the order messages finish)
  output logic            txc_valid_o,
  input  logic            txc_ready_i,
  output logic [15:0]     txc_tag_o,
  output logic [15:0]     txc_dst_o,
  // RX landings: one record per packet whose bytes are all in host memory; the host adds them up
  // per message (sysc/host/message_assembler.h)
  output logic            rxc_valid_o,
  input  logic            rxc_ready_i,
  output logic [15:0]     rxc_src_o,
  output logic [15:0]     rxc_seq_o,       // the message's sequence number from its source
  output logic [15:0]     rxc_tag_o,
  output logic [31:0]     rxc_len_o,       // the whole message's length in bytes
  output logic [15:0]     rxc_bytes_o,     // this packet's payload bytes
  output logic            rxc_crc_bad_o,   // this packet's CRC did not match (crc_en_i)
  // DMA read port (aligned words, responses in request order, always accepted)
  output logic            rd_req_valid_o,
  input  logic            rd_req_ready_i,
  output logic [31:0]     rd_req_addr_o,
  input  logic            rd_resp_valid_i,
  input  logic [W-1:0]    rd_resp_data_i,
  // DMA write port (aligned word, byte enables; little-endian bytes)
  output logic            wr_valid_o,
  input  logic            wr_ready_i,
  output logic [31:0]     wr_addr_o,
  output logic [W-1:0]    wr_data_o,
  output logic [W/8-1:0]  wr_be_o,
  // status
  output logic            idle_o,
  output logic            wait_o,
  output logic            error_o,
  output logic [31:0]     crc_errors_o     // packets received whose CRC did not match (saturating)
);
  `include "hx_flit.svh"

  // ---- parameter checks: an unsupported value stops elaboration in every tool, naming the rule ----
  if (W < HX_HDR_MSG_BITS || (W % 32) != 0) begin : gen_bad_w
    hx_nic_error_W_must_be_at_least_192_and_a_multiple_of_32 u_bad ();
  end
  if (MAXP < 2 || (MAXP - 1) * (W / 8) > 65535) begin : gen_bad_maxp
    hx_nic_error_MAXP_must_be_2_or_more_and_fit_a_16_bit_packet_byte_count u_bad ();
  end
  if (NODES < 2 || NODES > 65536) begin : gen_bad_nodes
    hx_nic_error_NODES_must_be_2_to_65536 u_bad ();
  end
  if (V < 1 || D < 1 || TXM < 1 || CMDQ < 2 || CQ < 2 || RDQ < 2) begin : gen_bad_depth
    hx_nic_error_V_D_TXM_at_least_1_and_CMDQ_CQ_RDQ_at_least_2 u_bad ();
  end

  logic tx_error;
  logic tx_quiet;
  logic tx_stalled;
  logic rx_overflow;
  logic rx_quiet;

  hx_nic_tx #(
    .V(V), .W(W), .MAXP(MAXP), .CMDQ(CMDQ), .CQ(CQ), .NODES(NODES), .RDQ(RDQ), .TXM(TXM), .VW(VW)
  ) u_tx (
    .clk_i              (clk_i),
    .rst_i              (rst_i),
    .node_i             (node_i),
    .rail_i             (rail_i),
    .pkt_flits_i        (pkt_flits_i),
    .crc_en_i           (crc_en_i),
    .inj_vcs_i          (inj_vcs_i),
    .inj_depth_i        (inj_depth_i),
    .cmd_valid_i        (cmd_valid_i),
    .cmd_ready_o        (cmd_ready_o),
    .cmd_dst_i          (cmd_dst_i),
    .cmd_route_i        (cmd_route_i),
    .cmd_src_addr_i     (cmd_src_addr_i),
    .cmd_dst_addr_i     (cmd_dst_addr_i),
    .cmd_len_i          (cmd_len_i),
    .cmd_tag_i          (cmd_tag_i),
    .txc_valid_o        (txc_valid_o),
    .txc_ready_i        (txc_ready_i),
    .txc_tag_o          (txc_tag_o),
    .txc_dst_o          (txc_dst_o),
    .rd_req_valid_o     (rd_req_valid_o),
    .rd_req_ready_i     (rd_req_ready_i),
    .rd_req_addr_o      (rd_req_addr_o),
    .rd_resp_valid_i    (rd_resp_valid_i),
    .rd_resp_data_i     (rd_resp_data_i),
    .out_valid_o        (out_valid_o),
    .out_head_o         (out_head_o),
    .out_tail_o         (out_tail_o),
    .out_vc_o           (out_vc_o),
    .out_data_o         (out_data_o),
    .out_credit_valid_i (out_credit_valid_i),
    .out_credit_vc_i    (out_credit_vc_i),
    .error_o            (tx_error),
    .quiet_o            (tx_quiet),
    .stalled_o          (tx_stalled)
  );

  hx_nic_rx #(
    .V(V), .D(D), .W(W), .CQ(CQ), .VW(VW)
  ) u_rx (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .crc_en_i       (crc_en_i),
    .in_valid_i     (in_valid_i),
    .in_head_i      (in_head_i),
    .in_tail_i      (in_tail_i),
    .in_vc_i        (in_vc_i),
    .in_data_i      (in_data_i),
    .credit_valid_o (in_credit_valid_o),
    .credit_vc_o    (in_credit_vc_o),
    .wr_valid_o     (wr_valid_o),
    .wr_ready_i     (wr_ready_i),
    .wr_addr_o      (wr_addr_o),
    .wr_data_o      (wr_data_o),
    .wr_be_o        (wr_be_o),
    .rxc_valid_o    (rxc_valid_o),
    .rxc_ready_i    (rxc_ready_i),
    .rxc_src_o      (rxc_src_o),
    .rxc_seq_o      (rxc_seq_o),
    .rxc_tag_o      (rxc_tag_o),
    .rxc_len_o      (rxc_len_o),
    .rxc_bytes_o    (rxc_bytes_o),
    .rxc_crc_bad_o  (rxc_crc_bad_o),
    .overflow_o     (rx_overflow),
    .crc_errors_o   (crc_errors_o),
    .quiet_o        (rx_quiet)
  );

  // ---- status (registered) -------------------------------------------------------------------
  logic idle_q;
  logic wait_q;
  logic error_q;
  logic no_input;
  assign no_input = !in_valid_i && !out_credit_valid_i && !cmd_valid_i && !rd_resp_valid_i;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      idle_q  <= 1'b1;
      wait_q  <= 1'b1;
      error_q <= 1'b0;
    end else begin
      // Quiet now and nothing arriving: the state after this edge is the state before it, and it
      // stays so while no input is valid.
      idle_q  <= tx_quiet && rx_quiet && no_input;
      // The same, with TX stalled rather than empty (waiting for read data or a credit).
      wait_q  <= tx_stalled && rx_quiet && no_input;
      error_q <= error_q || tx_error || rx_overflow;
    end
  end
  assign idle_o  = idle_q;
  assign wait_o  = wait_q;
  assign error_o = error_q;
endmodule
