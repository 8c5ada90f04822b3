// hx_nic_rx -- the receive half of the NIC: ejection buffers, per-VC reassembly with byte
// realignment, DMA writes with byte enables, and the RX landing queue.
//
// Flits from the router's ejection port land in per-VC buffers (hx_vc_buffer), so packets on
// different VCs may interleave on the link. One flit per cycle is drained, round robin over the VCs
// that can make progress, and returns its credit upstream in the next cycle. Per VC the unit keeps
// the packet in progress: the next destination word, the bytes still to come, the carry (the bytes
// of the previous flit that belong to the next word when the packet's destination address is not
// word aligned), and the packet's landing record.
//
//   head flit:  start the packet (its head carries everything needed: destination address, byte
//               count, and the message's source, sequence number, tag and length); no write. A
//               head that is also the tail (a header-only packet) queues a write without bytes.
//   body flit:  one DMA write: carry bytes | this flit shifted to the packet's byte offset, with
//               byte enables exactly covering the packet's bytes in that word.
//   tail flit:  as a body flit; if bytes spill into one more word, that trailing partial word is
//               written in the next cycle (overlapping the next head, which writes nothing).
// So a packet of P flits with n payload bytes at byte offset a costs ceil((a + n) / B) writes and
// P drain cycles when a head follows.
//
// With crc_en_i (rtl/nic/hx_nic_tx.sv) every packet ends with a trailer: its body flits are data
// flits (none marked tail; the last one's spill is written as above) and its tail is the trailer,
// whose payload bits [31:0] hold the CRC-32 of the head's and the data flits' payloads
// (rtl/common/hx_crc32.svh). Per VC the unit keeps the packet's running CRC (packets on different
// VCs interleave); the trailer writes nothing, is compared whole with what was sent (the VC's CRC
// in bits [31:0], zeros above), and queues the packet's landing record (a record-only entry,
// behind the packet's writes) with crc_bad set on a mismatch; crc_errors_o counts those packets.
// The trailer costs one drain cycle per packet and carries no payload.
//
// Completion is counted per packet, not per message: when memory accepts a packet's last write,
// the packet's landing record {crc_bad, source, sequence, tag, message length, packet bytes} is
// queued for
// the host, which adds up each message's bytes and completes messages in posted order per source
// (sysc/host/message_assembler.h). Why: with per-packet addressing a packet never needs state
// beyond its own VC to drain, so nothing the NIC holds can stop it from draining the network. A
// message table sized at build time could (more partly received messages fanning in than entries,
// their missing packets behind heads that need an entry: the whole network deadlocks). The host's
// count lives in host memory and grows with the fan-in. The only back-pressure on the drain is the
// memory's write port and the landing queue when the host stops popping it.
// Every output is registered (or read from a FIFO's registers).
module hx_nic_rx #(
  parameter int V     = 2,
  parameter int D     = 32,
  parameter int W     = 256,
  parameter int CQ    = 16,
  parameter int VW    = (V > 1) ? $clog2(V) : 1
) (
  input  logic           clk_i,
  input  logic           rst_i,
  input  logic           crc_en_i,      // held constant after reset: packets end with a CRC trailer
  // ejection link from the router
  input  logic           in_valid_i,
  input  logic           in_head_i,
  input  logic           in_tail_i,
  input  logic [VW-1:0]  in_vc_i,
  input  logic [W-1:0]   in_data_i,
  output logic           credit_valid_o,
  output logic [VW-1:0]  credit_vc_o,
  // DMA write port
  output logic           wr_valid_o,
  input  logic           wr_ready_i,
  output logic [31:0]    wr_addr_o,
  output logic [W-1:0]   wr_data_o,
  output logic [W/8-1:0] wr_be_o,
  // RX landing queue: one record per packet, when its last byte is in host memory
  output logic           rxc_valid_o,
  input  logic           rxc_ready_i,
  output logic [15:0]    rxc_src_o,
  output logic [15:0]    rxc_seq_o,
  output logic [15:0]    rxc_tag_o,
  output logic [31:0]    rxc_len_o,     // the whole message's length
  output logic [15:0]    rxc_bytes_o,   // this packet's payload bytes
  output logic           rxc_crc_bad_o, // the packet's CRC did not match (crc_en_i)
  // status
  output logic           overflow_o,   // a flit arrived for a full VC buffer (sticky)
  output logic [31:0]    crc_errors_o, // packets whose CRC did not match (saturating)
  output logic           quiet_o       // nothing buffered or pending; waits for input only
);
  `include "hx_flit.svh"
  `include "hx_crc32.svh"

  localparam int B    = W / 8;                       // bytes per flit / DMA word
  localparam int OW   = $clog2(B);                   // byte offset inside a word
  localparam int BCW  = $clog2(B + 1);               // byte count 0..B
  localparam int RDW  = 96;                          // packet record {bytes, len, tag, seq, src}
  localparam int RW   = RDW + 1;                     // landing record {crc_bad, packet record}
  localparam int WQ   = 2;                           // DMA write queue depth
  localparam int WQW  = 32 + W + B + 2 + RW;         // {addr, data, be, wr, last, record}
  localparam logic [B-1:0] BE_ONES = {B{1'b1}};

  // ---- ejection buffers ----------------------------------------------------------------------
  logic [V-1:0]   front_valid;
  logic [V*2-1:0] front_meta;     // {tail, head} per VC
  logic [VW-1:0]  sel;            // VC drained this cycle
  logic [W-1:0]   fd;             // its front flit
  logic           deq;

  hx_vc_buffer #(.V(V), .D(D), .W(W), .MW(2), .VW(VW)) u_buf (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .wr_valid_i    (in_valid_i),
    .wr_vc_i       (in_vc_i),
    .wr_meta_i     ({in_tail_i, in_head_i}),
    .wr_data_i     (in_data_i),
    .front_valid_o (front_valid),
    .front_meta_o  (front_meta),
    .rd_vc_i       (sel),
    .rd_data_o     (fd),
    .deq_i         (deq),
    .deq_vc_i      (sel),
    .overflow_o    (overflow_o)
  );

  // ---- per-VC reassembly state -----------------------------------------------------------------
  logic [RDW-1:0] rec_q    [V];          // record of the packet in progress
  logic [31:0]    waddr_q  [V];          // next destination word (aligned byte address)
  logic [OW-1:0]  off_q    [V];          // packet's byte offset inside a word
  logic [15:0]    rem_q    [V];          // payload bytes still to come
  logic [OW-1:0]  cn_q     [V];          // carry bytes (they go to bytes 0..cn-1 of waddr)
  logic [W-1:0]   cdata_q  [V];
  logic [31:0]    crc_q    [V];          // running CRC of the packet in progress (crc_en_i)

  // trailing partial word of the last packet, written in the next cycle
  logic           fl_q;
  logic [31:0]    fl_addr_q;
  logic [W-1:0]   fl_data_q;
  logic [B-1:0]   fl_be_q;
  logic [RDW-1:0] fl_rec_q;

  logic           credit_valid_q;
  logic [VW-1:0]  credit_vc_q;
  logic [31:0]    crc_err_q;

  // ---- DMA write queue -------------------------------------------------------------------------
  // An entry is a write (wr) or, for a header-only packet, only a record; `last` marks the entry
  // whose acceptance completes its packet, which then queues the packet's record.
  logic           wq_push;
  logic [WQW-1:0] wq_in;
  logic [WQW-1:0] wq_out;
  logic           wq_empty;
  logic           wq_full;
  logic           wq_pop;
  logic [$clog2(WQ + 1)-1:0] wq_count;

  hx_fifo #(.W(WQW), .DEPTH(WQ)) u_wq (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (wq_push),
    .data_i  (wq_in),
    .pop_i   (wq_pop),
    .data_o  (wq_out),
    .empty_o (wq_empty),
    .full_o  (wq_full),
    .count_o (wq_count)
  );

  // ---- arbitration: one VC per cycle -------------------------------------------------------------
  // Every front flit may go except that a flit queueing a write (body, tail, or a header-only
  // packet) yields to a pending trailing write. Nothing moves while the write queue is full.
  logic [V-1:0] fr_head;
  logic [V-1:0] fr_tail;
  logic [V-1:0] elig;
  logic [V-1:0] grant;
  logic         any;

  always_comb begin
    for (int v = 0; v < V; v++) begin
      fr_head[v] = front_meta[v*2];
      fr_tail[v] = front_meta[v*2 + 1];
      elig[v] = front_valid[v] && !wq_full && ((fr_head[v] && !fr_tail[v]) || !fl_q);
    end
  end

  hx_arb_rr #(.N(V), .IW(VW)) u_arb (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .req_i       (elig),
    .accept_i    (1'b1),
    .grant_o     (grant),
    .grant_idx_o (sel),
    .any_o       (any)
  );

  // ---- head: the packet's fields -----------------------------------------------------------------
  logic           is_head;
  logic           is_tail;
  logic           hdr_only;   // a header-only packet (zero-length message): no write, one record
  logic [31:0]    h_paddr;
  logic [15:0]    h_pbytes;
  logic [OW-1:0]  h_off;
  logic [RDW-1:0] h_rec;

  assign is_head  = any && fr_head[sel];
  assign is_tail  = fr_tail[sel];
  assign hdr_only = is_head && is_tail;
  assign h_paddr  = fd[HX_HDR_PADDR_LSB +: HX_HDR_PADDR_W];
  assign h_pbytes = fd[HX_HDR_PBYTES_LSB +: HX_HDR_PBYTES_W];
  assign h_off    = OW'(h_paddr % 32'(B));
  assign h_rec    = {h_pbytes, fd[HX_HDR_MLEN_LSB +: HX_HDR_MLEN_W], fd[HX_HDR_TAG_LSB +: HX_HDR_TAG_W],
                     fd[HX_HDR_SEQ_LSB +: HX_HDR_SEQ_W], fd[HX_HDR_SRC_LSB +: HX_HDR_SRC_W]};

  // ---- body: realignment -------------------------------------------------------------------------
  // With CRC a non-head flit is a data flit, or the trailer when it is the tail.
  logic           is_body;
  logic           is_trl;   // the trailer (crc_en_i)
  logic           is_data;  // a flit carrying payload bytes
  logic           last_data;   // the packet's last data flit
  logic           trl_bad;  // the trailer's CRC differs from the VC's
  logic [OW-1:0]  a;
  logic [15:0]    rem;
  logic [BCW-1:0] n;        // payload bytes in this flit
  logic [BCW-1:0] n1;       // of them into the current word
  logic [BCW-1:0] n2;       // into the next word (carry)
  logic [OW-1:0]  cn;
  logic [W-1:0]   b_data;
  logic [B-1:0]   b_be;
  logic [W-1:0]   c_data;   // carry for the next word
  logic [B-1:0]   c_be;

  always_comb begin
    is_body = any && !fr_head[sel];
    is_trl  = crc_en_i && is_body && is_tail;
    is_data = is_body && !is_trl;
    a       = off_q[sel];
    rem     = rem_q[sel];
    cn      = cn_q[sel];
    n       = (32'(rem) >= B) ? BCW'(B) : BCW'(rem);
    n1      = (32'(n) + 32'(a) > B) ? BCW'(B - 32'(a)) : n;
    n2      = n - n1;
    last_data = is_data && (crc_en_i ? (32'(rem) <= B) : is_tail);
    // The wide realignment only for a data flit (0 and unused otherwise): a simulator skips the
    // shifts in the other cycles.
    b_data  = '0;
    b_be    = '0;
    c_data  = '0;
    c_be    = '0;
    if (is_data) begin
      b_data = cdata_q[sel] | (fd << (32'(a) * 8));
      b_be   = ~(BE_ONES << cn) | (~(BE_ONES << n1) << a);
      c_data = fd >> ((B - 32'(a)) * 8);
      c_be   = ~(BE_ONES << n2);
    end
  end

  // The trailer's check, outside the always_comb (Icarus selects no constant part there): the whole
  // trailer must be what was sent, the CRC in bits [31:0] and zeros above, so a bit flipped
  // anywhere in the packet (its trailer included) marks it corrupted.
  logic [31:0] trl_want;   // the CRC as sent (inverted)
  assign trl_want = ~crc_q[sel];
  assign trl_bad = is_trl && (fd != {{(W - 32){1'b0}}, trl_want});

  // ---- what happens this cycle ---------------------------------------------------------------
  // With CRC no write is last (a data flit is never the tail): the trailer's record-only entry is.
  logic spill;   // the last data flit's bytes reach into one more word
  always_comb begin
    spill   = last_data && (n2 != '0);
    deq     = is_head || is_body;
    wq_push = fl_q ? !wq_full : (is_body || hdr_only);
    // Assembled only when pushed (one of the four cases; 0 otherwise).
    wq_in = '0;
    if (fl_q) begin
      wq_in = {fl_addr_q, fl_data_q, fl_be_q, 1'b1, !crc_en_i, 1'b0, fl_rec_q};
    end else if (hdr_only) begin
      wq_in = {32'd0, {W{1'b0}}, {B{1'b0}}, 1'b0, 1'b1, 1'b0, h_rec};
    end else if (is_trl) begin
      wq_in = {32'd0, {W{1'b0}}, {B{1'b0}}, 1'b0, 1'b1, trl_bad, rec_q[sel]};
    end else if (is_data) begin
      wq_in = {waddr_q[sel], b_data, b_be, 1'b1, is_tail && !spill, 1'b0, rec_q[sel]};
    end
  end

  // ---- landing records -------------------------------------------------------------------------
  // The queue's head entry leaves when memory takes its write (or at once, for a record only),
  // and a last entry only while the landing queue has room: both from registers, so wr_valid_o
  // stays registered.
  logic           wq_wr;
  logic           wq_last;
  logic           rxc_empty;
  logic           rxc_full;
  logic [RW-1:0]  rxc_out;
  logic [$clog2(CQ + 1)-1:0] rxc_count;

  assign wq_wr   = wq_out[RW + 1];
  assign wq_last = wq_out[RW];
  assign wq_pop  = !wq_empty && (!wq_last || !rxc_full) && (!wq_wr || wr_ready_i);

  hx_fifo #(.W(RW), .DEPTH(CQ)) u_rxc (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (wq_pop && wq_last),
    .data_i  (wq_out[RW-1:0]),
    .pop_i   (rxc_ready_i && !rxc_empty),
    .data_o  (rxc_out),
    .empty_o (rxc_empty),
    .full_o  (rxc_full),
    .count_o (rxc_count)
  );

  // ---- state update --------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (is_head) begin
      rec_q[sel]   <= h_rec;
      waddr_q[sel] <= h_paddr - 32'(h_off);
      off_q[sel]   <= h_off;
      rem_q[sel]   <= h_pbytes;
      cn_q[sel]    <= '0;
      cdata_q[sel] <= '0;
    end else if (is_data) begin
      waddr_q[sel] <= waddr_q[sel] + 32'(B);
      rem_q[sel]   <= rem - 16'(n);
      cn_q[sel]    <= OW'(n2);
      cdata_q[sel] <= c_data;
    end
    if (spill) begin
      fl_addr_q <= waddr_q[sel] + 32'(B);
      fl_data_q <= c_data;
      fl_be_q   <= c_be;
      fl_rec_q  <= rec_q[sel];
    end
    // The CRC only when a flit is drained with CRC on: a simulator does the W-bit update for those
    // alone.
    if (crc_en_i && is_head) crc_q[sel] <= hx_crc32(32'hFFFFFFFF, fd);
    if (crc_en_i && is_data) crc_q[sel] <= hx_crc32(crc_q[sel], fd);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      fl_q           <= 1'b0;
      credit_valid_q <= 1'b0;
      credit_vc_q    <= '0;
      crc_err_q      <= '0;
    end else begin
      if (trl_bad && (crc_err_q != 32'hFFFFFFFF)) crc_err_q <= crc_err_q + 32'd1;
      credit_valid_q <= deq;
      credit_vc_q    <= sel;
      // The trailing write leaves this cycle if the queue has room; a tail that spills sets it.
      if (fl_q && !wq_full) fl_q <= 1'b0;
      if (spill) fl_q <= 1'b1;
    end
  end

  // ---- outputs -----------------------------------------------------------------------------
  assign credit_valid_o = credit_valid_q;
  assign credit_vc_o    = credit_vc_q;
  assign wr_valid_o     = !wq_empty && wq_wr && (!wq_last || !rxc_full);
  assign wr_addr_o      = wq_out[WQW-1 -: 32];
  assign wr_data_o      = wq_out[B + 2 + RW +: W];
  assign wr_be_o        = wq_out[2 + RW +: B];
  assign rxc_valid_o    = !rxc_empty;
  assign rxc_src_o      = rxc_out[15:0];
  assign rxc_seq_o      = rxc_out[31:16];
  assign rxc_tag_o      = rxc_out[47:32];
  assign rxc_len_o      = rxc_out[79:48];
  assign rxc_bytes_o    = rxc_out[95:80];
  assign rxc_crc_bad_o  = rxc_out[96];
  assign crc_errors_o   = crc_err_q;
  assign quiet_o        = (front_valid == '0) && !fl_q && wq_empty && !credit_valid_q && rxc_empty;

  logic unused_rx;
  assign unused_rx = ^{wq_count, rxc_count, grant};

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // Buffers and queues check their own promises; here, what per-VC reassembly relies on: packets
  // arrive whole on each VC (a head opens it, its tail closes it), and a packet has exactly the
  // body flits its head's byte count needs (the host checks bytes against the message's length);
  // with CRC, exactly the data flits it needs and then its trailer.
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  logic [V-1:0] open_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      open_q <= '0;
    end else begin
      if (in_valid_i) open_q[in_vc_i] <= !in_tail_i;
      assert (!(in_valid_i && in_head_i && open_q[in_vc_i])) else hx_rtl_assert_failed($sformatf(
        "%m: packets interleave on ejection VC %0d: a head arrived before the open packet's tail",
        in_vc_i));
      assert (!(in_valid_i && !in_head_i && !open_q[in_vc_i])) else hx_rtl_assert_failed(
        $sformatf("%m: body or tail flit on ejection VC %0d with no packet open", in_vc_i));
      assert (!(hdr_only && h_pbytes != '0)) else hx_rtl_assert_failed($sformatf(
        "%m: header-only packet on VC %0d claims %0d payload bytes", sel, h_pbytes));
      assert (!(is_data && rem == '0)) else hx_rtl_assert_failed($sformatf(
        "%m: body flit on VC %0d after the packet's bytes were all written", sel));
      assert (!(is_data && is_tail && 32'(rem) > B)) else hx_rtl_assert_failed($sformatf(
        "%m: tail on VC %0d with %0d of the packet's bytes still to come", sel, rem));
      assert (!(is_trl && rem != '0)) else hx_rtl_assert_failed($sformatf(
        "%m: CRC trailer on VC %0d with %0d of the packet's bytes still to come", sel, rem));
      assert (!(crc_en_i && hdr_only)) else hx_rtl_assert_failed($sformatf(
        "%m: head flit marked tail on VC %0d with CRC on (a packet ends with its trailer)", sel));
    end
  end
`endif
endmodule
