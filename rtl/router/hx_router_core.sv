// hx_router_core -- input-queued, credit-flow-controlled, wormhole virtual-channel router core.
//
// Used by every router and switch of hxemu: the board router (P = 5) and the tree switch (P = K)
// differ only in the route computers their tops put in front of rt_port_i / rt_class_i.
//
// Pipeline (zero load, 2 router cycles per hop):
//   cycle 0  RC + BW   the flit is on the input link; the route computer (outside this core) maps its
//                      head to an output port and output VC class; flit and route are written into
//                      the input VC buffer at the end of the cycle.
//   cycle 1  SA/VA + ST  the flit is at the front of its VC: switch allocation (separable,
//                      input-first, round robin) and, for a head, output VC allocation at the won
//                      output in the same cycle; the winner crosses the crossbar into the output
//                      register at the end of the cycle.
//   cycle 2  LT        the flit is on the output link (registered), seen by the next block after the
//                      link's latency.
// A flit on input in cycle t is therefore on the output in cycle t + 2. Every dequeue returns a
// credit upstream in the following cycle.
//
// Interfaces are flat packed vectors, port p occupying slice [p*X +: X] (Icarus and Yosys do not
// accept unpacked array ports).
module hx_router_core #(
  parameter int P     = 5,    // ports
  parameter int V     = 2,    // VCs per port
  parameter int D     = 8,    // input buffer slots per VC (flits)
  parameter int DDOWN = D,    // largest buffer depth per VC downstream blocks may have
  parameter int W     = 256,  // payload bits per flit
  parameter int PW    = (P > 1) ? $clog2(P) : 1,
  parameter int VW    = (V > 1) ? $clog2(V) : 1,
  parameter int CLW   = 2,
  // 0: the route computers never offer an alternative port (rt_alt_valid_i is 0: deterministic
  // routing, tree switches), so the input units store none and the adaptive choice is not built
  parameter int ALT   = 1
) (
  input  logic               clk_i,
  input  logic               rst_i,
  // links in
  input  logic [P-1:0]       in_valid_i,
  input  logic [P-1:0]       in_head_i,
  input  logic [P-1:0]       in_tail_i,
  input  logic [P*VW-1:0]    in_vc_i,
  input  logic [P*W-1:0]     in_data_i,
  output logic [P-1:0]       in_credit_valid_o,
  output logic [P*VW-1:0]    in_credit_vc_o,
  // routes of the flits on the input links (from the route computers)
  input  logic [P*PW-1:0]    rt_port_i,
  input  logic [P*CLW-1:0]   rt_class_i,
  // the other minimal port of each arriving head, and its VC class (adaptive routing; valid 0 when
  // there is none): a waiting head takes it at the front of its VC when its own port has no free
  // VC of its class with a credit and the alternative has one
  input  logic [P-1:0]       rt_alt_valid_i,
  input  logic [P*PW-1:0]    rt_alt_port_i,
  input  logic [P*CLW-1:0]   rt_alt_class_i,
  // which output VCs belong to each VC class (class c: bits [c*V +: V])
  input  logic [4*V-1:0]     class_vcs_i,
  // output VCs a packet in input VC v may take (bits [v*V +: V]): all ones lets VC allocation pick
  // any VC of the class (dynamic); "same lane" keeps a packet on its VC index within each class,
  // which keeps every (source, destination, lane) stream in order under deterministic routing
  input  logic [V*V-1:0]     vc_allow_i,
  // buffer depth per VC of the block behind each output: its initial credits (at most DDOWN)
  input  logic [P*8-1:0]     out_depth_i,
  // the link behind each output is down (a failed cable, board link or switch port; from a
  // register of the top, so the allocators still depend on registers only): flits sent on it are
  // lost (hx_output_unit), a waiting head takes its alternative port instead when it has one that
  // is up, and the port never looks ready to the route computers
  input  logic [P-1:0]       port_down_i,
  // links out
  output logic [P-1:0]       out_valid_o,
  output logic [P-1:0]       out_head_o,
  output logic [P-1:0]       out_tail_o,
  output logic [P*VW-1:0]    out_vc_o,
  output logic [P*W-1:0]     out_data_o,
  input  logic [P-1:0]       out_credit_valid_i,
  input  logic [P*VW-1:0]    out_credit_vc_i,
  // output VCs that are free and have a credit (for adaptive route computers inside the same block;
  // derived from registers only)
  output logic [P*V-1:0]     out_ready_vcs_o,
  // credits per output VC (free slots downstream, 8 bits each; from registers): what an adaptive
  // route computer weighs
  output logic [P*V*8-1:0]   out_credits_o,
  // per input port, registered one cycle late, for statistics: a flit waited but no VC of the port
  // could move for want of a credit or a free output VC; or the port asked and lost switch
  // allocation to another input
  output logic [P-1:0]       stall_credit_o,
  output logic [P-1:0]       stall_sa_o,
  // status
  output logic               idle_o,   // quiescent: while no flit or credit arrives, eval is a no-op
  output logic               drained_o,// nothing buffered, no output VC owned, every credit back
                                       // (decoded from registers only)
  output logic               error_o   // a neighbour broke the credit protocol (sticky)
);
  // ---- configuration held constant out of reset -------------------------------------------------
  // The allocators use copies of the VC-class tables taken while rst_i is high (reset lasts at least
  // one edge, and the tables may not change out of reset): the same values in the same cycles, so
  // no timing changes. What it buys: the allocators and the crossbar then depend on registers only,
  // not on an input, so a cycle-based simulator (Verilator) evaluates them once per clock edge
  // instead of once more on every input change (Verilator's "ico" pass).
  logic [4*V-1:0] class_vcs_q;
  logic [V*V-1:0] vc_allow_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      class_vcs_q <= class_vcs_i;
      vc_allow_q  <= vc_allow_i;
    end
  end

  // ---- input units -------------------------------------------------------------------------
  `include "hx_vc_meta.svh"
  localparam int MW = HX_META_W;
  logic [V-1:0]     vc_valid  [P];
  logic [V-1:0]     vc_active [P];
  logic [V*MW-1:0]  vc_meta   [P];   // side record of each VC's front flit (hx_vc_meta.svh)
  logic [V*PW-1:0]  vc_oport  [P];   // output port owned by an active VC
  logic [V*VW-1:0]  vc_outvc  [P];
  logic [P*VW-1:0]  sel_vc;
  logic [W-1:0]     sel_data [P];   // payload at the front of the VC each input put forward
  logic [P-1:0]     in_win;
  // What each input's winning flit was given: {the port it took, its output VC} (one value, not
  // two arrays: a simulator then writes both under one test of the output's grant; two arrays
  // were split into two loops over the outputs, each testing every output's grant again)
  logic [PW+VW-1:0] in_grant  [P];
  logic [P-1:0]     in_overflow;
  logic [P-1:0]     in_empty;

  for (genvar p = 0; p < P; p++) begin : gen_input
    hx_input_unit #(.V(V), .D(D), .W(W), .PW(PW), .VW(VW), .CLW(CLW), .ALT(ALT), .MW(MW)) u_in (
      .clk_i          (clk_i),
      .rst_i          (rst_i),
      .in_valid_i     (in_valid_i[p]),
      .in_head_i      (in_head_i[p]),
      .in_tail_i      (in_tail_i[p]),
      .in_vc_i        (in_vc_i[p*VW +: VW]),
      .in_data_i      (in_data_i[p*W +: W]),
      .rt_port_i      (rt_port_i[p*PW +: PW]),
      .rt_class_i     (rt_class_i[p*CLW +: CLW]),
      .rt_alt_valid_i (rt_alt_valid_i[p]),
      .rt_alt_port_i  (rt_alt_port_i[p*PW +: PW]),
      .rt_alt_class_i (rt_alt_class_i[p*CLW +: CLW]),
      .vc_valid_o     (vc_valid[p]),
      .vc_active_o    (vc_active[p]),
      .vc_meta_o      (vc_meta[p]),
      .vc_oport_o     (vc_oport[p]),
      .vc_outvc_o     (vc_outvc[p]),
      .sel_vc_i       (sel_vc[p*VW +: VW]),
      .sel_data_o     (sel_data[p]),
      .grant_i        (in_win[p]),
      .grant_outvc_i  (in_grant[p][VW-1:0]),
      .grant_port_i   (in_grant[p][PW+VW-1:VW]),
      .overflow_o     (in_overflow[p]),
      .empty_o        (in_empty[p])
    );
  end

  // Every dequeue returns a credit for its VC upstream in the next cycle: the inputs' credit
  // registers, kept as two vectors (a simulator updates two words, not 2 x P registers gathered
  // into the ports).
  logic [P-1:0]    credit_valid_q;
  logic [P*VW-1:0] credit_vc_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      credit_valid_q <= '0;
      credit_vc_q    <= '0;
    end else begin
      credit_valid_q <= in_win;
      credit_vc_q    <= sel_vc;
    end
  end
  assign in_credit_valid_o = credit_valid_q;
  assign in_credit_vc_o    = credit_vc_q;

  // ---- output state seen by the allocators -----------------------------------------------------
  logic [V-1:0] out_free   [P];
  logic [V-1:0] out_credit [P];

  // ---- eligibility, and the adaptive choice of each waiting head ---------------------------------
  // An active VC needs a credit on the output VC it owns (and keeps the port its head took); a
  // waiting head needs a free output VC of its class that has a credit (so that winning the switch
  // always yields a VC). A head whose route computer offered a second minimal port takes it when,
  // at the front of its VC, its own port has no such VC and the other one has: the choice is made
  // with the allocators' current state, not the credits seen when the head arrived, and a head
  // diverts only when it would otherwise wait. Each port's free-VC test is made once.
  logic [P*V-1:0]    sa_req;
  logic [P*V*PW-1:0] sa_port;      // the port each input VC asks for (primary or alternative)
  logic [P*V-1:0]    sa_alt;       // ... it is the alternative (always 0 without ALT)
  localparam int PP = 1 << PW;
  // Without ALT (deterministic routing) the requests are written straight from the VC state: no
  // alternative, and no scratch variables, which a simulator would store and clear for every VC
  // every cycle.
  if (ALT == 0) begin : gen_requests
    always_comb begin
      sa_req  = '0;
      sa_port = '0;
      sa_alt  = '0;
      for (int p = 0; p < P; p++) begin
        for (int v = 0; v < V; v++) begin
          logic [PW-1:0] op;   // the port the VC asks for
          op = '0;
          // (Only a VC with a flit at its front asks: a simulator skips the empty ones.)
          if (vc_valid[p][v]) begin
            if (vc_active[p][v]) begin
              op = vc_oport[p][v*PW +: PW];
              sa_req[p*V + v] = out_credit[op][vc_outvc[p][v*VW +: VW]];
            end else begin
              op = vc_meta[p][v*MW + HX_META_PORT +: PW];
              sa_req[p*V + v] = (out_free[op] & out_credit[op]
                                 & class_vcs_q[32'(vc_meta[p][v*MW + HX_META_CLASS +: CLW])*V +: V]
                                 & vc_allow_q[v*V +: V]) != '0;
            end
            sa_port[(p*V + v)*PW +: PW] = op;
          end
        end
      end
    end
  end else begin : gen_requests_alt
    logic [PP-1:0] down_pad;     // port_down_i, indexable by any PW-bit port number
    assign down_pad = PP'(port_down_i);
    always_comb begin
      sa_req  = '0;
      sa_port = '0;
      sa_alt  = '0;
      for (int p = 0; p < P; p++) begin
        for (int v = 0; v < V; v++) begin
          logic [PW-1:0]  op, ap;
          logic [CLW-1:0] oc, ac;
          logic [VW-1:0]  ov;
          logic           pri_ok, use_alt, alt_up;
          op = '0; oc = '0; ap = '0; ac = '0; ov = '0;
          pri_ok  = 1'b0;
          use_alt = 1'b0;
          alt_up  = 1'b0;
          // (Only a VC with a flit at its front asks: a simulator skips the empty ones.)
          if (vc_valid[p][v]) begin
            if (vc_active[p][v]) begin
              op = vc_oport[p][v*PW +: PW];
              ov = vc_outvc[p][v*VW +: VW];
              sa_req[p*V + v] = out_credit[op][ov];
            end else begin
              op = vc_meta[p][v*MW + HX_META_PORT +: PW];
              oc = vc_meta[p][v*MW + HX_META_CLASS +: CLW];
              // A head whose own port is down waits for its alternative when that one is up (and
              // drains into the dead link only when there is none).
              ap = vc_meta[p][v*MW + HX_META_ALT_PORT +: PW];
              ac = vc_meta[p][v*MW + HX_META_ALT_CLASS +: CLW];
              alt_up = vc_meta[p][v*MW + HX_META_ALT_VALID] && !down_pad[ap];
              pri_ok = (out_free[op] & out_credit[op] & class_vcs_q[32'(oc)*V +: V]
                        & vc_allow_q[v*V +: V]) != '0 && !(down_pad[op] && alt_up);
              if (!pri_ok && alt_up) begin
                use_alt = (out_free[ap] & out_credit[ap] & class_vcs_q[32'(ac)*V +: V]
                           & vc_allow_q[v*V +: V]) != '0;
              end
              sa_req[p*V + v] = pri_ok || use_alt;
            end
            sa_port[(p*V + v)*PW +: PW] = use_alt ? ap : op;
            sa_alt[p*V + v]             = use_alt;
          end
        end
      end
    end
  end

  // ---- switch allocation -----------------------------------------------------------------------
  logic [P-1:0]    out_valid;
  logic [P*PW-1:0] out_in;
  hx_switch_alloc #(.P(P), .V(V), .PW(PW), .VW(VW)) u_sa (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .req_i       (sa_req),
    .port_i      (sa_port),
    .in_vc_o     (sel_vc),
    .in_win_o    (in_win),
    .out_valid_o (out_valid),
    .out_in_o    (out_in)
  );

  // ---- per output: VC allocation for a winning head, and what goes into the output register --------
  logic [P-1:0]    send_head;
  logic [P-1:0]    send_tail;
  logic [P*VW-1:0] send_vc;
  logic [P*VW-1:0] va_vc;      // output o: [o*VW +: VW]
  logic [P-1:0]    va_ok;
  logic [P*V-1:0]  va_cand;    // output o: [o*V +: V]
  logic [P-1:0]    va_alloc;
  logic [P*VW-1:0] keep_vc;    // output o: the output VC a body or tail flit's packet holds

  // (Each output's work is guarded by its having a winner: a simulator then pays for the outputs
  // that send, not for all P. An output without one hands its VC allocator no request.)
  always_comb begin
    send_head = '0;
    send_tail = '0;
    va_alloc  = '0;
    va_cand   = '0;
    keep_vc   = '0;
    for (int o = 0; o < P; o++) begin
      logic [PW-1:0]  wi;   // winning input
      logic [VW-1:0]  wv;   // its VC
      logic [CLW-1:0] wc;   // the output VC class it asks for
      wi = '0;
      wv = '0;
      wc = '0;
      if (out_valid[o]) begin
        wi = out_in[o*PW +: PW];
        wv = sel_vc[32'(wi)*VW +: VW];
        send_head[o] = vc_meta[wi][32'(wv)*MW + HX_META_HEAD];
        send_tail[o] = vc_meta[wi][32'(wv)*MW + HX_META_TAIL];
        va_alloc[o]  = !vc_active[wi][wv];
        if (vc_active[wi][wv]) begin
          keep_vc[o*VW +: VW] = vc_outvc[wi][32'(wv)*VW +: VW];
        end else begin
          // (The class of a head that takes its alternative port is the alternative's.)
          wc = (ALT != 0 && sa_alt[32'(wi)*V + 32'(wv)])
             ? vc_meta[wi][32'(wv)*MW + HX_META_ALT_CLASS +: CLW]
             : vc_meta[wi][32'(wv)*MW + HX_META_CLASS +: CLW];
          va_cand[o*V +: V] = out_free[o] & out_credit[o] & class_vcs_q[32'(wc)*V +: V]
                            & vc_allow_q[32'(wv)*V +: V];
        end
      end
    end
  end

  // Body and tail flits keep the VC their head got; a head takes the one just allocated. The input
  // that won each output learns the output VC its flit took (used when that flit is a head) and
  // the port (its primary or its alternative): written from the output's side, so a simulator
  // walks the outputs that send once, not every input again.
  always_comb begin
    send_vc = '0;
    for (int p = 0; p < P; p++) begin
      in_grant[p] = '0;
    end
    for (int o = 0; o < P; o++) begin
      logic [VW-1:0] ov;
      ov = '0;
      if (out_valid[o]) begin
        ov = va_alloc[o] ? va_vc[o*VW +: VW] : keep_vc[o*VW +: VW];
        send_vc[o*VW +: VW] = ov;
        in_grant[out_in[o*PW +: PW]] = {PW'(o), ov};
      end
    end
  end

  hx_vc_alloc #(.P(P), .V(V), .VW(VW)) u_va (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .alloc_i      (va_alloc),
    .candidates_i (va_cand),
    .vc_o         (va_vc),
    .ok_o         (va_ok)
  );

  // ---- crossbar and output units -------------------------------------------------------------
  // The crossbar: each output unit registers the payload of the input that won it (read only
  // when it sends), sel_data[out_in[o]].

  logic [P-1:0] out_err;
  logic [P-1:0] out_idle;
  for (genvar o = 0; o < P; o++) begin : gen_output
    hx_output_unit #(.V(V), .DDOWN(DDOWN), .W(W), .VW(VW)) u_out (
      .clk_i          (clk_i),
      .rst_i          (rst_i),
      .depth_i        (out_depth_i[o*8 +: 8]),
      .down_i         (port_down_i[o]),
      .credit_valid_i (out_credit_valid_i[o]),
      .credit_vc_i    (out_credit_vc_i[o*VW +: VW]),
      .free_o         (out_free[o]),
      .has_credit_o   (out_credit[o]),
      .credits_o      (out_credits_o[o*V*8 +: V*8]),
      .send_i         (out_valid[o]),
      .send_vc_i      (send_vc[o*VW +: VW]),
      .send_head_i    (send_head[o]),
      .send_tail_i    (send_tail[o]),
      .send_data_i    (sel_data[out_in[o*PW +: PW]]),
      .out_valid_o    (out_valid_o[o]),
      .out_vc_o       (out_vc_o[o*VW +: VW]),
      .out_head_o     (out_head_o[o]),
      .out_tail_o     (out_tail_o[o]),
      .out_data_o     (out_data_o[o*W +: W]),
      .credit_err_o   (out_err[o]),
      .idle_o         (out_idle[o])
    );
  end

  always_comb begin
    for (int o = 0; o < P; o++) begin
      out_ready_vcs_o[o*V +: V] = port_down_i[o] ? '0 : (out_free[o] & out_credit[o]);
    end
  end

  // ---- status ------------------------------------------------------------------------------
  // Registered so that no block output is combinational.
  logic idle_q;
  logic error_q;
  logic [P-1:0] stall_credit_q;
  logic [P-1:0] stall_sa_q;
  logic [P-1:0] port_req;
  always_comb begin
    for (int p = 0; p < P; p++) begin
      port_req[p] = (sa_req[p*V +: V] != '0);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      stall_credit_q <= '0;
      stall_sa_q     <= '0;
    end else begin
      stall_credit_q <= ~in_empty & ~port_req;
      stall_sa_q     <= port_req & ~in_win;
    end
  end
  assign stall_credit_o = stall_credit_q;
  assign stall_sa_o     = stall_sa_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      idle_q    <= 1'b1;
      error_q   <= 1'b0;
    end else begin
      // Nothing buffered and nothing arriving: after this edge no output is valid and no state can
      // change until a flit or a credit arrives, so a harness may skip evaluating this block.
      idle_q  <= (in_empty == '1) && (in_valid_i == '0);
      error_q <= error_q || (in_overflow != '0) || (out_err != '0) || ((va_alloc & ~va_ok) != '0);
    end
  end
  assign idle_o    = idle_q;
  // A decode of state registers only (no path from any input), so it stays right while a harness
  // skips an idle block's clock edges.
  assign drained_o = (in_empty == '1) && (out_idle == '1);
  assign error_o   = error_q;

  // ---- assertions (rtl/common/hx_assert.svh) ---------------------------------------------------
  // The units check their own promises; here, what the route computers hand the core: a head's
  // output port exists and its VC class has VCs (else the head could never leave).
`ifdef HX_ASSERT
  `include "hx_assert.svh"
  // Inputs whose arriving head is routed to a port that does not exist / to a class without VCs.
  // (Whole-vector ORs, not bit assignments: Verilator turns those into stores in a loop.)
  function automatic [P-1:0] heads_to_no_port();
    heads_to_no_port = '0;
    for (int p = 0; p < P; p++) begin
      heads_to_no_port = heads_to_no_port
                       | (P'(in_valid_i[p] && in_head_i[p] && 32'(rt_port_i[p*PW +: PW]) >= P)
                          << p);
    end
  endfunction
  function automatic [P-1:0] heads_to_no_vc();
    heads_to_no_vc = '0;
    for (int p = 0; p < P; p++) begin
      heads_to_no_vc = heads_to_no_vc
                     | (P'(in_valid_i[p] && in_head_i[p]
                           && class_vcs_i[32'(rt_class_i[p*CLW +: CLW])*V +: V] == '0) << p);
    end
  endfunction
  // The allocators move a head only from an idle input VC and a body or tail only from the VC that
  // owns an output VC: the flit each output sends is a head exactly when it needs a VC allocation.
  // (One vector test for all inputs, from signals the allocation computes anyway.)
  logic [P-1:0] grant_head_busy;   // a head granted from a VC whose packet holds an output VC
  logic [P-1:0] grant_body_idle;   // a body or tail granted from a VC that holds none
  assign grant_head_busy = out_valid & send_head & ~va_alloc;
  assign grant_body_idle = out_valid & ~send_head & va_alloc;
  always_ff @(posedge clk_i) begin
    if (!rst_i && (grant_head_busy | grant_body_idle) != '0) begin
      assert (grant_head_busy == '0) else hx_rtl_assert_failed($sformatf(
        "%m: outputs %b (bit o: output o) granted a head from an input VC %s", grant_head_busy,
        "whose packet holds an output VC"));
      assert (grant_body_idle == '0) else hx_rtl_assert_failed($sformatf(
        "%m: outputs %b (bit o: output o) granted a body or tail flit from an input VC %s",
        grant_body_idle, "that holds no output VC"));
    end
  end
  // Evaluated only in cycles in which a head arrives (hx_assert.svh).
  always_ff @(posedge clk_i) begin
    if (!rst_i && (in_valid_i & in_head_i) != '0) begin
      assert (heads_to_no_port() == '0) else hx_rtl_assert_failed($sformatf(
        "%m: heads on inputs %b (bit p: input p) routed to a port that does not exist",
        heads_to_no_port()));
      assert (heads_to_no_vc() == '0) else hx_rtl_assert_failed($sformatf(
        "%m: heads on inputs %b (bit p: input p) routed to a VC class that has no VC",
        heads_to_no_vc()));
    end
  end
`endif
endmodule
