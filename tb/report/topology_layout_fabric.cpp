// Layouts of the switched baselines, one panel per plane (NIC k of every accelerator is on plane
// k, so each panel draws that plane's terminals as its own endpoint row):
//   fat tree   endpoints along the bottom, each straight below its leaf port; the leaves (or the
//              single switch) above, the spines above them spread over the width;
//   Dragonfly  the groups around a circle, each a short row of routers across the radius with its
//              terminals outside; local links as curves inside the group, global links as chords.
#include <algorithm>
#include <cmath>
#include <map>

#include "tb/report/topology_layout.h"

namespace hxemu::tb::topo {

namespace {

constexpr double kPanelGap = 24;
constexpr double kLabelW = 70;     // fat tree: "endpoints", "leaves", "spines" at the left

Glyph glyph(int block, GlyphKind kind, double x, double y, double w, double h, std::string note = "") {
  Glyph g;
  g.block = block;
  g.kind = kind;
  g.x = x;
  g.y = y;
  g.w = w;
  g.h = h;
  g.note = std::move(note);
  return g;
}

// Switches and terminals of one fat-tree plane, offset by `top`.
double fat_tree_panel(const sysc::System& sys, const sysc::System::TreeInfo& tree, int plane, double top, Layout& out) {
  const sysc::Network& net = sys.net();
  const int n = sys.nodes();
  const double pitch = std::clamp(960.0 / n, 5.0, 16.0);
  const double width = kLabelW + n * pitch + 10;
  const bool two = tree.built.leaves > 0;
  const double y_end = top + (two ? 200 : 110), y_leaf = y_end - 70, y_spine = y_leaf - 110;
  const double sw_h = 12;
  auto x_of = [&](int node) { return kLabelW + (node + 0.5) * pitch; };
  out.frames.push_back({0, top - 8, width, y_end - top + 22, "panel", tree.name});
  out.labels.push_back({4, y_end + 3, "endpoints", "start", 9});
  out.labels.push_back({4, y_leaf + 3, two ? "leaves" : "switch", "start", 9});
  if (two) out.labels.push_back({4, y_spine + 3, "spines", "start", 9});
  if (sys.rails() > 1) out.labels.push_back({4, top + 6, "plane " + std::to_string(plane), "start", 10});

  // Endpoints and their links: tree port p is node p's terminal on this plane.
  std::map<int, Glyph> sw;   // switch block -> glyph
  const auto& tp = tree.built.tree_ports;
  const double ep = std::max(3.0, pitch * 0.6);
  if (!two) {
    const int s = tree.built.switches.front();
    sw[s] = glyph(s, GlyphKind::kSwitch, (x_of(0) + x_of(n - 1)) / 2, y_leaf, x_of(n - 1) - x_of(0) + pitch, sw_h);
  } else {
    // A leaf spans the endpoints on its down ports.
    std::map<int, std::pair<int, int>> nodes_of;   // leaf block -> (first node, last node)
    for (int node = 0; node < static_cast<int>(tp.size()); ++node) {
      auto it = nodes_of.emplace(tp[node].block, std::pair<int, int>{node, node}).first;
      it->second.second = node;
    }
    for (int l = 0; l < tree.built.leaves; ++l) {
      const int leaf = tree.built.switches[l];
      const auto it = nodes_of.find(leaf);
      const int first = it == nodes_of.end() ? 0 : it->second.first;
      const int last = it == nodes_of.end() ? 0 : it->second.second;
      sw[leaf] = glyph(leaf, GlyphKind::kSwitch, (x_of(first) + x_of(last)) / 2, y_leaf,
                       x_of(last) - x_of(first) + pitch - 2, sw_h);
    }
    const double span = n * pitch;
    const int spines = tree.built.spines;
    for (int k = 0; k < spines; ++k) {
      const int s = tree.built.switches[tree.built.leaves + k];
      sw[s] = glyph(s, GlyphKind::kSwitch, kLabelW + (k + 0.5) * span / spines, y_spine,
                    std::min(span / spines - 6, 90.0), sw_h);
    }
  }
  for (int node = 0; node < n && node < static_cast<int>(tp.size()); ++node) {
    const int term = sys.terminal_block(node, plane);
    out.glyphs.push_back(glyph(term, GlyphKind::kEndpoint, x_of(node), y_end, ep, ep, "node " + std::to_string(node)));
    const int link = net.link_out({term, 0});
    const Glyph& leaf = sw.at(tp[node].block);
    out.wires.push_back({pair_of(link), {{x_of(node), y_end - ep / 2}, {x_of(node), leaf.y + leaf.h / 2}}, false});
  }
  for (const auto& [block, g] : sw) out.glyphs.push_back(g);
  if (two) {
    // Leaf l's up port down+k to spine k's port l: spread over the leaf's and the spine's tops.
    const int leaves = tree.built.leaves, up = tree.built.spines;
    const int down = net.block(tree.built.switches.front()).ports() / 2;
    for (int l = 0; l < leaves; ++l) {
      for (int k = 0; k < up; ++k) {
        const int link = net.link_out({tree.built.switches[l], down + k});
        if (link < 0) continue;
        const Glyph& lf = sw.at(tree.built.switches[l]);
        const Glyph& sp = sw.at(tree.built.switches[leaves + k]);
        out.wires.push_back({pair_of(link),
                             {{lf.x - lf.w / 2 + (k + 0.5) * lf.w / up, lf.y - sw_h / 2},
                              {sp.x - sp.w / 2 + (l + 0.5) * sp.w / leaves, sp.y + sw_h / 2}},
                             false});
      }
    }
  }
  out.width = std::max(out.width, width);
  return y_end + 14 - top;
}

}  // namespace

Layout layout_fat_tree(const sysc::System& sys) {
  Layout out;
  double top = 8;
  int plane = 0;
  for (const auto& tree : sys.trees()) {
    if (tree.kind != sysc::TreeKind::kFatTree) continue;
    top += fat_tree_panel(sys, tree, plane++, top, out) + kPanelGap;
  }
  out.height = top - kPanelGap;
  return out;
}

Layout layout_dragonfly(const sysc::System& sys) {
  const sysc::SystemConfig& cfg = sys.config();
  const sysc::Network& net = sys.net();
  const int g = cfg.df_groups, a = cfg.df_routers, p = cfg.df_terminals;
  const int planes = sys.rails();
  const double kPi = std::acos(-1.0);
  const double rpitch = 20, tpitch = 9;
  // The circle holds every group's row of routers with room between groups.
  const double ring = std::max(110.0, g * (a * rpitch + 34) / (2 * kPi));
  const double panel = 2 * (ring + 70);
  const int cols = planes <= 1 ? 1 : 2;
  Layout out;
  std::vector<int> router_of(net.blocks(), -1);   // block -> index in `pos`
  std::vector<Pt> pos;
  std::vector<Pt> radial;                         // per router: unit vector outward
  for (int k = 0; k < planes; ++k) {
    const double ox = (k % cols) * (panel + kPanelGap), oy = (k / cols) * (panel + kPanelGap);
    const Pt c{ox + panel / 2, oy + panel / 2};
    out.frames.push_back({ox, oy, panel, panel, "panel", "plane " + std::to_string(k)});
    if (planes > 1) out.labels.push_back({ox + 6, oy + 14, "plane " + std::to_string(k), "start", 10});
    for (int grp = 0; grp < g; ++grp) {
      const double th = -kPi / 2 + 2 * kPi * grp / g;
      const Pt u{std::cos(th), std::sin(th)}, t{-std::sin(th), std::cos(th)};
      out.labels.push_back({c.x + u.x * (ring + 52), c.y + u.y * (ring + 52) + 3, "g" + std::to_string(grp), "middle", 9});
      for (int r = 0; r < a; ++r) {
        const double off = (r - (a - 1) / 2.0) * rpitch;
        const Pt at{c.x + u.x * ring + t.x * off, c.y + u.y * ring + t.y * off};
        // The router's block: terminal 0 of its first accelerator sits on its port 0.
        const int node = (grp * a + r) * p;
        const int block = sys.attach_point(node, k).block;
        router_of[block] = static_cast<int>(pos.size());
        pos.push_back(at);
        radial.push_back(u);
        out.glyphs.push_back(glyph(block, GlyphKind::kSwitch, at.x, at.y, 11, 11,
                                   "group " + std::to_string(grp) + ", router " + std::to_string(r)));
        for (int j = 0; j < p; ++j) {
          const double toff = (j - (p - 1) / 2.0) * tpitch;
          const Pt e{at.x + u.x * 26 + t.x * toff, at.y + u.y * 26 + t.y * toff};
          const int term = sys.terminal_block(node + j, k);
          out.glyphs.push_back(glyph(term, GlyphKind::kEndpoint, e.x, e.y, 5, 5, "node " + std::to_string(node + j)));
          const int link = net.link_out({term, 0});
          out.wires.push_back({pair_of(link), {e, {at.x + u.x * 6, at.y + u.y * 6}}, false});
        }
      }
    }
    out.width = std::max(out.width, ox + panel);
    out.height = std::max(out.height, oy + panel);
  }
  // Router-to-router links: a curve bowing toward the centre inside a group, a chord between groups.
  for (int l = 0; l < net.links(); l += 2) {
    const auto& info = net.link_info(l);
    const int i = router_of[info.from.block], j = router_of[info.to.block];
    if (i < 0 || j < 0) continue;
    const Pt s = pos[i], e = pos[j];
    const bool local = radial[i].x == radial[j].x && radial[i].y == radial[j].y;
    if (local) {
      const double d = std::hypot(e.x - s.x, e.y - s.y);
      const Pt m{(s.x + e.x) / 2 - radial[i].x * (6 + 0.6 * d), (s.y + e.y) / 2 - radial[i].y * (6 + 0.6 * d)};
      out.wires.push_back({l, {s, m, e}, true});
    } else {
      out.wires.push_back({l, {s, e}, false});
    }
  }
  return out;
}

}  // namespace hxemu::tb::topo
