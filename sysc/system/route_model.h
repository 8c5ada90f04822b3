// The routing functions of the RTL route computers (rtl/route/*.sv), restated in C++ as pure
// functions, and a path tracer that follows them through a built System. Tests compare the
// emulated network against these paths (hops, exact zero-load latency); reports use them for
// channel-load bounds.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sysc/system/system.h"

namespace hxemu::sysc {

// The XY (dimension-order) step inside a board: columns first, then rows; kPortLocal when there.
int dor_port(int my_row, int my_col, int dst_row, int dst_col);

struct RouteDecision {
  int port = 0;
  int out_class = 0;
};

// hx_route_board: `dst` = head bits [63:32] ({dlc, dlr, dgc, dgr}); `rail` the head's rail field,
// `local_ports` the router's local ports.
RouteDecision route_board(const RouterSetup& s, int in_port, int in_class, std::uint32_t dst,
                          int rail = 0, int local_ports = 1);
// Under adaptive routing (RouterSetup::adaptive), the second minimal port hx_route_hxmesh or
// hx_route_torus offers (Y before X; never a move north while X remains: north-last): true and
// `alt` when there is one. The router takes it when it has more free credits (rtl/route/hx_route_board.sv).
bool route_board_alternative(const RouterSetup& s, int in_class, std::uint32_t dst, RouteDecision& alt);
// hx_switch's route: hx_route_tree for a deterministic choice of up port (`up_choice` in
// [0, up_ports) stands for the adaptive pick; any choice gives a path of the same length), or for a
// Dragonfly router (kind kDragonfly) hx_route_dragonfly's minimal route.
// A multidim NPU router (kind kMultidim) takes hx_route_multidim's route, `up_choice` standing for
// the lane (mod the dimension's lanes), from input `in_port`, to NIC port `rail` when home.
RouteDecision route_tree(const SwitchSetup& s, int radix, int in_class, int dst_node,
                         std::uint32_t dst, int up_choice = 0, int in_port = 0, int rail = 0);
// hx_route_multidim (multidim NPU router): dimension-order route over `lane` of the lanes the
// chosen direction has; ring dateline classes (rtl/route/hx_route_multidim.sv).
RouteDecision route_multidim(const SwitchSetup& s, int in_port, int in_class, std::uint32_t dst, int rail,
                             int lane = 0);
// The lanes a multidim NPU router may choose among for a head to `dst` (1 on other blocks, and
// when the head is home): the routes over each lane have the same length.
int route_lanes(const SwitchSetup& s, std::uint32_t dst);
// hx_route_dragonfly's minimal route (L? G? L?; the class moves up on the link that takes a global
// port). `dst` = head bits [63:32] ({-, terminal, router, group}).
RouteDecision route_dragonfly(const SwitchSetup& s, int in_class, std::uint32_t dst);
// Under UGAL (SwitchSetup::adaptive), the non-minimal first hops the source router may take instead
// of the minimal one: for a head in class 0 from a terminal port bound for another group, every
// connected global port of the router that does not lead to the destination group. Appends them
// to `out` and returns how many. The router takes one when the minimal port is much fuller.
int dragonfly_nonminimal(const SwitchSetup& s, int in_port, int in_class, std::uint32_t dst,
                         std::vector<RouteDecision>& out);

struct PathHop {
  int block = -1;
  int in_port = -1;
  int out_port = -1;
  int out_class = 0;
  int link_out = -1;   // directed link taken out of this block
};

struct Path {
  bool ok = false;
  std::string error;
  std::vector<PathHop> hops;   // routers and switches, in order
  int links = 0;               // links between routers/switches (route length, docs/topology.md)
  int board_links = 0, cable_links = 0;
  int latency = 0;             // zero-load cycles, head on the source's output -> destination input
};

// Follows the routing functions from src's terminal to dst's. Adaptive leaves send it up port
// `up_choice` (mod their up ports); hashed ones by the hash (as the RTL does).
Path trace_path(const System& sys, int src, int dst, int rail = 0, int up_choice = 0);
// Every route the routers may choose from src's terminal to dst's (adaptive board alternatives and
// adaptive tree up ports; on a Dragonfly the minimal route only -- UGAL diverts only under
// congestion, so balanced traffic's ideal is minimal), with traffic split evenly at every choice: calls add(link, share) for
// each link of each branch (shares of one link add up to the fraction of the traffic crossing it).
// The bound of an adaptive system's collective uses it. False and `error` on a broken route.
bool spread_path_links(const System& sys, int src, int dst, int rail,
                       const std::function<void(int link, double share)>& add, std::string& error);
// The number of distinct up ports adaptive leaves could choose (1 when no tree of the system has
// adaptive leaves), and on a multidim platform the lanes of its dimensions: trace_path with
// up_choice 0 .. this - 1 covers the choices evenly.
int adaptive_up_choices(const System& sys);

}  // namespace hxemu::sysc
