#include "sysc/system/area_model.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "sysc/blocks/nic.h"
#include "sysc/blocks/switch_block.h"
#include "sysc/system/tree_builder.h"

namespace hxemu::sysc {

std::string AreaBlock::param_text() const {
  std::string s;
  for (const auto& [name, value] : params) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return s;
}

namespace {

// The variant with the fewest slots per VC that holds `slots` among those `match` accepts (what
// make_board_router and make_nic choose); 0 when none is built.
template <class Match>
int variant_slots(const std::vector<ModelVariant>& variants, Match match, int slots) {
  int best = 0;
  for (const auto& v : variants) {
    if (match(v) && v.buffer_slots >= slots && (best == 0 || v.buffer_slots < best)) best = v.buffer_slots;
  }
  return best;
}

// "V=8 D=32" when the built variant (vcs, slots) differs from what the block asks for; "" otherwise
// or when no variant is built (the System would refuse the configuration then).
std::string variant_text(int vcs, int slots, int want_vcs, int want_slots) {
  if (vcs == 0 || slots == 0 || (vcs == want_vcs && slots == want_slots)) return "";
  return "V=" + std::to_string(vcs) + " D=" + std::to_string(slots);
}

// hx_switch's ROUTES bits.
constexpr int kTreeRoutes = 1, kDragonflyRoutes = 2, kMultidimRoutes = 4;

int pow2_at_least(int n) {
  int k = 4;
  while (k < n) k *= 2;
  return k;
}

class PlanBuilder {
 public:
  explicit PlanBuilder(const SystemConfig& c) : c_(c) {
    const auto counts = c.class_counts();
    vcs_ = std::accumulate(counts.begin(), counts.end(), 0);
    model_vcs_ = c.model_vcs();
  }

  void router(int local_ports, int depth, long long count) {
    AreaBlock b{"board router", "hx_board_router",
                {{"NL", local_ports}, {"V", vcs_}, {"D", depth}, {"W", c_.flit_bits}}, count, "", ""};
    const int ports = 4 + local_ports;
    const int slots = variant_slots(board_router_variants(), [&](const ModelVariant& v) {
      return v.ports == ports && v.vcs == model_vcs_ && v.flit_bits == c_.flit_bits;
    }, depth);
    b.emulated_as = variant_text(model_vcs_, slots, vcs_, depth);
    add(std::move(b));
  }

  // `routes`: the route computers the block's role needs (hx_switch's ROUTES: 1 tree, 2 Dragonfly,
  // 4 multidim). The verilated variant carries all three so that one model per radix serves every
  // role; a switch chip built for one role would not, and at 16 ports the unused two are most of the
  // route logic (48 route computers; Yosys ran out of memory on them, docs/area.md).
  void switch_block(const std::string& role, int routes, int radix, int depth, long long count,
                    const std::string& note) {
    AreaBlock b{role, "hx_switch", {{"K", radix}, {"V", vcs_}, {"D", depth}, {"W", c_.flit_bits}, {"ROUTES", routes}},
                count, note, ""};
    const int slots = variant_slots(switch_variants(), [&](const ModelVariant& v) {
      return v.ports == radix && v.vcs == model_vcs_ && v.flit_bits == c_.flit_bits;
    }, depth);
    b.emulated_as = variant_text(model_vcs_, slots, vcs_, depth);
    add(std::move(b));
  }

  void nics(long long count) {
    // A NIC receives into buffers as deep as an on-board input (System::add_terminal: eject_depth).
    AreaBlock b{"NIC", "hx_nic",
                {{"V", vcs_}, {"D", c_.board_depth}, {"W", c_.flit_bits}, {"MAXP", c_.max_packet_flits},
                 {"NODES", std::max(2, c_.nodes())}},
                count, "", ""};
    const int slots = variant_slots(nic_variants(), [&](const ModelVariant& v) {
      return v.vcs == model_vcs_ && v.flit_bits == c_.flit_bits;
    }, c_.board_depth);
    b.emulated_as = variant_text(model_vcs_, slots, vcs_, c_.board_depth);
    add(std::move(b));
  }

  AreaPlan plan;

 private:
  // Blocks of the same role and parameters (e.g. the switches of several Switch dimensions with
  // the same buffers) form one row.
  void add(AreaBlock b) {
    if (b.count <= 0) return;
    for (auto& have : plan.blocks) {
      if (have.role == b.role && have.top == b.top && have.params == b.params) {
        have.count += b.count;
        return;
      }
    }
    plan.blocks.push_back(std::move(b));
  }

  const SystemConfig& c_;
  int vcs_ = 0, model_vcs_ = 0;
};

void plan_hxmesh_or_torus(const SystemConfig& c, PlanBuilder& p) {
  const int a = c.board_rows, b = c.board_cols, x = c.grid_rows, y = c.grid_cols;
  const bool hx = c.topology == Topology::kHammingMesh;
  const bool trees = hx && (x > 1 || y > 1);
  // One depth per router: edge inputs fed by cables (trees, torus wrap) need cable_depth.
  const int depth = (trees || c.topology == Topology::kTorus) ? std::max(c.board_depth, c.cable_depth) : c.board_depth;
  p.router(p.plan.rails, depth, c.nodes());
  if (hx) {
    long long switches = 0;
    if (y > 1) switches += 1LL * x * a * tree_shape(2 * y, c.radix, c.up_ports).switches();   // row trees
    if (x > 1) switches += 1LL * y * b * tree_shape(2 * x, c.radix, c.up_ports).switches();   // column trees
    p.switch_block("tree switch", kTreeRoutes, c.radix, c.cable_depth, switches, "");
  }
}

void plan_multidim(const SystemConfig& c, PlanBuilder& p) {
  int ports = p.plan.rails, depth = c.board_depth;
  for (const auto& d : c.md_dims) {
    ports += d.ports();
    depth = std::max(depth, d.depth);
  }
  const int radix = pow2_at_least(ports);
  p.switch_block("NPU router", kMultidimRoutes, radix, depth, c.nodes(),
                 ports < radix ? std::to_string(ports) + " of " + std::to_string(radix) + " ports used" : "");
  for (const auto& d : c.md_dims) {
    if (d.kind != DimKind::kSwitch) continue;
    const long long trees = 1LL * (c.nodes() / d.size) * d.lanes;   // one tree per group and lane
    p.switch_block("tree switch", kTreeRoutes, c.radix, d.depth, trees * tree_shape(d.size, c.radix, c.up_ports).switches(),
                   "dimension " + d.name);
  }
}

}  // namespace

AreaPlan area_plan(const SystemConfig& c, int rails) {
  if (rails < 1 || rails > 4) {
    throw std::invalid_argument("rails must be 1..4 (NICs per accelerator), got " + std::to_string(rails));
  }
  PlanBuilder p(c);
  // As System's constructor: planes cap a fat tree's and a Dragonfly's rails, the NICs per NPU a
  // multidim platform's.
  switch (c.topology) {
    case Topology::kFatTree:
    case Topology::kDragonfly: p.plan.rails = std::min(rails, c.planes); break;
    case Topology::kMultidim: p.plan.rails = std::min(rails, c.md_nics); break;
    default: p.plan.rails = rails;
  }
  const int planes = p.plan.rails;
  switch (c.topology) {
    case Topology::kHammingMesh:
    case Topology::kTorus: plan_hxmesh_or_torus(c, p); break;
    case Topology::kFatTree:
      // Switch inputs face cables or, at the leaves, NICs that inject with cable-depth credits.
      p.switch_block("tree switch", kTreeRoutes, c.radix, c.cable_depth,
                     1LL * planes * tree_shape(c.fat_tree_nodes, c.radix, c.up_ports).switches(), "");
      break;
    case Topology::kDragonfly:
      p.switch_block("Dragonfly router", kDragonflyRoutes, c.radix, c.cable_depth, 1LL * planes * c.df_groups * c.df_routers, "");
      break;
    case Topology::kMultidim: plan_multidim(c, p); break;
  }
  p.nics(1LL * c.nodes() * planes);
  return p.plan;
}

}  // namespace hxemu::sysc
