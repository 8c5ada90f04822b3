// The synthesizable blocks of a configuration's design point, with the Verilog parameters they take
// and how many of each the System builds -- what `hxemu area` synthesizes (docs/area.md). No tool
// runs here: this is the plan; app/commands/area.cpp runs Yosys on it.
//
// Parameters are those the configuration asks for, not the spare capacity of the verilated variant
// that emulates it: V is the sum of the VC classes' counts, D the deepest buffer the block's inputs
// are given, W the flit width, and the NIC's per-node table and packet length are sized to this
// system (NODES = accelerators, MAXP = max_packet_flits) where the verilated NIC is built for any
// system. A switch radix is a power of two by design (tree_shape), so an NPU router of a
// multidim platform takes the smallest one (>= 4) that holds its ports, as the System does.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sysc/system/system_config.h"

namespace hxemu::sysc {

struct AreaBlock {
  std::string role;    // "board router", "tree switch", "NPU router", "Dragonfly router", "NIC"
  std::string top;     // RTL top module
  std::vector<std::pair<std::string, int>> params;   // Verilog parameter overrides, in order
  long long count = 0; // instances the System builds
  std::string note;    // e.g. "11 of 16 ports used"
  // The verilated variant the emulator runs this block as (empty: same parameters, or none built).
  std::string emulated_as;

  // "NL=4 V=12 D=32 W=256"
  std::string param_text() const;
};

struct AreaPlan {
  int rails = 1;                   // NICs per accelerator (router local ports, planes)
  std::vector<AreaBlock> blocks;   // in build order: routers, switches, NICs
};

// `rails`: NICs per accelerator wanted (1 for synthetic traffic, 4 for the collectives); the
// System clamps it as it does (fat tree and Dragonfly: planes; multidim: the configuration's NICs).
// Throws std::invalid_argument when rails is outside 1..4.
AreaPlan area_plan(const SystemConfig& cfg, int rails);

}  // namespace hxemu::sysc
