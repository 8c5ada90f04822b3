// hx_flit.svh -- the link-level flit format shared by every hxemu block.
//
// Included *inside* a module body (Icarus and Yosys reject packages), so every name here is a
// module-local localparam. The C++ side mirrors these positions in sysc/fabric/flit.h (fields),
// sysc/fabric/router_ports.h (ports) and sysc/fabric/coord_word.h (coordinates);
// tests/sysc/fabric/flit_format_test.cpp reads this file and checks that they agree.
//
// On a link a flit travels as: valid, vc, head, tail and a W-bit payload (docs/link-interface.md).
// A head flit's payload starts with the routing fields that routers and switches read (bits 0..63);
// the NIC adds the message fields above them (bits 64..191). Body and tail flits carry only data.

// Waiver: this is a shared table of constants and each including module uses a few of them; the
// waiver covers only the lines of this header, not the modules that include it.
/* verilator lint_off UNUSEDPARAM */

// ---- routing fields (read by routers and switches) ---------------------------------------------
localparam int HX_HDR_DST_LSB = 0;    // destination node id
localparam int HX_HDR_DST_W   = 16;
localparam int HX_HDR_SRC_LSB = 16;   // source node id
localparam int HX_HDR_SRC_W   = 16;
localparam int HX_HDR_DGR_LSB = 32;   // destination board row in the grid
localparam int HX_HDR_DGC_LSB = 40;   // destination board column in the grid
localparam int HX_HDR_DLR_LSB = 48;   // destination row inside its board
localparam int HX_HDR_DLC_LSB = 56;   // destination column inside its board
localparam int HX_HDR_COORD_W = 8;
localparam int HX_HDR_ROUTE_BITS = 64;

// ---- the coordinate word ------------------------------------------------------------------------
// Every 32-bit coordinate quadruple the RTL reads has one layout: the head's route field above
// (payload bits 32..63), a router's position pos_i, and the system dimensions dims_i (counts in
// place of indices). Byte 0: board row in the grid; 1: board column; 2: row inside the board;
// 3: column inside the board. The C++ side packs it in sysc/fabric/coord_word.h.
localparam int HX_COORD_GR_LSB = 0;
localparam int HX_COORD_GC_LSB = 8;
localparam int HX_COORD_LR_LSB = 16;
localparam int HX_COORD_LC_LSB = 24;

// ---- message fields (written and read by the NIC) ----------------------------------------------
localparam int HX_HDR_TAG_LSB    = 64;   // message tag from the put command
localparam int HX_HDR_TAG_W      = 16;
localparam int HX_HDR_SEQ_LSB    = 80;   // message sequence number per (source, destination)
localparam int HX_HDR_SEQ_W      = 16;
localparam int HX_HDR_MLEN_LSB   = 96;   // whole message length in bytes
localparam int HX_HDR_MLEN_W     = 32;
localparam int HX_HDR_PADDR_LSB  = 128;  // destination host address of this packet's first byte
localparam int HX_HDR_PADDR_W    = 32;
localparam int HX_HDR_PBYTES_LSB = 160;  // payload bytes carried by this packet
localparam int HX_HDR_PBYTES_W   = 16;
localparam int HX_HDR_RAIL_LSB   = 176;  // the sending NIC's rail = the receiving NIC's (see hx_nic)
localparam int HX_HDR_RAIL_W     = 2;
localparam int HX_HDR_MSG_BITS   = 192;  // a NIC needs W >= this

// ---- router port numbering of a board router (docs/topology.md) --------------------------------
// N is toward row 0, W toward column 0.
localparam int HX_PORT_N = 0;
localparam int HX_PORT_E = 1;
localparam int HX_PORT_S = 2;
localparam int HX_PORT_W = 3;
localparam int HX_PORT_L = 4;   // first local (NIC) port; a router with NL local ports has 4+NL

// ---- VC classes -------------------------------------------------------------------------------
// A VC's class is given to each router as a table (vc_class_i); at most four classes exist
// (HammingMesh uses three, the torus dateline two, mesh and fat tree one).
localparam int HX_CLASS_W = 2;
localparam int HX_NUM_CLASSES = 4;

/* verilator lint_on UNUSEDPARAM */
