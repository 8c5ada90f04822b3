// The channel-dependency graph (CDG, Dally & Seitz) of a built System under its routing functions,
// and a check that it is acyclic: the deadlock-freedom argument of docs/topology.md made
// checkable from the configuration (docs/deadlock-freedom.md).
//
// Channels are (directed link between two routers/switches, VC class). Why that granularity:
// a head flit asks its output for a class (the route computer's class_o), and the VC allocator
// (rtl/router/hx_vc_alloc.sv, fed by hx_router_core.sv) hands it any VC of that class that is free
// and has a credit: candidates = free & credit & class_vcs[class] & vc_allow[in_vc]. Under the
// dynamic policy every VC of a class is interchangeable, so a packet waiting for a class waits for
// all of its VCs at once: one node per (link, class) is exact. Under the lane policy vc_allow
// keeps a packet on its lane in every class, which splits the graph into one identical copy per
// lane: acyclic exactly when the (link, class) graph is. The class a channel stands for is the VC
// pool the class maps to (VcPlan::class_vcs), named by the class of its VCs (VcPlan::vc_class) --
// which is also the class the next block reads from the VC the flit arrived on. So a plan that maps
// several classes to the same VCs (SystemConfig::test_unsafe_single_class) folds them into one
// channel, as the hardware does.
//
// Terminal links (NIC -> router injection, router -> NIC ejection) are left out: no route ever asks
// for an injection link (nothing routes into a NIC's output), and an ejection link is consumed by
// its NIC without waiting on any other channel, so neither can lie on a cycle. Their edges would
// only add sources and sinks.
//
// The graph holds the dependencies routes actually create, not every (input, class, destination)
// combination a route computer could be asked about (those include turns no packet makes): for
// each destination, every source's head is followed from its injection, each channel expanded once
// per destination (memoised), every alternative of the routing function taken (every up port of an
// adaptive tree leaf). The memoisation is exact: a routing step depends only on the block, input
// port, class (all fixed by the channel) and the destination, so a second visit of the same
// (channel, destination) would add the same edges. Cost: O(destinations x (sources + channels
// reached per destination)), O(N^2): 20 s for 16,384 nodes (docs/deadlock-freedom.md).
//
// What is checked is every route the RTL's route computers may choose: the deterministic
// route_model functions, plus, under adaptive board routing (router.routing "adaptive"), the
// Y-first alternative of every router step (route_board_alternative). Adaptive routing here keeps
// the whole adaptive network acyclic (north-last turns on boards, a class per tree entered;
// docs/adaptive-routing.md) rather than relying on an escape network, so the full graph is checked.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sysc/system/route_model.h"
#include "sysc/system/system.h"

namespace hxemu::sysc {

// A channel: directed link `link` (Network link id) in VC class `cls`.
struct Channel {
  int link = -1;
  int cls = 0;
  bool operator==(const Channel& o) const { return link == o.link && cls == o.cls; }
};

// What a routing function is asked at one block: a head that arrived on `in_port` in class
// `in_class`, bound for node `dst` (coordinate word `dst_route`, System::route_of).
struct RouteQuery {
  int block = -1;
  int in_port = -1;
  int in_class = 0;
  int dst = -1;
  std::uint32_t dst_route = 0;
};
// Appends every (output port, output class) the block may choose for the query (one for a
// deterministic step, several for an adaptive one).
using RouteChoices = std::function<void(const RouteQuery&, std::vector<RouteDecision>& out)>;

// The system's own routing: route_board at routers, route_tree at switches with every up port an
// adaptive leaf may pick (adaptive_up_choices); hashed leaves take their one hashed port. The rail
// is 0: it only selects the local (ejection) port, which the graph leaves out.
RouteChoices system_routing(const System& sys);

// The graph, its size and the verdict.
struct DeadlockReport {
  bool ok = false;             // routing well formed (else `error` says where it was not)
  std::string error;
  bool acyclic = false;
  int channels = 0;            // channels some route holds
  long long dependencies = 0;  // distinct edges between them
  std::vector<Channel> cycle;  // when !acyclic: cycle[0] -> cycle[1] -> ... -> cycle.back() -> cycle[0]
  double seconds = 0;          // time to build and search the graph

  // The graph, for tests and reports: channel id = link * 4 + class.
  std::vector<std::vector<int>> successors;   // by channel id (empty for unused channels)
  bool depends(const Channel& from, const Channel& to) const;
};

// Builds the CDG of `sys` under `route` (default: system_routing(sys)) and searches it for a cycle
// (iterative depth-first search: no recursion, any graph size). `threads` share the destinations
// (0: every core); `route` is then called from all of them at once, so it must not change shared
// state. The graph and the cycle found do not depend on the thread count.
DeadlockReport check_deadlock(const System& sys, const RouteChoices& route = {}, int threads = 1);

// "router b(0,1) r(1,1) E -> router b(0,1) r(1,2) class 0"; switches by block name and port.
std::string channel_name(const System& sys, const Channel& c);
// The cycle, one channel per line ("  " indent), closing back on the first.
std::string cycle_text(const System& sys, const DeadlockReport& r);

}  // namespace hxemu::sysc
