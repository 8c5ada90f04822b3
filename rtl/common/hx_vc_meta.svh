// hx_vc_meta.svh -- the side record an input port stores beside each flit in its VC buffers
// (hx_input_unit) and the router core reads at the front of every VC (hx_router_core): the flit's
// kind and the route computed when it arrived.
//
// Layout, from bit 0: head, tail, output port (PW bits), output VC class (CLW bits), and, when the
// route computer may offer a second minimal port (ALT = 1, adaptive routing): its valid bit, port
// and class. Without them (ALT = 0) the record is PW + CLW + 2 bits and the alternative's offsets
// below point at bit 0 (never read then: code that reads them is guarded by ALT).
// Included inside a module that has the parameters PW, CLW and ALT.

// Waiver: a table of constants; each including module reads the offsets it needs.
/* verilator lint_off UNUSEDPARAM */
localparam int HX_META_HEAD      = 0;
localparam int HX_META_TAIL      = 1;
localparam int HX_META_PORT      = 2;
localparam int HX_META_CLASS     = 2 + PW;
localparam int HX_META_ALT_VALID = (ALT != 0) ? 2 + PW + CLW : 0;
localparam int HX_META_ALT_PORT  = (ALT != 0) ? 3 + PW + CLW : 0;
localparam int HX_META_ALT_CLASS = (ALT != 0) ? 3 + 2*PW + CLW : 0;
localparam int HX_META_W         = (ALT != 0) ? 3 + 2*PW + 2*CLW : 2 + PW + CLW;
/* verilator lint_on UNUSEDPARAM */
