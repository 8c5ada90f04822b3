// Builds one tree (a row tree, a column tree, or the fat-tree baseline) out of switches inside a
// Network: a single switch when the tree's ports fit the radix, otherwise a two-level folded Clos
// (docs/topology.md) -- leaves with radix/2 ports down and `up_ports` up (fewer = tapered), one
// spine per leaf up port, spine port l to leaf l.
#pragma once

#include <string>
#include <vector>

#include "sysc/fabric/network.h"
#include "sysc/blocks/switch_block.h"

namespace hxemu::sysc {

struct TreeSpec {
  std::string name;          // block-name prefix, e.g. "rowtree3"
  TreeKind kind = TreeKind::kFatTree;
  int tree_ports = 2;        // endpoints of the tree
  int radix = 8;             // switch ports (a power of two)
  int up_ports = -1;         // up ports per leaf; -1: radix / 2 (non-blocking)
  bool up_hash = false;      // deterministic up-port choice by destination hash
  int grid_rows = 1, grid_cols = 1, board_rows = 1, board_cols = 1;
  int md_dim = 0;            // kMultidimSwitch: the dimension the tree's group spans
  VcPlan vc = make_vc_plan(2, 1, 2, VcPolicy::kDynamic);
  int flit_bits = 256;
  int internal_latency = 1;  // leaf <-> spine links
  int depth = 8;             // buffer depth per VC advertised by every switch input
  int edge_depth = 8;        // buffer depth per VC of the blocks at the tree ports
  bool ghost_switches = false;   // another rank steps the tree: ghosts (no models) for its switches
};

struct BuiltTree {
  std::vector<PortRef> tree_ports;   // where tree port i is (a switch port)
  std::vector<int> switches;         // block indices
  std::vector<SwitchSetup> setups;   // the setup each switch was reset with (same order)
  int leaves = 0;                    // 0 for a single switch
  int spines = 0;
};

// Shape only (no blocks built): switches a tree of `tree_ports` needs at this radix and taper.
struct TreeShape {
  bool single = true;
  int down = 0;      // down ports per leaf
  int up = 0;        // up ports per leaf
  int leaves = 0;
  int spines = 0;
  int switches() const { return single ? 1 : leaves + spines; }
  int internal_links() const { return single ? 0 : leaves * up; }
};
// Throws std::invalid_argument (naming the field) when the tree cannot be built.
TreeShape tree_shape(int tree_ports, int radix, int up_ports);

BuiltTree build_tree(Network& net, const TreeSpec& spec);

}  // namespace hxemu::sysc
