// hx_nic_msg_table -- the receive side's table of messages in reassembly, and the engine that
// completes them in the order their source posted them.
//
// An entry is keyed by (source, sequence number) and holds the message's tag and length and the
// bytes of it that have landed in host memory so far. The first head flit of a message that arrives
// (packets may arrive in any order) allocates the entry; every accepted DMA write adds its bytes.
// A message is done when all its bytes have landed. The completion engine delivers a done message
// only when its sequence number is the one expected next from its source (a per-source table,
// NODES entries), then advances that expectation and looks for the successor among the done
// entries, so messages from one source complete in posted order however their packets arrived.
//
// Promise:
//   - lk_ok_o / lk_entry_o answer combinationally for the head on lk_*: the message's entry, or a
//     free entry when the message has none yet (lk_ok_o low: table full, the head must wait).
//     With lk_valid_i high the answer is acted on at the clock edge (a miss allocates).
//     At most one lookup per cycle, so two heads of a new message never allocate two entries.
//   - land_* may name any allocated entry; an entry is freed only after all its bytes landed, so a
//     write in flight never refers to a freed entry.
//   - at most one completion per cycle, pushed only when cpl_room_i is high; a done message whose
//     predecessor has not completed waits in its entry; nothing is dropped.
//   - a zero-length message is done as soon as it is allocated.
//   - per-cycle work is a CAM over MSGS narrow keys, not proportional to NODES.
module hx_nic_msg_table #(
  parameter int MSGS  = 32,
  parameter int NODES = 4096,
  parameter int B     = 32,                          // bytes per flit: most bytes of one write
  parameter int EW    = (MSGS > 1) ? $clog2(MSGS) : 1,
  parameter int BCW   = $clog2(B + 1)
) (
  input  logic           clk_i,
  input  logic           rst_i,
  // head flit of a packet: find or allocate its message's entry
  input  logic           lk_valid_i,
  input  logic [15:0]    lk_src_i,
  input  logic [15:0]    lk_seq_i,
  input  logic [15:0]    lk_tag_i,
  input  logic [31:0]    lk_len_i,
  output logic           lk_ok_o,
  output logic [EW-1:0]  lk_entry_o,
  // bytes landed in host memory (a DMA write was accepted)
  input  logic           land_valid_i,
  input  logic [EW-1:0]  land_entry_i,
  input  logic [BCW-1:0] land_bytes_i,
  // completions, in posted order per source
  input  logic           cpl_room_i,
  output logic           cpl_push_o,
  output logic [15:0]    cpl_src_o,
  output logic [15:0]    cpl_tag_o,
  output logic [31:0]    cpl_len_o,
  output logic           freed_o,     // an entry is freed at this edge
  output logic           quiet_o      // no completion work pending (entries may wait for bytes)
);
  localparam int IW = (NODES > 1) ? $clog2(NODES) : 1;

  // ---- the table ---------------------------------------------------------------------------------
  logic [MSGS-1:0] valid_q;
  logic [MSGS-1:0] done_q;     // every byte landed
  logic [MSGS-1:0] chk_q;      // done, found out of order: waits for its predecessor
  logic [15:0]     src_q  [MSGS];
  logic [15:0]     seq_q  [MSGS];
  logic [15:0]     tag_q  [MSGS];
  logic [31:0]     len_q  [MSGS];
  logic [31:0]     cnt_q  [MSGS];

  // ---- completion engine state -------------------------------------------------------------------
  logic            ce_busy_q;   // ce_entry_q is done and in order: deliver it when there is room
  logic [EW-1:0]   ce_entry_q;

  // ---- lookup / allocation -----------------------------------------------------------------------
  logic [MSGS-1:0] hit_vec;
  logic            hit_any;
  logic [EW-1:0]   hit_idx;
  logic            free_any;
  logic [EW-1:0]   free_idx;
  logic            alloc;

  always_comb begin
    hit_any  = 1'b0;
    hit_idx  = '0;
    free_any = 1'b0;
    free_idx = '0;
    for (int i = 0; i < MSGS; i++) begin
      hit_vec[i] = valid_q[i] && (src_q[i] == lk_src_i) && (seq_q[i] == lk_seq_i);
    end
    for (int i = MSGS - 1; i >= 0; i--) begin
      if (hit_vec[i]) begin
        hit_any = 1'b1;
        hit_idx = EW'(i);
      end
      if (!valid_q[i]) begin
        free_any = 1'b1;
        free_idx = EW'(i);
      end
    end
    lk_ok_o    = hit_any || free_any;
    lk_entry_o = hit_any ? hit_idx : free_idx;
    alloc      = lk_valid_i && !hit_any && free_any;
  end

  // ---- landed bytes ------------------------------------------------------------------------------
  logic [31:0] land_cnt;
  assign land_cnt = cnt_q[land_entry_i] + 32'(land_bytes_i);

  // ---- completion engine -----------------------------------------------------------------------
  // Idle: pick a done entry not yet checked and compare its sequence number with the one expected
  // from its source. Busy: deliver ce_entry_q. Delivering frees the entry, advances the source's
  // expected sequence number and, if the successor message is already done, goes on with it.
  logic [MSGS-1:0] cand;
  logic            cand_any;
  logic [EW-1:0]   cand_idx;
  logic [EW-1:0]   tgt;          // entry the engine looks at this cycle
  logic [15:0]     exp_seq;
  logic            in_order;
  logic            deliver;
  logic            mark_chk;
  logic [15:0]     nxt_seq;
  logic [MSGS-1:0] nxt_vec;
  logic            nxt_any;
  logic [EW-1:0]   nxt_idx;

  always_comb begin
    cand     = done_q & ~chk_q;
    cand_any = 1'b0;
    cand_idx = '0;
    for (int i = MSGS - 1; i >= 0; i--) begin
      if (cand[i]) begin
        cand_any = 1'b1;
        cand_idx = EW'(i);
      end
    end
    tgt      = ce_busy_q ? ce_entry_q : cand_idx;
  end

  always_comb begin
    in_order = ce_busy_q || (cand_any && (seq_q[tgt] == exp_seq));
    deliver  = in_order && cpl_room_i;
    mark_chk = !ce_busy_q && cand_any && !in_order;
    nxt_seq  = seq_q[tgt] + 16'd1;
    nxt_any  = 1'b0;
    nxt_idx  = '0;
    for (int i = 0; i < MSGS; i++) begin
      nxt_vec[i] = valid_q[i] && done_q[i] && (src_q[i] == src_q[tgt]) && (seq_q[i] == nxt_seq);
    end
    for (int i = MSGS - 1; i >= 0; i--) begin
      if (nxt_vec[i]) begin
        nxt_any = 1'b1;
        nxt_idx = EW'(i);
      end
    end
  end

  logic [IW-1:0] tgt_node;
  assign tgt_node = src_q[tgt][IW-1:0];

  hx_nic_seq_table #(.NODES(NODES), .IW(IW)) u_expected (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_idx_i (tgt_node),
    .rd_seq_o (exp_seq),
    .wr_i     (deliver),
    .wr_idx_i (tgt_node),
    .wr_seq_i (nxt_seq)
  );

  // ---- state update --------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (alloc) begin
      src_q[free_idx] <= lk_src_i;
      seq_q[free_idx] <= lk_seq_i;
      tag_q[free_idx] <= lk_tag_i;
      len_q[free_idx] <= lk_len_i;
    end
    // A landing write and an allocation in the same cycle touch different entries (a write never
    // names an entry that is not allocated yet).
    if (land_valid_i) cnt_q[land_entry_i] <= land_cnt;
    if (alloc) cnt_q[free_idx] <= '0;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      valid_q    <= '0;
      done_q     <= '0;
      chk_q      <= '0;
      ce_busy_q  <= 1'b0;
      ce_entry_q <= '0;
    end else begin
      // A write never lands for an entry allocated in the same cycle (its head is processed first),
      // and an entry being delivered has no bytes left to land.
      if (land_valid_i && (land_cnt == len_q[land_entry_i])) done_q[land_entry_i] <= 1'b1;
      if (mark_chk) chk_q[tgt] <= 1'b1;
      if (deliver) begin
        valid_q[tgt] <= 1'b0;
        done_q[tgt]  <= 1'b0;
        chk_q[tgt]   <= 1'b0;
        ce_busy_q    <= nxt_any;
        ce_entry_q   <= nxt_idx;
      end else if (in_order) begin
        ce_busy_q    <= 1'b1;
        ce_entry_q   <= tgt;
      end
      if (alloc) begin
        valid_q[free_idx] <= 1'b1;
        done_q[free_idx]  <= (lk_len_i == '0);
        chk_q[free_idx]   <= 1'b0;
      end
    end
  end

  assign cpl_push_o = deliver;
  assign cpl_src_o  = src_q[tgt];
  assign cpl_tag_o  = tag_q[tgt];
  assign cpl_len_o  = len_q[tgt];
  assign freed_o    = deliver;
  assign quiet_o    = !ce_busy_q && !cand_any;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      // lookup: one entry per message
      assert (!lk_valid_i || $onehot0(hit_vec)) else hx_rtl_assert_failed($sformatf(
        "%m: message (src %0d, seq %0d) holds entries %b", lk_src_i, lk_seq_i, hit_vec));
      // landing: on an allocated entry that still waits for bytes, never past the message length
      assert (!land_valid_i || (valid_q[land_entry_i] && !done_q[land_entry_i]
                                && land_cnt <= len_q[land_entry_i]))
        else hx_rtl_assert_failed($sformatf(
          "%m: %0d bytes landed for entry %0d (allocated %0d, done %0d, %0d of %0d bytes before)",
          land_bytes_i, land_entry_i, valid_q[land_entry_i], done_q[land_entry_i],
          cnt_q[land_entry_i], len_q[land_entry_i]));
      // completion: with room, of a done message, in posted order
      assert (!cpl_push_o || cpl_room_i) else hx_rtl_assert_failed($sformatf(
        "%m: completion pushed with no room"));
      assert (!cpl_push_o || (valid_q[tgt] && done_q[tgt] && seq_q[tgt] == exp_seq))
        else hx_rtl_assert_failed($sformatf(
          "%m: completion of entry %0d (src %0d seq %0d, allocated %0d, done %0d), expected seq %0d",
          tgt, src_q[tgt], seq_q[tgt], valid_q[tgt], done_q[tgt], exp_seq));
    end
  end
`endif
endmodule
