// Board-router port numbering: the one C++ statement of rtl/common/hx_flit.svh's HX_PORT_*
// (tests/sysc/fabric/flit_format_test.cpp reads that header and checks the two agree).
// N leads toward row 0 and W toward column 0 of the board; the local (NIC) ports follow the four
// mesh ports, one per rail: L0 = kPortLocal, L1 = kPortLocal + 1, ...
#pragma once

namespace hxemu::sysc {

inline constexpr int kPortN = 0;
inline constexpr int kPortE = 1;
inline constexpr int kPortS = 2;
inline constexpr int kPortW = 3;
inline constexpr int kPortLocal = 4;          // L0: the first local port
inline constexpr int kMeshPorts = 4;          // N, E, S, W
inline constexpr int kRouterPorts = 5;        // with one local port
inline constexpr int kMaxRouterPorts = 8;     // with four (one per rail)

// The local port of rail `rail` (0-based).
inline constexpr int local_port(int rail) { return kPortLocal + rail; }
inline constexpr bool is_local_port(int port) { return port >= kPortLocal; }

// "N", "E", "S", "W", "L", "L1", "L2", "L3"; "?" out of range.
const char* port_name(int port);

}  // namespace hxemu::sysc
