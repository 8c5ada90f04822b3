// Layout of a multi-dimensional platform (docs/multidim.md): the NPUs in one row by id (dimension
// 0 varies fastest), and each dimension in a band of its own, alternately above and below the
// row (dimension 0 above, 1 below, 2 above beyond 0, 3 below beyond 1), labelled with its name:
//   ring, fc   an arc per link between the two NPUs; its height grows with the distance in the
//              dimension (so a ring's wrap-around link is the tallest of its group) and with the
//              lane, so parallel lanes are separate arcs;
//   switch     each switch a thin bar spanning its group's members at a level of its own (groups
//              that do not overlap along the row share a level), every member's link a straight
//              drop from the NPU to the bar (lanes side by side); a two-level tree's leaves are
//              bars and its spines boxes beyond them.
#include <algorithm>
#include <cmath>
#include <map>

#include "tb/report/topology_layout.h"

namespace hxemu::tb::topo {

namespace {

constexpr double kLabelW = 150;    // dimension names at the left
constexpr double kRowGap = 16;     // NPU row to its first band
constexpr double kBandGap = 10;    // between two bands on the same side
constexpr double kArcBand = 110;   // ring and FC bands
constexpr double kLevel = 4.5;     // switch bars, one level to the next
constexpr double kBar = 3;         // switch bar thickness
constexpr double kSpineRoom = 30;  // two-level trees: leaf bars to spine boxes

struct SwitchTree {
  const sysc::System::TreeInfo* tree = nullptr;
  double lo = 0, hi = 0;   // x span of its members
  int level = 0;
};

}  // namespace

Layout layout_multidim(const sysc::System& sys) {
  const sysc::SystemConfig& cfg = sys.config();
  const sysc::Network& net = sys.net();
  const auto& dims = cfg.md_dims;
  const int D = static_cast<int>(dims.size());
  const int n = sys.nodes();
  const double pitch = std::clamp(1300.0 / n, 14.0, 30.0);
  const double r = std::min(6.0, pitch / 3);
  std::vector<int> node_of(net.blocks(), -1);
  for (int i = 0; i < n; ++i) node_of[sys.router_block(i)] = i;
  auto x_of = [&](int node) { return kLabelW + (node + 0.5) * pitch; };
  auto member_x = [&](sysc::PortRef tree_port) {
    return x_of(node_of[net.link_info(net.link_in(tree_port)).from.block]);
  };

  // Switch dimensions: each tree's span and level (greedy interval colouring, in tree order).
  std::vector<std::vector<SwitchTree>> trees(D);
  std::vector<int> levels(D, 0);
  std::vector<bool> two_level(D, false);
  for (const auto& t : sys.trees()) {
    if (t.kind != sysc::TreeKind::kMultidimSwitch) continue;
    SwitchTree st;
    st.tree = &t;
    st.lo = 1e300;
    st.hi = -1e300;
    for (const auto& p : t.built.tree_ports) {
      st.lo = std::min(st.lo, member_x(p));
      st.hi = std::max(st.hi, member_x(p));
    }
    const int d = sys.switch_setup(t.built.switches.front()).md_dim;
    two_level[d] = two_level[d] || t.built.leaves > 0;
    trees[d].push_back(st);
  }
  for (int d = 0; d < D; ++d) {
    std::vector<double> level_end;   // per level: the right end of its last bar
    for (auto& st : trees[d]) {
      int lv = 0;
      while (lv < static_cast<int>(level_end.size()) && level_end[lv] > st.lo - pitch / 2) ++lv;
      if (lv == static_cast<int>(level_end.size())) level_end.push_back(0);
      level_end[lv] = st.hi + pitch / 2;
      st.level = lv;
    }
    levels[d] = static_cast<int>(level_end.size());
  }

  // Band heights, then where each band starts (distance from the row to its inner edge).
  std::vector<double> band_h(D), band_in(D);
  for (int d = 0; d < D; ++d) {
    band_h[d] = dims[d].kind == sysc::DimKind::kSwitch
                    ? std::max(60.0, 28 + levels[d] * kLevel + (two_level[d] ? kSpineRoom : 0))
                    : kArcBand;
  }
  double reach[2] = {kRowGap, kRowGap};   // above, below
  for (int d = 0; d < D; ++d) {
    band_in[d] = reach[d % 2];
    reach[d % 2] += band_h[d] + kBandGap;
  }
  auto side = [](int d) { return d % 2 == 0 ? -1.0 : 1.0; };
  const double y0 = reach[0] + 4;
  Layout out;
  out.width = kLabelW + n * pitch + 12;
  out.height = y0 + reach[1] + 4;

  for (int d = 0; d < D; ++d) {
    const double inner = y0 + side(d) * band_in[d];
    const double top = side(d) < 0 ? inner - band_h[d] : inner;
    const auto& md = dims[d];
    out.frames.push_back({kLabelW - 6, top, n * pitch + 12, band_h[d], "band",
                          "dimension " + std::to_string(d) + ": " + md.name});
    const std::string what = std::string(sysc::dim_kind_name(md.kind)) + " " + std::to_string(md.size) + ", " +
                             std::to_string(md.lanes) + (md.lanes == 1 ? " lane" : " lanes");
    out.labels.push_back({6, top + band_h[d] / 2 - 2, md.name, "start", 11});
    out.labels.push_back({6, top + band_h[d] / 2 + 11, what, "start", 9});
  }

  for (int i = 0; i < n; ++i) {
    std::string note = "NPU " + std::to_string(i) + " (";
    for (int d = 0; d < D; ++d) note += (d ? ", " : "") + dims[d].name + " " + std::to_string(sys.md_coord(i, d));
    out.glyphs.push_back({sys.router_block(i), GlyphKind::kRouter, x_of(i), y0, 2 * r, 2 * r, note + ")"});
    add_terminal_stubs(sys, i, {x_of(i), y0}, r, 5, out);
  }

  // Ring and FC links: both ends are NPUs.
  for (int l = 0; l < net.links(); l += 2) {
    const auto& info = net.link_info(l);
    const int u = node_of[info.from.block], v = node_of[info.to.block];
    if (u < 0 || v < 0) continue;
    const int d = sys.md_npu_link_dim(l);
    if (d < 0) continue;
    const auto& md = dims[d];
    const int lane = (info.from.port - sys.md_port_base(d)) % md.lanes;
    const int dist = std::abs(sys.md_coord(u, d) - sys.md_coord(v, d));
    const double frac = md.size > 2 ? static_cast<double>(dist - 1) / (md.size - 2) : 1.0;
    const double lanes_room = 6.0 * (md.lanes - 1);
    const double h = band_in[d] + 14 + (band_h[d] - 24 - lanes_room) * frac + 6.0 * lane;
    const double s = side(d);
    const Pt a{x_of(u), y0 + s * r}, b{x_of(v), y0 + s * r};
    // A quadratic's apex is halfway to its control point.
    const Pt c{(a.x + b.x) / 2, y0 + s * 2 * h};
    out.wires.push_back({l, {a, c, b}, true});
  }

  // Switch dimensions.
  for (int d = 0; d < D; ++d) {
    const double s = side(d);
    const int L = dims[d].lanes;
    for (const SwitchTree& st : trees[d]) {
      const auto& built = st.tree->built;
      const int lane = st.tree->index % L;
      const double bar = band_in[d] + 14 + st.level * kLevel + kBar / 2;   // from the row
      const double lane_dx = (lane - (L - 1) / 2.0) * 2.5;
      std::map<int, Glyph> at;   // switch block -> glyph
      // A leaf (or the single switch) is a bar over the members on its ports.
      std::map<int, std::pair<double, double>> span;
      for (const auto& p : built.tree_ports) {
        auto it = span.emplace(p.block, std::pair<double, double>{member_x(p), member_x(p)}).first;
        it->second.first = std::min(it->second.first, member_x(p));
        it->second.second = std::max(it->second.second, member_x(p));
      }
      for (const auto& [block, sp] : span) {
        at[block] = {block, GlyphKind::kSwitch, (sp.first + sp.second) / 2 + lane_dx, y0 + s * bar,
                     sp.second - sp.first + 4, kBar, dims[d].name + " lane " + std::to_string(lane)};
      }
      for (int k = 0; k < built.spines; ++k) {
        const int b = built.switches[built.leaves + k];
        at[b] = {b, GlyphKind::kSwitch, (st.lo + st.hi) / 2 + (k - (built.spines - 1) / 2.0) * 10,
                 y0 + s * (band_in[d] + band_h[d] - 12), 8, 8, dims[d].name + " spine"};
      }
      for (const auto& [block, g] : at) out.glyphs.push_back(g);
      // Members drop straight to their bar; leaf-spine links from the bar to the spine box.
      for (std::size_t i = 0; i < built.tree_ports.size(); ++i) {
        const sysc::PortRef p = built.tree_ports[i];
        const int link = net.link_in(p);
        const double x = member_x(p) + lane_dx;
        const Glyph& g = at.at(p.block);
        out.wires.push_back({pair_of(link), {{x, y0 + s * r}, {x, g.y - s * kBar / 2}}, false});
      }
      for (int k = 0; k < built.leaves; ++k) {
        for (int q = 0; q < built.spines; ++q) {
          const int leaf = built.switches[k];
          const int link = net.link_out({leaf, net.block(leaf).ports() / 2 + q});
          if (link < 0) continue;
          const Glyph& lf = at.at(leaf);
          const Glyph& sp = at.at(built.switches[built.leaves + q]);
          out.wires.push_back({pair_of(link),
                               {{lf.x - lf.w / 2 + (q + 0.5) * lf.w / built.spines, lf.y + s * kBar / 2},
                                {sp.x, sp.y - s * 4}},
                               false});
        }
      }
    }
  }
  return out;
}

}  // namespace hxemu::tb::topo
