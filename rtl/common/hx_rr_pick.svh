// hx_rr_pick -- the round-robin rule of every arbiter (hx_arb_rr; the switch allocator's arbiters,
// which it evaluates only where there are requests; the VC allocator's, only for a winning head):
// the first request at or after the pointer, wrapping around. Requests and pointer are
// zero-extended to 64 bits and 6 bits, the widest arbiter the product builds (a 64-port tree
// switch); the result is the winner's index, and is 0 when nobody asks (callers test req != 0
// themselves).
// Included inside a module (`include "hx_rr_pick.svh"), like hx_flit.svh; hx_rr_next below is
// the pointer move that goes with it.
function automatic logic [5:0] hx_rr_pick(input logic [63:0] req, input logic [5:0] ptr);
  // (Prefixed: lint (VARHIDDEN) flags locals named like a signal of an enclosing scope.)
  logic [63:0] rr_upper;   // requests at or after the pointer
  logic [63:0] rr_half;    // the half the priority encoder looks at
  logic [63:0] rr_grant;   // its lowest set bit
  rr_upper = req & ({64{1'b1}} << ptr);
  rr_half  = (rr_upper != '0) ? rr_upper : req;
  rr_grant = rr_half & (~rr_half + 64'd1);
  // The index of the one-hot grant: bit b is set when the grant lies in a position with bit b set.
  hx_rr_pick[0] = (rr_grant & 64'hAAAA_AAAA_AAAA_AAAA) != '0;
  hx_rr_pick[1] = (rr_grant & 64'hCCCC_CCCC_CCCC_CCCC) != '0;
  hx_rr_pick[2] = (rr_grant & 64'hF0F0_F0F0_F0F0_F0F0) != '0;
  hx_rr_pick[3] = (rr_grant & 64'hFF00_FF00_FF00_FF00) != '0;
  hx_rr_pick[4] = (rr_grant & 64'hFFFF_0000_FFFF_0000) != '0;
  hx_rr_pick[5] = (rr_grant & 64'hFFFF_FFFF_0000_0000) != '0;
endfunction

// The pointer after a pick that won: just past the winner `idx` of `n` requesters, wrapping
// around (every round-robin arbiter moves its pointer so, and only when its pick is taken).
function automatic logic [5:0] hx_rr_next(input logic [5:0] idx, input int n);
  hx_rr_next = (32'(idx) == n - 1) ? 6'd0 : idx + 6'd1;
endfunction
