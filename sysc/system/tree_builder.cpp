#include "sysc/system/tree_builder.h"

#include <memory>
#include <stdexcept>

#include "sysc/dist/ghost_block.h"

namespace hxemu::sysc {

namespace {
int log2_exact(int v) {
  int b = 0;
  while ((1 << b) < v) ++b;
  return (1 << b) == v ? b : -1;
}
}  // namespace

TreeShape tree_shape(int tree_ports, int radix, int up_ports) {
  if (radix < 4 || log2_exact(radix) < 0) {
    throw std::invalid_argument("switch radix " + std::to_string(radix) +
                                " is not allowed: it must be a power of two >= 4");
  }
  TreeShape s;
  if (tree_ports <= radix) {
    s.single = true;
    s.down = tree_ports;
    return s;
  }
  s.single = false;
  s.down = radix / 2;
  s.up = up_ports < 0 ? radix / 2 : up_ports;
  if (s.up < 1 || s.up > radix / 2) {
    throw std::invalid_argument("taper: up ports per leaf must be in 1.." +
                                std::to_string(radix / 2) + " for radix " +
                                std::to_string(radix) + ", got " + std::to_string(s.up));
  }
  s.leaves = (tree_ports + s.down - 1) / s.down;
  if (s.leaves > radix) {
    throw std::invalid_argument(
        "switch radix " + std::to_string(radix) + " is too small for a tree of " +
        std::to_string(tree_ports) + " ports: a two-level tree reaches at most radix^2/2 = " +
        std::to_string(radix * radix / 2));
  }
  s.spines = s.up;
  return s;
}

BuiltTree build_tree(Network& net, const TreeSpec& spec) {
  const TreeShape shape = tree_shape(spec.tree_ports, spec.radix, spec.up_ports);
  BuiltTree t;
  auto base_setup = [&spec]() {
    SwitchSetup s;
    s.kind = spec.kind;
    s.md_dim = spec.md_dim;
    s.up_hash = spec.up_hash;
    s.grid_rows = spec.grid_rows;
    s.grid_cols = spec.grid_cols;
    s.board_rows = spec.board_rows;
    s.board_cols = spec.board_cols;
    s.vc = spec.vc;
    s.out_depth.assign(spec.radix, spec.depth);
    return s;
  };

  // A switch set up as `s`: its model, or a ghost when another rank steps the tree.
  auto add_switch = [&](const SwitchSetup& s, const std::string& name) {
    if (spec.ghost_switches) {
      return net.add_block(std::make_unique<GhostBlock>(spec.radix, spec.vc.vcs, spec.flit_bits), name);
    }
    auto sw = make_switch(spec.radix, spec.vc.vcs, spec.flit_bits);
    sw->reset(s);
    return net.add_block(std::move(sw), name);
  };

  if (shape.single) {
    SwitchSetup s = base_setup();
    s.level = SwitchLevel::kSingle;
    for (int p = 0; p < spec.tree_ports; ++p) s.out_depth[p] = spec.edge_depth;
    const int b = add_switch(s, spec.name);
    t.switches.push_back(b);
    t.setups.push_back(s);
    for (int p = 0; p < spec.tree_ports; ++p) t.tree_ports.push_back({b, p});
    return t;
  }

  const int down_log2 = log2_exact(shape.down);
  std::vector<int> leaves, spines;
  for (int l = 0; l < shape.leaves; ++l) {
    SwitchSetup s = base_setup();
    s.level = SwitchLevel::kLeaf;
    s.leaf_index = l;
    s.down_log2 = down_log2;
    s.up_ports = shape.up;
    for (int p = 0; p < shape.down; ++p) s.out_depth[p] = spec.edge_depth;
    leaves.push_back(add_switch(s, spec.name + ".leaf" + std::to_string(l)));
    t.setups.push_back(s);
  }
  for (int k = 0; k < shape.spines; ++k) {
    SwitchSetup s = base_setup();
    s.level = SwitchLevel::kSpine;
    s.down_log2 = down_log2;
    spines.push_back(add_switch(s, spec.name + ".spine" + std::to_string(k)));
    t.setups.push_back(s);
  }
  for (int l = 0; l < shape.leaves; ++l) {
    for (int k = 0; k < shape.up; ++k) {
      net.connect({leaves[l], shape.down + k}, {spines[k], l}, spec.internal_latency,
                  LinkClass::kCable);
    }
  }
  for (int p = 0; p < spec.tree_ports; ++p) {
    t.tree_ports.push_back({leaves[p / shape.down], p % shape.down});
  }
  t.switches = leaves;
  t.switches.insert(t.switches.end(), spines.begin(), spines.end());
  t.leaves = shape.leaves;
  t.spines = shape.spines;
  return t;
}

}  // namespace hxemu::sysc
