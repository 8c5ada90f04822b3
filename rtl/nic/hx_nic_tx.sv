// hx_nic_tx -- the transmit half of the NIC: command queue, DMA reads, realignment, segmentation
// into packets, injection into the router with credits, and the TX completion queue.
//
//   command queue   put commands (valid/ready; ready is "queue not full", a register function).
//   read requester  takes the oldest command, gives it the next sequence number for its
//                   destination (per-destination table, NODES entries), hands the message to the
//                   segmenter (descriptor queue) and requests the aligned source words covering it,
//                   one per cycle, never more than RDQ words requested or buffered: every response
//                   has a slot waiting in the read-data buffer, so responses are always accepted.
//                   It starts on the next command as soon as the last word is requested.
//   segmenter       cuts the message into packets of at most pkt_flits_i flits: a head (header per
//                   hx_flit.svh) then ceil(bytes / (W/8)) body flits, the last one a tail. Body flit
//                   k of a message carries message bytes [k*B, k*B + B) (B = W/8): when the source
//                   address is not aligned it is put together from two adjacent source words
//                   (a W-bit shifter; the stream offset is the same for all packets of a message).
//                   A packet takes one injection VC that has a credit (round robin over
//                   inj_vcs_i) and keeps it; no flit is sent without a credit on its VC.
//   completion      pushed when the message's last flit is sent (it is on out_* in the next cycle);
//                   that flit waits while the completion queue is full.
// Throughput: one flit per cycle while source data and credits keep up; each packet costs one
// head-flit cycle and each message one more (descriptor load).
module hx_nic_tx #(
  parameter int V     = 2,
  parameter int W     = 256,
  parameter int MAXP  = 16,
  parameter int CMDQ  = 16,
  parameter int CQ    = 16,
  parameter int NODES = 4096,
  parameter int RDQ   = 32,
  parameter int VW    = (V > 1) ? $clog2(V) : 1
) (
  input  logic           clk_i,
  input  logic           rst_i,
  // held constant after reset
  input  logic [15:0]    node_i,
  input  logic [1:0]     rail_i,
  input  logic [7:0]     pkt_flits_i,
  input  logic [V-1:0]   inj_vcs_i,
  input  logic [7:0]     inj_depth_i,
  // command queue
  input  logic           cmd_valid_i,
  output logic           cmd_ready_o,
  input  logic [15:0]    cmd_dst_i,
  input  logic [31:0]    cmd_route_i,
  input  logic [31:0]    cmd_src_addr_i,
  input  logic [31:0]    cmd_dst_addr_i,
  input  logic [31:0]    cmd_len_i,
  input  logic [15:0]    cmd_tag_i,
  // TX completion queue
  output logic           txc_valid_o,
  input  logic           txc_ready_i,
  output logic [15:0]    txc_tag_o,
  output logic [15:0]    txc_dst_o,
  // DMA read port
  output logic           rd_req_valid_o,
  input  logic           rd_req_ready_i,
  output logic [31:0]    rd_req_addr_o,
  input  logic           rd_resp_valid_i,
  input  logic [W-1:0]   rd_resp_data_i,
  // injection link to the router
  output logic           out_valid_o,
  output logic           out_head_o,
  output logic           out_tail_o,
  output logic [VW-1:0]  out_vc_o,
  output logic [W-1:0]   out_data_o,
  input  logic           out_credit_valid_i,
  input  logic [VW-1:0]  out_credit_vc_i,
  // status
  output logic           error_o,      // credit protocol or DMA response violation (sticky)
  output logic           quiet_o       // nothing queued or in flight; waits for input only
);
  `include "hx_flit.svh"

  localparam int B     = W / 8;
  localparam int OW    = $clog2(B);
  localparam int IW    = (NODES > 1) ? $clog2(NODES) : 1;
  localparam int RCW   = $clog2(RDQ + 1);
  localparam int DESCQ = 4;
  localparam int CMDW  = 160;                  // {tag, len, dst_addr, src_addr, route, dst}
  localparam int DSCW  = 144 + OW;             // {off, seq, tag, len, dst_addr, route, dst}
  localparam int PKW   = 16;                   // packet byte counts

  // ---- command queue -----------------------------------------------------------------------------
  logic            cmd_empty;
  logic            cmd_full;
  logic            cmd_pop;
  logic [CMDW-1:0] cmd_out;
  logic [$clog2(CMDQ + 1)-1:0] cmd_count;

  hx_fifo #(.W(CMDW), .DEPTH(CMDQ)) u_cmdq (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (cmd_valid_i && !cmd_full),
    .data_i  ({cmd_tag_i, cmd_len_i, cmd_dst_addr_i, cmd_src_addr_i, cmd_route_i, cmd_dst_i}),
    .pop_i   (cmd_pop),
    .data_o  (cmd_out),
    .empty_o (cmd_empty),
    .full_o  (cmd_full),
    .count_o (cmd_count)
  );
  assign cmd_ready_o = !cmd_full;

  logic [15:0] c_dst;
  logic [31:0] c_route;
  logic [31:0] c_src;
  logic [31:0] c_daddr;
  logic [31:0] c_len;
  logic [15:0] c_tag;
  logic [OW-1:0] c_off;
  assign {c_tag, c_len, c_daddr, c_src, c_route, c_dst} = cmd_out;
  assign c_off = OW'(c_src % 32'(B));

  // ---- read requester ------------------------------------------------------------------------
  logic [32:0]    rq_left_q;     // source-stream bytes not yet requested (0: no message)
  logic [31:0]    rq_addr_q;     // next aligned source word
  logic           rq_valid_q;    // rd_req_* hold a request
  logic [31:0]    rq_req_addr_q;
  logic [RCW-1:0] rd_cred_q;     // read-buffer slots not claimed by a request
  logic           desc_full;
  logic           rq_fire;
  logic           rq_load;
  logic           rdb_pop;
  logic [15:0]    cur_seq;

  assign cmd_pop = (rq_left_q == '0) && !cmd_empty && !desc_full;
  assign rq_fire = rq_valid_q && rd_req_ready_i;
  assign rq_load = (!rq_valid_q || rq_fire) && (rq_left_q != '0) && (rd_cred_q != '0);

  hx_nic_seq_table #(.NODES(NODES), .IW(IW)) u_seq (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_idx_i (c_dst[IW-1:0]),
    .rd_seq_o (cur_seq),
    .wr_i     (cmd_pop),
    .wr_idx_i (c_dst[IW-1:0]),
    .wr_seq_i (cur_seq + 16'd1)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rq_left_q     <= '0;
      rq_addr_q     <= '0;
      rq_valid_q    <= 1'b0;
      rq_req_addr_q <= '0;
      rd_cred_q     <= RCW'(RDQ);
    end else begin
      if (cmd_pop) begin
        rq_left_q <= (c_len == '0) ? '0 : (33'(c_len) + 33'(c_off));
        rq_addr_q <= c_src - 32'(c_off);
      end else if (rq_load) begin
        rq_left_q <= (rq_left_q > 33'(B)) ? rq_left_q - 33'(B) : '0;
        rq_addr_q <= rq_addr_q + 32'(B);
      end
      if (rq_load) begin
        rq_valid_q    <= 1'b1;
        rq_req_addr_q <= rq_addr_q;
      end else if (rq_fire) begin
        rq_valid_q    <= 1'b0;
      end
      if (rq_load && !rdb_pop) rd_cred_q <= rd_cred_q - RCW'(1);
      if (rdb_pop && !rq_load) rd_cred_q <= rd_cred_q + RCW'(1);
    end
  end
  assign rd_req_valid_o = rq_valid_q;
  assign rd_req_addr_o  = rq_req_addr_q;

  // ---- read-data buffer and descriptor queue ------------------------------------------------------
  logic [W-1:0]   rdb_out;
  logic           rdb_empty;
  logic           rdb_full;
  logic [RCW-1:0] rdb_count;

  hx_fifo #(.W(W), .DEPTH(RDQ)) u_rdb (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (rd_resp_valid_i),
    .data_i  (rd_resp_data_i),
    .pop_i   (rdb_pop),
    .data_o  (rdb_out),
    .empty_o (rdb_empty),
    .full_o  (rdb_full),
    .count_o (rdb_count)
  );

  logic            desc_pop;
  logic            desc_empty;
  logic [DSCW-1:0] desc_out;
  logic [$clog2(DESCQ + 1)-1:0] desc_count;

  hx_fifo #(.W(DSCW), .DEPTH(DESCQ)) u_desc (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (cmd_pop),
    .data_i  ({c_off, cur_seq, c_tag, c_len, c_daddr, c_route, c_dst}),
    .pop_i   (desc_pop),
    .data_o  (desc_out),
    .empty_o (desc_empty),
    .full_o  (desc_full),
    .count_o (desc_count)
  );

  // ---- segmenter -----------------------------------------------------------------------------
  localparam logic [1:0] S_IDLE = 2'd0;
  localparam logic [1:0] S_HEAD = 2'd1;
  localparam logic [1:0] S_BODY = 2'd2;

  logic [1:0]     st_q;
  logic [15:0]    m_dst_q;
  logic [31:0]    m_route_q;
  logic [31:0]    m_paddr_q;     // destination address of the next packet's first byte
  logic [31:0]    m_len_q;
  logic [15:0]    m_tag_q;
  logic [15:0]    m_seq_q;
  logic [OW-1:0]  m_off_q;       // source offset inside a word
  logic [31:0]    m_left_q;      // message bytes not yet sent
  logic [32:0]    m_avail_q;     // source-stream bytes not yet taken from the read buffer
  logic           prev_ok_q;     // prev_q holds the source word the next body flit starts in
  logic [W-1:0]   prev_q;
  logic [PKW-1:0] p_left_q;      // bytes of the current packet not yet sent
  logic [VW-1:0]  p_vc_q;

  logic [OW-1:0]  d_off;
  logic [15:0]    d_seq;
  logic [15:0]    d_tag;
  logic [31:0]    d_len;
  logic [31:0]    d_daddr;
  logic [31:0]    d_route;
  logic [15:0]    d_dst;
  assign {d_off, d_seq, d_tag, d_len, d_daddr, d_route, d_dst} = desc_out;

  // packet payload capacity: (flits - 1) * B bytes, flits clamped to 2..MAXP
  logic [7:0]     pf;
  logic [PKW-1:0] cap;
  assign pf  = (pkt_flits_i < 8'd2) ? 8'd2 : ((32'(pkt_flits_i) > MAXP) ? 8'(MAXP) : pkt_flits_i);
  assign cap = PKW'((32'(pf) - 1) * B);

  // injection VCs and credits
  logic [V-1:0]   has_credit;
  logic [V-1:0]   vc_free;
  logic [V-1:0]   vc_grant;
  logic [VW-1:0]  vc_pick;
  logic           vc_any;
  logic           out_err;
  logic           out_idle;

  // what the segmenter does this cycle
  logic           txc_full;
  logic           txc_room;
  logic [PKW-1:0] h_bytes;       // payload bytes of the packet whose head goes now
  logic           h_last;        // ... and it is the message's last packet with no payload
  logic           send_head;
  logic [W-1:0]   h_data;
  logic           need_word;     // the body flit takes the next source word
  logic           b_ready;
  logic [PKW-1:0] b_n;
  logic           b_tail;
  logic           b_last;        // last flit of the message
  logic           send_body;
  logic [W-1:0]   word;
  logic [W-1:0]   b_data;
  logic           prime;         // take the first source word of an unaligned message
  logic           msg_done;

  always_comb begin
    desc_pop  = (st_q == S_IDLE) && !desc_empty;
    txc_room  = !txc_full || txc_ready_i;

    h_bytes   = (m_left_q > 32'(cap)) ? cap : PKW'(m_left_q);
    h_last    = (m_left_q == '0);
    send_head = (st_q == S_HEAD) && vc_any && (!h_last || txc_room);
    h_data = '0;
    h_data[HX_HDR_DST_LSB +: HX_HDR_DST_W]       = m_dst_q;
    h_data[HX_HDR_SRC_LSB +: HX_HDR_SRC_W]       = node_i;
    h_data[HX_HDR_DGR_LSB +: 32]                 = m_route_q;
    h_data[HX_HDR_TAG_LSB +: HX_HDR_TAG_W]       = m_tag_q;
    h_data[HX_HDR_SEQ_LSB +: HX_HDR_SEQ_W]       = m_seq_q;
    h_data[HX_HDR_MLEN_LSB +: HX_HDR_MLEN_W]     = m_len_q;
    h_data[HX_HDR_PADDR_LSB +: HX_HDR_PADDR_W]   = m_paddr_q;
    h_data[HX_HDR_PBYTES_LSB +: HX_HDR_PBYTES_W] = h_bytes;
    h_data[HX_HDR_RAIL_LSB +: HX_HDR_RAIL_W]     = rail_i;

    need_word = (m_avail_q != '0);
    b_ready   = ((m_off_q == '0) || prev_ok_q) && (!need_word || !rdb_empty);
    b_n       = (32'(p_left_q) > B) ? PKW'(B) : p_left_q;
    b_tail    = (32'(p_left_q) <= B);
    b_last    = (m_left_q <= 32'(B));
    send_body = (st_q == S_BODY) && has_credit[p_vc_q] && b_ready && (!b_last || txc_room);
    word      = need_word ? rdb_out : '0;
    if (m_off_q == '0) begin
      b_data = word;
    end else begin
      b_data = (prev_q >> (32'(m_off_q) * 8)) | (word << ((B - 32'(m_off_q)) * 8));
    end

    prime    = (st_q != S_IDLE) && (m_off_q != '0) && !prev_ok_q && need_word && !rdb_empty;
    rdb_pop  = prime || (send_body && need_word);
    msg_done = (send_head && h_last) || (send_body && b_tail && b_last);
  end

  always_ff @(posedge clk_i) begin
    if (desc_pop) begin
      m_dst_q   <= d_dst;
      m_route_q <= d_route;
      m_paddr_q <= d_daddr;
      m_len_q   <= d_len;
      m_tag_q   <= d_tag;
      m_seq_q   <= d_seq;
      m_off_q   <= d_off;
    end else if (send_head) begin
      m_paddr_q <= m_paddr_q + 32'(h_bytes);
    end
    if (send_head) begin
      p_left_q <= h_bytes;
      p_vc_q   <= vc_pick;
    end else if (send_body) begin
      p_left_q <= p_left_q - b_n;
    end
    if (rdb_pop) prev_q <= rdb_out;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      st_q      <= S_IDLE;
      m_left_q  <= '0;
      m_avail_q <= '0;
      prev_ok_q <= 1'b0;
    end else begin
      if (desc_pop) begin
        st_q      <= S_HEAD;
        m_left_q  <= d_len;
        m_avail_q <= (d_len == '0) ? '0 : 33'(d_len) + 33'(d_off);
        prev_ok_q <= 1'b0;
      end else begin
        if (rdb_pop) m_avail_q <= (m_avail_q > 33'(B)) ? m_avail_q - 33'(B) : '0;
        if (prime) prev_ok_q <= 1'b1;
        if (send_body) m_left_q <= m_left_q - 32'(b_n);
        if (msg_done) st_q <= S_IDLE;
        else if (send_head) st_q <= S_BODY;
        else if (send_body && b_tail) st_q <= S_HEAD;
      end
    end
  end

  // ---- injection: VC choice, credits, output register ------------------------------------------------
  hx_arb_rr #(.N(V), .IW(VW)) u_vcarb (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .req_i       (inj_vcs_i & has_credit),
    .accept_i    (send_head),
    .grant_o     (vc_grant),
    .grant_idx_o (vc_pick),
    .any_o       (vc_any)
  );

  hx_output_unit #(.V(V), .DDOWN(255), .W(W), .VW(VW)) u_out (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .depth_i        (inj_depth_i),
    .credit_valid_i (out_credit_valid_i),
    .credit_vc_i    (out_credit_vc_i),
    .free_o         (vc_free),
    .has_credit_o   (has_credit),
    .send_i         (send_head || send_body),
    .send_vc_i      (send_head ? vc_pick : p_vc_q),
    .send_head_i    (send_head),
    .send_tail_i    (send_head ? h_last : b_tail),
    .send_data_i    (send_head ? h_data : b_data),
    .out_valid_o    (out_valid_o),
    .out_vc_o       (out_vc_o),
    .out_head_o     (out_head_o),
    .out_tail_o     (out_tail_o),
    .out_data_o     (out_data_o),
    .credit_err_o   (out_err),
    .idle_o         (out_idle)
  );

  // ---- TX completion queue ---------------------------------------------------------------------
  logic [31:0] txc_out;
  logic        txc_empty;
  logic [$clog2(CQ + 1)-1:0] txc_count;

  hx_fifo #(.W(32), .DEPTH(CQ)) u_txc (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (msg_done),
    .data_i  ({m_dst_q, m_tag_q}),
    .pop_i   (txc_ready_i && !txc_empty),
    .data_o  (txc_out),
    .empty_o (txc_empty),
    .full_o  (txc_full),
    .count_o (txc_count)
  );
  assign txc_valid_o = !txc_empty;
  assign txc_tag_o   = txc_out[15:0];
  assign txc_dst_o   = txc_out[31:16];

  // ---- status --------------------------------------------------------------------------------
  // A read response with no request waiting for it breaks the DMA protocol (every accepted request
  // holds a slot in the read buffer, so a legal response always fits).
  logic           err_q;
  logic [RCW-1:0] rd_out_q;     // requests accepted by the memory, not yet answered
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      err_q    <= 1'b0;
      rd_out_q <= '0;
    end else begin
      if (rq_fire && !rd_resp_valid_i) rd_out_q <= rd_out_q + RCW'(1);
      if (rd_resp_valid_i && !rq_fire && (rd_out_q != '0)) rd_out_q <= rd_out_q - RCW'(1);
      if (out_err || (rd_resp_valid_i && (rd_out_q == '0))) err_q <= 1'b1;
    end
  end
  assign error_o = err_q;
  assign quiet_o = cmd_empty && (rq_left_q == '0) && !rq_valid_q && (32'(rd_cred_q) == RDQ)
                 && rdb_empty && desc_empty && (st_q == S_IDLE) && !out_valid_o && txc_empty;

  logic unused_tx;
  assign unused_tx = ^{cmd_count, rdb_count, rdb_full, desc_count, txc_count, vc_free, vc_grant, out_idle};

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // Queues, the injection VC's credits and ownership check themselves (hx_fifo, hx_output_unit);
  // here, the DMA read protocol error_o also reports.
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!(rd_resp_valid_i && rd_out_q == '0)) else hx_rtl_assert_failed($sformatf(
        "%m: DMA read response with no request open"));
    end
  end
`endif
endmodule
