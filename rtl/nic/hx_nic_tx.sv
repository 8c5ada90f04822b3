// hx_nic_tx -- the transmit half of the NIC: command queue, messages in transmission, DMA reads,
// realignment, segmentation into packets, injection into the router with credits, and the TX
// completion queue.
//
//   command queue   put commands (valid/ready; ready is "queue not full", a register function).
//   slots           up to TXM messages in transmission at once. A command enters a free slot and
//                   takes the next sequence number for its destination (per-destination table,
//                   NODES entries).
//   packetiser      serves the slots round robin, one packet at a time: cuts the slot's next
//                   packet (at most pkt_flits_i flits: a head, then ceil(bytes / (W/8)) body flits,
//                   then with crc_en_i a trailer),
//                   queues its descriptor for the segmenter and requests the aligned source words
//                   covering it, one per cycle, never more than RDQ words requested or buffered:
//                   every response has a slot waiting in the read-data buffer, so responses are
//                   always accepted. Only the oldest slot of each destination takes part, so
//                   messages to one destination leave whole and in posted order, while packets of
//                   messages to different destinations alternate on the link: a message to a
//                   congested destination does not hold back the others behind it (head-of-line
//                   blocking), and each packet stays whole on its VC. (Alternating among messages
//                   to one destination, which share a path, only delays each one's completion to
//                   the end of the batch; a ring's pipelined chunks paid that at every hop: 1 MiB
//                   hamiltonian allreduce on hx2mesh-64 took 47,593 cycles, 17,181 in posted order.)
//   segmenter       sends each packet: head (header per hx_flit.svh), then its body flits. Body
//                   flit k of a packet carries its bytes [k*B, k*B + B) (B = W/8): when the source
//                   address is not aligned it is put together from two adjacent source words (a
//                   W-bit shifter; the offset is the same for every packet of a message, because
//                   packets carry whole words). A packet takes one injection VC that has a credit
//                   (round robin over inj_vcs_i) and keeps it; no flit is sent without a credit.
//   CRC (crc_en_i)  an end-to-end check of every packet (rtl/common/hx_crc32.svh): the body flits
//                   are data flits, none marked tail, and a trailer flit, the tail, follows them;
//                   its payload bits [31:0] hold the CRC-32 of the head's and the data flits'
//                   W-bit payloads as sent, the rest 0. A header-only packet is head + trailer.
//                   The payload capacity becomes (pf - 2) * B bytes (pf = pkt_flits_i clamped to
//                   3..MAXP), so packets stay within pkt_flits_i flits: one flit in pf carries no
//                   payload (a 16-flit packet carries 14 data flits instead of 15, 1/15 fewer
//                   payload bytes per packet; a message needs correspondingly more packets).
//                   With crc_en_i = 0 none of this exists: packets are as above, cycle for cycle.
//   completion      pushed when a message's last flit is sent (it is on out_* in the next cycle);
//                   that flit waits while the completion queue is full. Messages complete in the
//                   order they finish: posted order per destination, not across destinations; the
//                   completion names the destination and tag.
// Throughput: one flit per cycle while source data and credits keep up; each packet costs one
// head-flit cycle (and with CRC one trailer cycle). An unaligned source re-reads the one word two
// packets share.
module hx_nic_tx #(
  parameter int V     = 2,
  parameter int W     = 256,
  parameter int MAXP  = 16,
  parameter int CMDQ  = 16,
  parameter int CQ    = 16,
  parameter int NODES = 4096,
  parameter int RDQ   = 32,
  parameter int TXM   = 4,
  parameter int VW    = (V > 1) ? $clog2(V) : 1
) (
  input  logic           clk_i,
  input  logic           rst_i,
  // held constant after reset
  input  logic [15:0]    node_i,
  input  logic [1:0]     rail_i,
  input  logic [7:0]     pkt_flits_i,
  input  logic           crc_en_i,     // packets end with a CRC trailer (see above)
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
  output logic           quiet_o,      // nothing queued or in flight; waits for input only
  output logic           stalled_o     // no state changes at this edge unless an input is valid
                                       // (quiet_o implies it; also while it waits for read data or
                                       // a credit)
);
  `include "hx_flit.svh"
  `include "hx_crc32.svh"

  localparam int B     = W / 8;
  localparam int OW    = $clog2(B);
  localparam int IW    = (NODES > 1) ? $clog2(NODES) : 1;
  localparam int RCW   = $clog2(RDQ + 1);
  localparam int DESCQ = 4;
  localparam int CMDW  = 160;                  // {tag, len, dst_addr, src_addr, route, dst}
  localparam int DSCW  = 161 + OW;             // {last, bytes, off, seq, tag, len, dst_addr, route, dst}
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
  assign {c_tag, c_len, c_daddr, c_src, c_route, c_dst} = cmd_out;

  // ---- messages in transmission ------------------------------------------------------------------
  // TXM slots, each a message being cut into packets: the next packet's source and destination
  // addresses and the bytes not yet packetised. A command enters the lowest free slot (and takes
  // its destination's next sequence number); the packetiser serves the slots round robin, one
  // packet at a time, so packets of up to TXM messages alternate on the link.
  localparam int SW = (TXM > 1) ? $clog2(TXM) : 1;

  logic [TXM-1:0] sl_valid_q;
  logic [15:0]    sl_dst_q   [TXM];
  logic [31:0]    sl_route_q [TXM];
  logic [31:0]    sl_src_q   [TXM];   // source address of the next packet's first byte
  logic [31:0]    sl_daddr_q [TXM];   // destination address of the next packet's first byte
  logic [31:0]    sl_len_q   [TXM];
  logic [15:0]    sl_tag_q   [TXM];
  logic [15:0]    sl_seq_q   [TXM];
  logic [31:0]    sl_left_q  [TXM];   // bytes not yet packetised

  // Messages to one destination leave in posted order: a slot waits while an older slot holds a
  // message to the same destination (sl_older_q[i][j]: slot j holds an earlier message to slot i's
  // destination). Round robin alternates only between destinations: interleaving messages that
  // share a destination (and so a path) only delays each one's completion to the end of the batch,
  // which a pipelined sender (a ring's chunks) pays at every hop.
  logic [TXM-1:0] sl_older_q [TXM];
  logic [TXM-1:0] sl_ready;      // valid and its destination's oldest
  logic [TXM-1:0] sl_freeing;    // the slot whose last packet is cut this cycle
  logic [TXM-1:0] sl_same_dst;   // valid slots holding a message to the command's destination

  logic [15:0]    cur_seq;
  logic           sl_load;
  logic [SW-1:0]  sl_free_idx;
  logic           sl_any_free;

  always_comb begin
    sl_any_free = 1'b0;
    sl_free_idx = '0;
    for (int i = TXM - 1; i >= 0; i--) begin
      if (!sl_valid_q[i]) begin
        sl_any_free = 1'b1;
        sl_free_idx = SW'(i);
      end
    end
  end
  assign sl_load = sl_any_free && !cmd_empty;
  assign cmd_pop = sl_load;

  hx_nic_seq_table #(.NODES(NODES), .IW(IW)) u_seq (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_en_i  (!cmd_empty),
    .rd_idx_i (c_dst[IW-1:0]),
    .rd_seq_o (cur_seq),
    .wr_i     (sl_load),
    .wr_idx_i (c_dst[IW-1:0]),
    .wr_seq_i (cur_seq + 16'd1)
  );

  // ---- packetiser and read requester --------------------------------------------------------------
  // Picks a slot (round robin) when the previous packet's last source word is requested, queues
  // the packet's descriptor for the segmenter, and requests the aligned source words covering the
  // packet's bytes, one per cycle, never more than RDQ words requested or buffered: every response
  // has a slot waiting in the read-data buffer, so responses are always accepted. Words reach the
  // read buffer in packet order, which is the order the segmenter sends packets in. An unaligned
  // source re-reads the word two packets share (packet payloads are whole words, so the offset is
  // the same for every packet of a message).
  logic [PKW-1:0] cap;           // packet payload capacity: (flits - 1) * B bytes, (flits - 2) * B
                                 // with CRC
  logic [TXM-1:0] pk_grant;
  logic [SW-1:0]  pk_sel;
  logic           pk_any;
  logic           pk_go;         // a packet is cut from slot pk_sel this cycle
  logic           desc_full;
  logic [15:0]    rq_left_q;     // source words of the current packet not yet requested
  logic [31:0]    rq_addr_q;     // next aligned source word
  logic           rq_valid_q;    // rd_req_* hold a request
  logic [31:0]    rq_req_addr_q;
  logic [RCW-1:0] rd_cred_q;     // read-buffer slots not claimed by a request
  logic           rq_fire;
  logic           rq_load;
  logic           rdb_pop;
  logic           pk_room;       // the current packet's words are all requested by this edge

  assign rq_fire = rq_valid_q && rd_req_ready_i;
  assign rq_load = (!rq_valid_q || rq_fire) && (rq_left_q != '0) && (rd_cred_q != '0);
  assign pk_room = (rq_left_q == '0) || ((rq_left_q == 16'd1) && rq_load);

  hx_arb_rr #(.N(TXM), .IW(SW)) u_pkarb (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .req_i       (sl_ready),
    .accept_i    (pk_go),
    .grant_o     (pk_grant),
    .grant_idx_o (pk_sel),
    .any_o       (pk_any)
  );
  assign pk_go = pk_any && pk_room && !desc_full;

  logic [31:0]    k_left;
  logic [31:0]    k_src;
  logic [OW-1:0]  k_off;
  logic [PKW-1:0] k_bytes;       // payload bytes of the packet cut now
  logic           k_last;        // ... the message's last packet
  logic [15:0]    k_words;       // source words it needs
  always_comb begin
    k_left  = sl_left_q[pk_sel];
    k_src   = sl_src_q[pk_sel];
    k_off   = OW'(k_src % 32'(B));
    k_bytes = (k_left > 32'(cap)) ? cap : PKW'(k_left);
    k_last  = (k_left <= 32'(cap));
    k_words = (k_bytes == '0) ? 16'd0 : 16'((32'(k_off) + 32'(k_bytes) + B - 1) / B);
  end

  always_comb begin
    sl_freeing = '0;
    if (pk_go && k_last) sl_freeing[pk_sel] = 1'b1;
    for (int i = 0; i < TXM; i++) begin
      sl_same_dst[i] = sl_valid_q[i] && (sl_dst_q[i] == c_dst);
      sl_ready[i]    = sl_valid_q[i] && (sl_older_q[i] == '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int i = 0; i < TXM; i++) sl_older_q[i] <= '0;
    end else begin
      for (int i = 0; i < TXM; i++) sl_older_q[i] <= sl_older_q[i] & ~sl_freeing;
      if (sl_load) sl_older_q[sl_free_idx] <= sl_same_dst & ~sl_freeing;
    end
  end

  always_ff @(posedge clk_i) begin
    if (sl_load) begin
      sl_dst_q[sl_free_idx]   <= c_dst;
      sl_route_q[sl_free_idx] <= c_route;
      sl_src_q[sl_free_idx]   <= c_src;
      sl_daddr_q[sl_free_idx] <= c_daddr;
      sl_len_q[sl_free_idx]   <= c_len;
      sl_tag_q[sl_free_idx]   <= c_tag;
      sl_seq_q[sl_free_idx]   <= cur_seq;
      sl_left_q[sl_free_idx]  <= c_len;
    end
    if (pk_go) begin
      sl_src_q[pk_sel]   <= k_src + 32'(k_bytes);
      sl_daddr_q[pk_sel] <= sl_daddr_q[pk_sel] + 32'(k_bytes);
      sl_left_q[pk_sel]  <= k_left - 32'(k_bytes);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sl_valid_q    <= '0;
      rq_left_q     <= '0;
      rq_addr_q     <= '0;
      rq_valid_q    <= 1'b0;
      rq_req_addr_q <= '0;
      rd_cred_q     <= RCW'(RDQ);
    end else begin
      // A slot loads only when free and frees only as its last packet is cut: never both.
      if (sl_load) sl_valid_q[sl_free_idx] <= 1'b1;
      if (pk_go && k_last) sl_valid_q[pk_sel] <= 1'b0;
      if (pk_go) begin
        rq_left_q <= k_words;
        rq_addr_q <= k_src - 32'(k_off);
      end else if (rq_load) begin
        rq_left_q <= rq_left_q - 16'd1;
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

  // ---- read-data buffer and packet descriptor queue ------------------------------------------------
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
    .push_i  (pk_go),
    .data_i  ({k_last, k_bytes, k_off, sl_seq_q[pk_sel], sl_tag_q[pk_sel], sl_len_q[pk_sel],
               sl_daddr_q[pk_sel], sl_route_q[pk_sel], sl_dst_q[pk_sel]}),
    .pop_i   (desc_pop),
    .data_o  (desc_out),
    .empty_o (desc_empty),
    .full_o  (desc_full),
    .count_o (desc_count)
  );

  // ---- segmenter -----------------------------------------------------------------------------
  // Sends one packet per descriptor: its head, then ceil(bytes / B) body flits, the last a tail;
  // with CRC the body flits are data flits (no tail) and the trailer follows them (S_TRL). The
  // next descriptor is taken in the cycle the packet's last flit goes, so packets follow each
  // other with no gap.
  localparam logic [1:0] S_IDLE = 2'd0;
  localparam logic [1:0] S_HEAD = 2'd1;
  localparam logic [1:0] S_BODY = 2'd2;
  localparam logic [1:0] S_TRL  = 2'd3;

  logic [1:0]     st_q;
  logic [15:0]    m_dst_q;
  logic [31:0]    m_route_q;
  logic [31:0]    m_paddr_q;     // destination address of the packet's first byte
  logic [31:0]    m_len_q;
  logic [15:0]    m_tag_q;
  logic [15:0]    m_seq_q;
  logic [OW-1:0]  m_off_q;       // source offset inside a word
  logic           m_last_q;      // the message's last packet
  logic [32:0]    m_avail_q;     // source-stream bytes of the packet not yet taken from the buffer
  logic           prev_ok_q;     // prev_q holds the source word the next body flit starts in
  logic [W-1:0]   prev_q;
  logic [PKW-1:0] p_bytes_q;     // the packet's payload bytes
  logic [PKW-1:0] p_left_q;      // bytes of the packet not yet sent
  logic [VW-1:0]  p_vc_q;
  logic [31:0]    crc_q;         // the packet's running CRC (crc_en_i)

  logic           d_last;
  logic [PKW-1:0] d_bytes;
  logic [OW-1:0]  d_off;
  logic [15:0]    d_seq;
  logic [15:0]    d_tag;
  logic [31:0]    d_len;
  logic [31:0]    d_daddr;
  logic [31:0]    d_route;
  logic [15:0]    d_dst;
  assign {d_last, d_bytes, d_off, d_seq, d_tag, d_len, d_daddr, d_route, d_dst} = desc_out;

  // packet payload capacity: flits clamped to 2..MAXP (3..MAXP with CRC: head, data, trailer)
  logic [7:0]     pf;
  logic [7:0]     pf_min;
  assign pf_min = crc_en_i ? 8'd3 : 8'd2;
  assign pf  = (pkt_flits_i < pf_min) ? pf_min : ((32'(pkt_flits_i) > MAXP) ? 8'(MAXP) : pkt_flits_i);
  assign cap = PKW'((32'(pf) - (crc_en_i ? 32'd2 : 32'd1)) * B);

  // injection VCs and credits
  logic [V-1:0]   has_credit;
  logic [V-1:0]   vc_free;
  logic [V-1:0]   vc_grant;
  logic [VW-1:0]  vc_pick;
  logic           vc_any;
  logic           out_err;
  logic           out_idle;
  logic [V*8-1:0] unused_credits;   // the VC pick needs only which VCs have a credit

  // what the segmenter does this cycle
  logic           txc_full;
  logic           txc_room;
  logic           h_only;        // the packet has no payload (a zero-length message)
  logic           h_end;         // ... and its head is its last flit (no CRC)
  logic           send_head;
  logic [W-1:0]   h_data;
  logic           need_word;     // the body flit takes the next source word
  logic           b_ready;
  logic [PKW-1:0] b_n;
  logic           b_tail;        // the packet's last body flit
  logic           b_end;         // ... and the packet's last flit (no CRC)
  logic           send_body;
  logic           send_trl;      // the trailer goes (CRC)
  logic [W-1:0]   t_data;
  logic [W-1:0]   word;
  logic [W-1:0]   b_data;
  logic           prime;         // take the first source word of an unaligned packet
  logic           pkt_end;       // the packet's last flit goes now
  logic           msg_done;

  always_comb begin
    txc_room  = !txc_full || txc_ready_i;

    h_only    = (p_bytes_q == '0);
    h_end     = h_only && !crc_en_i;
    send_head = (st_q == S_HEAD) && vc_any && (!(h_end && m_last_q) || txc_room);
    // The head and body payloads are put together only in the state that can send them (the
    // other one is 0 and unused): a simulator skips the wide assembly and shifts in other cycles.
    h_data = '0;
    if (st_q == S_HEAD) begin
      h_data[HX_HDR_DST_LSB +: HX_HDR_DST_W]       = m_dst_q;
      h_data[HX_HDR_SRC_LSB +: HX_HDR_SRC_W]       = node_i;
      h_data[HX_HDR_DGR_LSB +: 32]                 = m_route_q;
      h_data[HX_HDR_TAG_LSB +: HX_HDR_TAG_W]       = m_tag_q;
      h_data[HX_HDR_SEQ_LSB +: HX_HDR_SEQ_W]       = m_seq_q;
      h_data[HX_HDR_MLEN_LSB +: HX_HDR_MLEN_W]     = m_len_q;
      h_data[HX_HDR_PADDR_LSB +: HX_HDR_PADDR_W]   = m_paddr_q;
      h_data[HX_HDR_PBYTES_LSB +: HX_HDR_PBYTES_W] = p_bytes_q;
      h_data[HX_HDR_RAIL_LSB +: HX_HDR_RAIL_W]     = rail_i;
    end

    need_word = (m_avail_q != '0);
    b_ready   = ((m_off_q == '0) || prev_ok_q) && (!need_word || !rdb_empty);
    b_n       = (32'(p_left_q) > B) ? PKW'(B) : p_left_q;
    b_tail    = (32'(p_left_q) <= B);
    b_end     = b_tail && !crc_en_i;
    send_body = (st_q == S_BODY) && has_credit[p_vc_q] && b_ready && (!(b_end && m_last_q) || txc_room);
    send_trl  = (st_q == S_TRL) && has_credit[p_vc_q] && (!m_last_q || txc_room);
    t_data    = '0;
    if (st_q == S_TRL) t_data[31:0] = ~crc_q;
    word      = need_word ? rdb_out : '0;
    b_data    = '0;
    if (st_q == S_BODY) begin
      if (m_off_q == '0) begin
        b_data = word;
      end else begin
        b_data = (prev_q >> (32'(m_off_q) * 8)) | (word << ((B - 32'(m_off_q)) * 8));
      end
    end

    prime    = (st_q != S_IDLE) && (m_off_q != '0) && !prev_ok_q && need_word && !rdb_empty;
    rdb_pop  = prime || (send_body && need_word);
    pkt_end  = (send_head && h_end) || (send_body && b_end) || send_trl;
    msg_done = pkt_end && m_last_q;
    desc_pop = !desc_empty && ((st_q == S_IDLE) || pkt_end);
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
      m_last_q  <= d_last;
      p_bytes_q <= d_bytes;
    end
    if (send_head) begin
      p_left_q <= p_bytes_q;
      p_vc_q   <= vc_pick;
    end else if (send_body) begin
      p_left_q <= p_left_q - b_n;
    end
    if (rdb_pop) prev_q <= rdb_out;
    // The CRC only when a flit goes with CRC on: a simulator does the W-bit update for those alone.
    if (crc_en_i && send_head) crc_q <= hx_crc32(32'hFFFFFFFF, h_data);
    if (crc_en_i && send_body) crc_q <= hx_crc32(crc_q, b_data);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      st_q      <= S_IDLE;
      m_avail_q <= '0;
      prev_ok_q <= 1'b0;
    end else begin
      if (desc_pop) begin
        st_q      <= S_HEAD;
        m_avail_q <= (d_bytes == '0) ? '0 : 33'(d_bytes) + 33'(d_off);
        prev_ok_q <= 1'b0;
      end else begin
        if (rdb_pop) m_avail_q <= (m_avail_q > 33'(B)) ? m_avail_q - 33'(B) : '0;
        if (prime) prev_ok_q <= 1'b1;
        if (pkt_end) st_q <= S_IDLE;
        else if (send_head) st_q <= h_only ? S_TRL : S_BODY;   // S_TRL: CRC on (else pkt_end)
        else if (send_body && b_tail) st_q <= S_TRL;
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
    .down_i         (1'b0),          // the injection link never fails alone (a node fault)
    .credit_valid_i (out_credit_valid_i),
    .credit_vc_i    (out_credit_vc_i),
    .free_o         (vc_free),
    .has_credit_o   (has_credit),
    .credits_o      (unused_credits),
    .send_i         (send_head || send_body || send_trl),
    .send_vc_i      (send_head ? vc_pick : p_vc_q),
    .send_head_i    (send_head),
    .send_tail_i    (send_head ? h_end : (send_body ? b_end : 1'b1)),
    .send_data_i    (send_head ? h_data : (send_body ? b_data : t_data)),
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
  assign quiet_o = cmd_empty && (sl_valid_q == '0) && (rq_left_q == '0) && !rq_valid_q
                 && (32'(rd_cred_q) == RDQ) && rdb_empty && desc_empty && (st_q == S_IDLE)
                 && !out_valid_o && txc_empty;

  // Stalled: every action of this cycle is off -- no command enters a slot, no packet is cut, no
  // read is requested or outstanding at the port, no read word is taken, the segmenter neither
  // takes a descriptor nor sends, the output register holds no flit, no completion waits. Each of
  // those depends on registers and on valid inputs only (ready levels matter only to a request or
  // a completion, excluded here), so with no valid input the next edge leaves every register as it
  // is, and the one after it too. It is what a NIC does while it waits for its DMA read data.
  assign stalled_o = !sl_load && !pk_go && !rq_load && !rq_valid_q && !rdb_pop && !desc_pop
                   && !send_head && !send_body && !send_trl && !out_valid_o && txc_empty;

  logic unused_tx;
  assign unused_tx = ^{cmd_count, rdb_count, rdb_full, desc_count, txc_count, vc_free, vc_grant, out_idle,
                       pk_grant, unused_credits};

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
