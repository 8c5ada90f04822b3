// hx_nic_rx -- the receive half of the NIC: ejection buffers, per-VC reassembly with byte
// realignment, DMA writes with byte enables, and the RX completion queue.
//
// Flits from the router's ejection port land in per-VC buffers (hx_vc_buffer), so packets on
// different VCs may interleave on the link. One flit per cycle is drained, round robin over the VCs
// that can make progress, and returns its credit upstream in the next cycle. Per VC the unit keeps
// the packet in progress: its message-table entry, the next destination word, the bytes still to
// come, and the carry (the bytes of the previous flit that belong to the next word when the packet's
// destination address is not word aligned).
//
//   head flit:  look the message up in the table (allocating an entry for its first packet); no
//               write. If the table is full the head stays in its buffer and its VC is skipped until
//               an entry is freed; other VCs keep draining. Credits then throttle the sender.
//   body flit:  one DMA write: carry bytes | this flit shifted to the packet's byte offset, with
//               byte enables exactly covering the packet's bytes in that word.
//   tail flit:  as a body flit; if bytes spill into one more word, that trailing partial word is
//               written in the next cycle (overlapping the next head, which writes nothing).
// So a packet of P flits with n payload bytes at byte offset a costs ceil((a + n) / B) writes and
// P drain cycles when a head follows.
//
// A DMA write is counted in the message table when the memory accepts it; a message is complete
// when all its bytes have been accepted, and completions are queued in posted order per source
// (hx_nic_msg_table). Every output is registered (or read from a FIFO's registers).
//
// Limitation (by specification: a full table stalls RX): a packet needs a table entry for its
// message before it can drain. If all MSGS entries belong to messages whose missing packets sit
// behind heads of new messages at the front of every VC buffer (e.g. more than MSGS sources each
// sending a multi-packet message to this node, their packets interleaved on the ejection port),
// no VC can drain and the network deadlocks. Size MSGS for the expected fan-in or bound the
// messages in flight per destination in software.
module hx_nic_rx #(
  parameter int V     = 2,
  parameter int D     = 32,
  parameter int W     = 256,
  parameter int MSGS  = 32,
  parameter int NODES = 4096,
  parameter int CQ    = 16,
  parameter int VW    = (V > 1) ? $clog2(V) : 1
) (
  input  logic           clk_i,
  input  logic           rst_i,
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
  // RX completion queue
  output logic           rxc_valid_o,
  input  logic           rxc_ready_i,
  output logic [15:0]    rxc_src_o,
  output logic [15:0]    rxc_tag_o,
  output logic [31:0]    rxc_len_o,
  // status
  output logic           overflow_o,   // a flit arrived for a full VC buffer (sticky)
  output logic           quiet_o       // nothing buffered or pending; waits for input only
);
  `include "hx_flit.svh"

  localparam int B    = W / 8;                       // bytes per flit / DMA word
  localparam int OW   = $clog2(B);                   // byte offset inside a word
  localparam int BCW  = $clog2(B + 1);               // byte count 0..B
  localparam int EW   = (MSGS > 1) ? $clog2(MSGS) : 1;
  localparam int WQ   = 2;                           // DMA write queue depth
  localparam int WQW  = 32 + W + B + EW + BCW;       // {addr, data, be, entry, bytes}
  localparam int CQW  = 64;                          // {len, tag, src}
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
  logic [V-1:0]   blocked_q;             // head waits for a free message-table entry
  logic [EW-1:0]  entry_q  [V];
  logic [31:0]    waddr_q  [V];          // next destination word (aligned byte address)
  logic [OW-1:0]  off_q    [V];          // packet's byte offset inside a word
  logic [15:0]    rem_q    [V];          // payload bytes still to come
  logic [OW-1:0]  cn_q     [V];          // carry bytes (they go to bytes 0..cn-1 of waddr)
  logic [W-1:0]   cdata_q  [V];

  // trailing partial word of the last packet, written in the next cycle
  logic           fl_q;
  logic [31:0]    fl_addr_q;
  logic [W-1:0]   fl_data_q;
  logic [B-1:0]   fl_be_q;
  logic [EW-1:0]  fl_entry_q;
  logic [OW-1:0]  fl_bytes_q;

  logic           credit_valid_q;
  logic [VW-1:0]  credit_vc_q;

  // ---- DMA write queue -------------------------------------------------------------------------
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
  // A head may go unless its VC waits for a table entry; a body flit needs the write port, which a
  // pending trailing write takes first. Nothing moves while the write queue is full.
  logic [V-1:0] fr_head;
  logic [V-1:0] fr_tail;
  logic [V-1:0] elig;
  logic [V-1:0] grant;
  logic         any;

  always_comb begin
    for (int v = 0; v < V; v++) begin
      fr_head[v] = front_meta[v*2];
      fr_tail[v] = front_meta[v*2 + 1];
      elig[v] = front_valid[v] && !wq_full && (fr_head[v] ? !blocked_q[v] : !fl_q);
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

  // ---- head: message-table lookup ----------------------------------------------------------------
  logic           is_head;
  logic           is_tail;
  logic [15:0]    h_src;
  logic [15:0]    h_seq;
  logic [15:0]    h_tag;
  logic [31:0]    h_mlen;
  logic [31:0]    h_paddr;
  logic [15:0]    h_pbytes;
  logic [OW-1:0]  h_off;
  logic           lk_ok;
  logic [EW-1:0]  lk_entry;
  logic           head_go;

  assign is_head  = any && fr_head[sel];
  assign is_tail  = fr_tail[sel];
  assign h_src    = fd[HX_HDR_SRC_LSB +: HX_HDR_SRC_W];
  assign h_seq    = fd[HX_HDR_SEQ_LSB +: HX_HDR_SEQ_W];
  assign h_tag    = fd[HX_HDR_TAG_LSB +: HX_HDR_TAG_W];
  assign h_mlen   = fd[HX_HDR_MLEN_LSB +: HX_HDR_MLEN_W];
  assign h_paddr  = fd[HX_HDR_PADDR_LSB +: HX_HDR_PADDR_W];
  assign h_pbytes = fd[HX_HDR_PBYTES_LSB +: HX_HDR_PBYTES_W];
  assign h_off    = OW'(h_paddr % 32'(B));
  assign head_go  = is_head && lk_ok;

  // ---- body: realignment -------------------------------------------------------------------------
  logic           is_body;
  logic [OW-1:0]  a;
  logic [15:0]    rem;
  logic [BCW-1:0] n;        // payload bytes in this flit
  logic [BCW-1:0] n1;       // of them into the current word
  logic [BCW-1:0] n2;       // into the next word (carry)
  logic [OW-1:0]  cn;
  logic [W-1:0]   b_data;
  logic [B-1:0]   b_be;
  logic [BCW-1:0] b_bytes;
  logic [W-1:0]   c_data;   // carry for the next word
  logic [B-1:0]   c_be;

  always_comb begin
    is_body = any && !fr_head[sel];
    a       = off_q[sel];
    rem     = rem_q[sel];
    cn      = cn_q[sel];
    n       = (32'(rem) >= B) ? BCW'(B) : BCW'(rem);
    n1      = (32'(n) + 32'(a) > B) ? BCW'(B - 32'(a)) : n;
    n2      = n - n1;
    b_data  = cdata_q[sel] | (fd << (32'(a) * 8));
    b_be    = ~(BE_ONES << cn) | (~(BE_ONES << n1) << a);
    b_bytes = BCW'(cn) + n1;
    c_data  = fd >> ((B - 32'(a)) * 8);
    c_be    = ~(BE_ONES << n2);
  end

  // ---- what happens this cycle ---------------------------------------------------------------
  logic spill;   // a tail whose bytes reach into one more word
  always_comb begin
    spill   = is_body && is_tail && (n2 != '0);
    deq     = head_go || is_body;
    wq_push = fl_q ? !wq_full : is_body;
    if (fl_q) begin
      wq_in = {fl_addr_q, fl_data_q, fl_be_q, fl_entry_q, BCW'(fl_bytes_q)};
    end else begin
      wq_in = {waddr_q[sel], b_data, b_be, entry_q[sel], b_bytes};
    end
  end

  // ---- message table and completions -------------------------------------------------------------
  logic           cpl_push;
  logic [15:0]    cpl_src;
  logic [15:0]    cpl_tag;
  logic [31:0]    cpl_len;
  logic           freed;
  logic           tbl_quiet;
  logic           rxc_empty;
  logic           rxc_full;
  logic [CQW-1:0] rxc_out;
  logic [$clog2(CQ + 1)-1:0] rxc_count;

  assign wq_pop = !wq_empty && wr_ready_i;

  hx_nic_msg_table #(.MSGS(MSGS), .NODES(NODES), .B(B), .EW(EW), .BCW(BCW)) u_tbl (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .lk_valid_i   (is_head),
    .lk_src_i     (h_src),
    .lk_seq_i     (h_seq),
    .lk_tag_i     (h_tag),
    .lk_len_i     (h_mlen),
    .lk_ok_o      (lk_ok),
    .lk_entry_o   (lk_entry),
    .land_valid_i (wq_pop),
    .land_entry_i (wq_out[BCW +: EW]),
    .land_bytes_i (wq_out[BCW-1:0]),
    .cpl_room_i   (!rxc_full || rxc_ready_i),
    .cpl_push_o   (cpl_push),
    .cpl_src_o    (cpl_src),
    .cpl_tag_o    (cpl_tag),
    .cpl_len_o    (cpl_len),
    .freed_o      (freed),
    .quiet_o      (tbl_quiet)
  );

  hx_fifo #(.W(CQW), .DEPTH(CQ)) u_rxc (
    .clk_i   (clk_i),
    .rst_i   (rst_i),
    .push_i  (cpl_push),
    .data_i  ({cpl_len, cpl_tag, cpl_src}),
    .pop_i   (rxc_ready_i && !rxc_empty),
    .data_o  (rxc_out),
    .empty_o (rxc_empty),
    .full_o  (rxc_full),
    .count_o (rxc_count)
  );

  // ---- state update --------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (head_go) begin
      entry_q[sel] <= lk_entry;
      waddr_q[sel] <= h_paddr - 32'(h_off);
      off_q[sel]   <= h_off;
      rem_q[sel]   <= h_pbytes;
      cn_q[sel]    <= '0;
      cdata_q[sel] <= '0;
    end else if (is_body) begin
      waddr_q[sel] <= waddr_q[sel] + 32'(B);
      rem_q[sel]   <= rem - 16'(n);
      cn_q[sel]    <= OW'(n2);
      cdata_q[sel] <= c_data;
    end
    if (spill) begin
      fl_addr_q  <= waddr_q[sel] + 32'(B);
      fl_data_q  <= c_data;
      fl_be_q    <= c_be;
      fl_entry_q <= entry_q[sel];
      fl_bytes_q <= OW'(n2);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      blocked_q      <= '0;
      fl_q           <= 1'b0;
      credit_valid_q <= 1'b0;
      credit_vc_q    <= '0;
    end else begin
      credit_valid_q <= deq;
      credit_vc_q    <= sel;
      // The trailing write leaves this cycle if the queue has room; a tail that spills sets it.
      if (fl_q && !wq_full) fl_q <= 1'b0;
      if (spill) fl_q <= 1'b1;
      if (is_head && !lk_ok) blocked_q[sel] <= 1'b1;
      if (freed) blocked_q <= '0;
    end
  end

  // ---- outputs -----------------------------------------------------------------------------
  assign credit_valid_o = credit_valid_q;
  assign credit_vc_o    = credit_vc_q;
  assign wr_valid_o     = !wq_empty;
  assign wr_addr_o      = wq_out[WQW-1 -: 32];
  assign wr_data_o      = wq_out[B + EW + BCW +: W];
  assign wr_be_o        = wq_out[EW + BCW +: B];
  assign rxc_valid_o    = !rxc_empty;
  assign rxc_src_o      = rxc_out[15:0];
  assign rxc_tag_o      = rxc_out[31:16];
  assign rxc_len_o      = rxc_out[63:32];
  assign quiet_o        = (front_valid == '0) && !fl_q && wq_empty && !credit_valid_q && tbl_quiet
                        && rxc_empty;

  logic unused_rx;
  assign unused_rx = ^{wq_count, rxc_count, grant};

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // Buffers, queues and the message table check their own promises; here, what per-VC reassembly
  // relies on: packets arrive whole on each VC (a head opens it, its tail closes it).
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
    end
  end
`endif
endmodule
