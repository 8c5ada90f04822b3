// Fault plans: links that fail at a given cycle and bit errors on chosen link classes
// (docs/faults.md). A plan is parsed from the command line, checked against a built System, and
// applied to its Network before the run; what the faults did is read back from the Network's log
// (Network::fault_events) by the testbench's report (tb/fault_report.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sysc/system/system.h"

namespace hxemu::sysc {

// "--fail-link <port>@<cycle>": the connection at a block port -- a board link, a board-edge cable,
// a switch port or a NIC's link -- goes down in both directions from that cycle on. A port is
// named <block>.<port>: a block as the network names it (router5, rowtree1, coltree0.leaf1,
// node3.nic0, npu7, ...) and a port as N, E, S, W, L, L1..L3 (routers) or p<k> (any block).
struct LinkFailureSpec {
  std::string port;
  std::uint64_t cycle = 0;
};

// "--flip-bits <rate>[:<class>,...]": each payload bit of a body or tail flit on a link of the
// listed classes (board, cable, terminal; default all) flips with probability <rate>.
struct BitFlipSpec {
  double rate = 0.0;
  unsigned classes = 0;   // bit 1 << LinkClass
};

struct FaultPlan {
  std::vector<LinkFailureSpec> failures;
  BitFlipSpec flips;
  std::uint64_t seed = 1;   // of the bit-flip generators (the run's seed)
  bool empty() const { return failures.empty() && flips.rate <= 0.0; }
};

// Parsers for the command-line forms; std::invalid_argument names the option and the form.
LinkFailureSpec parse_link_failure(const std::string& text);
BitFlipSpec parse_bit_flips(const std::string& text);

// The block port `name` names; std::invalid_argument says why not (no such block, no such port,
// not connected) with the forms that exist.
PortRef find_port(const System& sys, const std::string& name);
// The network's name of a block port (the inverse of find_port).
std::string port_label(const System& sys, PortRef p);

// One failed connection as applied.
struct AppliedFailure {
  std::string port;          // as named
  std::string peer;          // the port at the other end
  int link = -1;             // the directed link leaving `port`; link ^ 1 is the one entering it
  std::uint64_t cycle = 0;
  LinkClass cls = LinkClass::kBoard;
  int routers_told = 0;      // board routers told that a board-edge cable of theirs is down
};

// Applies `plan` to `sys` (before the run): both directions of each failed connection, the port-
// down inputs of the blocks at both ends, and for a cable leaving a HammingMesh board's edge the
// edge-down inputs of every router of that board's row (E, W) or column (N, S), as a fabric
// manager would tell them; and the bit-flip generators. Throws std::invalid_argument (naming the
// option) for a port that does not exist.
std::vector<AppliedFailure> apply_fault_plan(System& sys, const FaultPlan& plan);

}  // namespace hxemu::sysc
