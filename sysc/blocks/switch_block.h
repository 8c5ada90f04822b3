// The switch (rtl/switch/hx_switch.sv) as a LinkBlock, and its run-time setup: a tree switch, or
// (kind kDragonfly) a Dragonfly router.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "sysc/blocks/model_variant.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/vc_plan.h"
#include "sysc/fabric/link_block.h"

namespace hxemu::sysc {

// hx_switch kind_i: which route computer the switch uses. kMultidim: an NPU's router on a
// multi-dimensional platform (rtl/route/hx_route_multidim.sv); kMultidimSwitch: a switch (or tree)
// of a Switch dimension, routing by the destination's index in that dimension.
enum class TreeKind : int { kRow = 0, kColumn = 1, kFatTree = 2, kDragonfly = 3, kMultidim = 4,
                            kMultidimSwitch = 5 };
enum class SwitchLevel : int { kSingle = 0, kLeaf = 1, kSpine = 2 };

struct SwitchSetup {
  TreeKind kind = TreeKind::kFatTree;
  SwitchLevel level = SwitchLevel::kSingle;
  int leaf_index = 0;        // which leaf (level kLeaf)
  int down_log2 = 0;         // log2 of the down ports of a leaf (levels kLeaf, kSpine)
  int up_ports = 0;          // up ports of a leaf
  bool up_hash = false;      // up-port choice: hash of the destination (true) or adaptive
  int grid_rows = 1, grid_cols = 1, board_rows = 1, board_cols = 1;
  // Dragonfly router (kind kDragonfly, rtl/route/hx_route_dragonfly.sv): the system's shape, this
  // router's place, and UGAL-L (adaptive) with its threshold in flits. Ports: terminals, then
  // local ports, then global ports (docs/topology.md).
  int df_groups = 0, df_routers = 0, df_terminals = 0, df_globals = 1;
  int df_group = 0, df_router = 0;
  bool adaptive = false;
  int ugal_threshold = 0;
  // Multidim (kinds kMultidim, kMultidimSwitch; rtl/route/hx_route_multidim.sv): per dimension
  // (at most 4, absent ones size 1) its size, kind (0 ring, 1 fc, 2 switch), lanes and first router
  // port; this NPU's coordinates; the routing order; a Switch dimension's switch: its dimension.
  std::array<int, 4> md_size{1, 1, 1, 1}, md_kind{}, md_lanes{1, 1, 1, 1}, md_base{}, md_pos{};
  std::array<int, 4> md_order{0, 1, 2, 3};
  int md_dim = 0;
  VcPlan vc;                                 // VC classes, lanes and policy
  std::vector<int> out_depth;                // buffer depth per VC behind each port (size = radix)
};

class SwitchBlock : public LinkBlock {
 public:
  virtual void reset(const SwitchSetup& setup) = 0;
  virtual int buffer_slots() const = 0;
};

std::vector<ModelVariant> switch_variants();
// A switch of `radix` ports; throws std::invalid_argument naming the built variants if none.
std::unique_ptr<SwitchBlock> make_switch(int radix, int vcs, int flit_bits);

}  // namespace hxemu::sysc
