#include "sysc/system/route_model.h"

#include <functional>

#include <algorithm>
#include <numeric>

namespace hxemu::sysc {

namespace {

// A destination's coordinate word unpacked, with the short names the RTL uses.
struct Dst {
  int gr, gc, lr, lc;
};
Dst unpack(std::uint32_t d) {
  const NodeCoord c = unpack_coord(d);
  return {c.grid_row, c.grid_col, c.local_row, c.local_col};
}

// What hx_route_hxmesh works out about a head before choosing: distances to the board edges, the
// edge a tree-bound packet leaves through, and whether each dimension goes through its tree.
struct HxGeometry {
  int to_n, to_s;
  bool leave_w, leave_n, x_tree, y_tree;
  HxGeometry(const RouterSetup& s, const Dst& d) {
    const int last_col = s.board_cols - 1, last_row = s.board_rows - 1;
    const int to_w = s.local_col, to_e = last_col - s.local_col;
    to_n = s.local_row;
    to_s = last_row - s.local_row;
    const int x_direct = std::abs(d.lc - s.local_col), y_direct = std::abs(d.lr - s.local_row);
    leave_w = to_w <= to_e;
    leave_n = to_n <= to_s;
    const int x_via = (leave_w ? to_w : to_e) + 2 + std::min(d.lc, last_col - d.lc);
    const int y_via = (leave_n ? to_n : to_s) + 2 + std::min(d.lr, last_row - d.lr);
    x_tree = s.grid_cols > 1 && (d.gc != s.grid_col || x_via < x_direct);
    y_tree = s.grid_rows > 1 && (d.gr != s.grid_row || y_via < y_direct);
    x_enters = leave_w ? to_w == 0 : to_e == 0;
    // The Y port: the column tree's edge when the row dimension goes through it, else along the
    // board's column (hx_route_hxmesh y_port / y_enters_tree).
    if (y_tree) {
      y_port = leave_n ? kPortN : kPortS;
      y_enters = leave_n ? to_n == 0 : to_s == 0;
    } else {
      y_port = d.lr < s.local_row ? kPortN : kPortS;
      y_enters = false;
    }
  }
  bool x_enters;   // the X tree port is this router's own edge port
  int y_port;
  bool y_enters;
};

RouteDecision route_hxmesh(const RouterSetup& s, int in_class, const Dst& d) {
  const HxGeometry g(s, d);
  RouteDecision r;
  bool enters = false;
  if (g.x_tree) {
    r.port = g.leave_w ? kPortW : kPortE;
    enters = g.x_enters;
  } else if (g.y_tree && d.lc == s.local_col) {
    r.port = g.y_port;
    enters = g.y_enters;
  } else {
    r.port = dor_port(s.local_row, s.local_col, d.lr, d.lc);
  }
  r.out_class = enters ? (in_class + 1) & 3 : in_class;
  return r;
}

// hx_route_hxmesh's Y-first alternative (alt_valid_o / alt_port_o / alt_class_o).
bool hxmesh_alternative(const RouterSetup& s, int in_class, const Dst& d, RouteDecision& alt) {
  const HxGeometry g(s, d);
  const bool x_work = g.x_tree || d.lc != s.local_col;
  const bool y_work = g.y_tree || d.lr != s.local_row;
  alt.port = g.y_port;
  alt.out_class = g.y_enters ? (in_class + 1) & 3 : in_class;
  return x_work && y_work && !(alt.port == kPortN && !g.y_enters);
}

// hx_route_torus's geometry of a head: the port and wrap of each dimension's move.
struct TorusGeometry {
  int dx, dy, x_port, y_port;
  bool x_wrap, y_wrap;
  TorusGeometry(const RouterSetup& s, const Dst& d) {
    const int kx = s.grid_cols * s.board_cols, ky = s.grid_rows * s.board_rows;
    const int my_x = s.grid_col * s.board_cols + s.local_col;
    const int my_y = s.grid_row * s.board_rows + s.local_row;
    const int dst_x = d.gc * s.board_cols + d.lc, dst_y = d.gr * s.board_rows + d.lr;
    dx = dst_x >= my_x ? dst_x - my_x : dst_x + kx - my_x;
    dy = dst_y >= my_y ? dst_y - my_y : dst_y + ky - my_y;
    x_port = dx <= kx - dx ? kPortE : kPortW;
    y_port = dy <= ky - dy ? kPortS : kPortN;
    x_wrap = x_port == kPortE ? my_x == kx - 1 : my_x == 0;
    y_wrap = y_port == kPortS ? my_y == ky - 1 : my_y == 0;
  }
};

// The adaptive torus class: the wrap links crossed so far, in either dimension (never restarts).
int wraps_crossed(int in_class, bool wrap) { return (in_class + (wrap ? 1 : 0)) & 3; }

RouteDecision route_torus(const RouterSetup& s, int in_port, int in_class, const Dst& d) {
  const TorusGeometry g(s, d);
  RouteDecision r;
  bool wrap = false, same_dim = true;
  if (g.dx != 0) {
    r.port = g.x_port;
    wrap = g.x_wrap;
    same_dim = in_port == kPortE || in_port == kPortW;
  } else if (g.dy != 0) {
    r.port = g.y_port;
    wrap = g.y_wrap;
    same_dim = in_port == kPortN || in_port == kPortS;
  } else {
    r.port = kPortLocal;
  }
  if (r.port == kPortLocal) r.out_class = in_class;
  else if (s.adaptive) r.out_class = wraps_crossed(in_class, wrap);
  else if (same_dim) r.out_class = in_class | (wrap ? 1 : 0);
  else r.out_class = wrap ? 1 : 0;
  return r;
}

// hx_route_torus's Y-first alternative under adaptive routing: X work left and a southward Y move
// (north-last inside each class).
bool torus_alternative(const RouterSetup& s, int in_class, const Dst& d, RouteDecision& alt) {
  const TorusGeometry g(s, d);
  alt.port = g.y_port;
  alt.out_class = wraps_crossed(in_class, g.y_wrap);
  return g.dx != 0 && g.dy != 0 && g.y_port == kPortS;
}
}  // namespace

int dor_port(int my_row, int my_col, int dst_row, int dst_col) {
  if (dst_col > my_col) return kPortE;
  if (dst_col < my_col) return kPortW;
  if (dst_row > my_row) return kPortS;
  if (dst_row < my_row) return kPortN;
  return kPortLocal;
}

RouteDecision route_board(const RouterSetup& s, int in_port, int in_class, std::uint32_t dst,
                          int rail, int local_ports) {
  const Dst d = unpack(dst);
  RouteDecision r = s.mode == RouteMode::kTorus ? route_torus(s, in_port, in_class, d)
                                                : route_hxmesh(s, in_class, d);
  if (r.port == kPortLocal && rail < local_ports) r.port += rail;
  return r;
}

bool route_board_alternative(const RouterSetup& s, int in_class, std::uint32_t dst,
                             RouteDecision& alt) {
  if (!s.adaptive) return false;
  if (s.mode == RouteMode::kTorus) return torus_alternative(s, in_class, unpack(dst), alt);
  return hxmesh_alternative(s, in_class, unpack(dst), alt);
}

namespace {
// The group's global port index toward group `dst_group` (absolute arrangement, docs/topology.md).
int dragonfly_global_index(const SwitchSetup& s, int dst_group) {
  return dst_group < s.df_group ? dst_group : dst_group - 1;
}
}  // namespace

RouteDecision route_dragonfly(const SwitchSetup& s, int in_class, std::uint32_t dst) {
  const NodeCoord d = unpack_coord(dst);
  const int dg = d.grid_row, dr = d.grid_col, dt = d.local_row;
  const int local0 = s.df_terminals, global0 = s.df_terminals + s.df_routers - 1;
  auto local_port = [&](int router) { return local0 + (router < s.df_router ? router : router - 1); };
  RouteDecision r;
  r.out_class = in_class;
  if (dg == s.df_group) {
    r.port = dr == s.df_router ? dt : local_port(dr);
    return r;
  }
  const int k = dragonfly_global_index(s, dg);
  const int router = k / s.df_globals;
  if (router == s.df_router) {
    r.port = global0 + k % s.df_globals;
    r.out_class = (in_class + 1) & 3;
  } else {
    r.port = local_port(router);
  }
  return r;
}

int dragonfly_nonminimal(const SwitchSetup& s, int in_port, int in_class, std::uint32_t dst,
                         std::vector<RouteDecision>& out) {
  const int dg = unpack_coord(dst).grid_row;
  if (s.kind != TreeKind::kDragonfly || !s.adaptive || in_class != 0 || in_port >= s.df_terminals ||
      dg == s.df_group) {
    return 0;
  }
  const int kd = dragonfly_global_index(s, dg);
  const int global0 = s.df_terminals + s.df_routers - 1;
  int n = 0;
  for (int slot = 0; slot < s.df_globals; ++slot) {
    const int k = s.df_router * s.df_globals + slot;
    if (k < s.df_groups - 1 && k != kd) {
      out.push_back({global0 + slot, (in_class + 1) & 3});
      ++n;
    }
  }
  return n;
}

namespace {

// The dimension a multidim head corrects next: the first in routing order whose coordinate
// differs; -1 when the head is home.
int md_next_dim(const SwitchSetup& s, std::uint32_t dst) {
  for (int k = 0; k < 4; ++k) {
    const int d = s.md_order[k];
    if (static_cast<int>((dst >> (8 * d)) & 0xff) != s.md_pos[d]) return d;
  }
  return -1;
}

}  // namespace

RouteDecision route_multidim(const SwitchSetup& s, int in_port, int in_class, std::uint32_t dst, int rail,
                             int lane) {
  RouteDecision r;
  const int d = md_next_dim(s, dst);
  if (d < 0) {
    r.port = rail < s.md_base[0] ? rail : 0;   // NICs are the ports below dimension 0's
    return r;
  }
  const int n = s.md_size[d], p = s.md_pos[d], t = static_cast<int>((dst >> (8 * d)) & 0xff);
  const int L = s.md_lanes[d], base = s.md_base[d];
  const int span = s.md_kind[d] == 0 ? 2 * L : s.md_kind[d] == 1 ? (n - 1) * L : L;
  const bool same_dim = in_port >= base && in_port < base + span;
  const int l = lane % L;
  if (s.md_kind[d] == 0) {
    const int fwd = t >= p ? t - p : t + n - p;
    const bool plus = fwd <= n - fwd;
    const bool wrap = plus ? p == n - 1 : p == 0;
    r.port = base + (plus ? 0 : L) + l;
    r.out_class = (same_dim ? in_class : 0) | (wrap ? 1 : 0);
  } else if (s.md_kind[d] == 1) {
    r.port = base + (t < p ? t : t - 1) * L + l;
  } else {
    r.port = base + l;
  }
  return r;
}

int route_lanes(const SwitchSetup& s, std::uint32_t dst) {
  if (s.kind != TreeKind::kMultidim) return 1;
  const int d = md_next_dim(s, dst);
  return d < 0 ? 1 : s.md_lanes[d];
}

RouteDecision route_tree(const SwitchSetup& s, int radix, int in_class, int dst_node,
                         std::uint32_t dst, int up_choice, int in_port, int rail) {
  if (s.kind == TreeKind::kDragonfly) return route_dragonfly(s, in_class, dst);
  if (s.kind == TreeKind::kMultidim) return route_multidim(s, in_port, in_class, dst, rail, up_choice);
  const Dst d = unpack(dst);
  int tree_port = dst_node;
  if (s.kind == TreeKind::kMultidimSwitch) {
    tree_port = static_cast<int>((dst >> (8 * s.md_dim)) & 0xff);
  } else if (s.kind == TreeKind::kRow) {
    tree_port = 2 * d.gc + (d.lc > s.board_cols - 1 - d.lc ? 1 : 0);
  } else if (s.kind == TreeKind::kColumn) {
    tree_port = 2 * d.gr + (d.lr > s.board_rows - 1 - d.lr ? 1 : 0);
  }
  RouteDecision r;
  r.out_class = in_class;
  const int leaf = tree_port >> s.down_log2;
  switch (s.level) {
    case SwitchLevel::kSingle:
      r.port = tree_port;
      break;
    case SwitchLevel::kSpine:
      r.port = leaf;
      break;
    case SwitchLevel::kLeaf: {
      const int up_first = 1 << s.down_log2;
      if (leaf == s.leaf_index) {
        r.port = tree_port - (s.leaf_index << s.down_log2);
      } else if (s.up_hash) {
        const std::uint32_t hash = ((static_cast<std::uint32_t>(tree_port) * 40503u) >> 8) & 0xff;
        r.port = up_first + static_cast<int>((hash * static_cast<std::uint32_t>(s.up_ports)) >> 8);
      } else {
        r.port = up_first + up_choice % std::max(1, s.up_ports);
      }
      break;
    }
  }
  (void)radix;
  return r;
}

int adaptive_up_choices(const System& sys) {
  int n = 1;
  for (const auto& t : sys.trees()) {
    for (const auto& s : t.built.setups) {
      if (s.level == SwitchLevel::kLeaf && !s.up_hash) n = std::max(n, s.up_ports);
    }
  }
  // A multidim router's lanes: trace_path's choice u takes lane u mod L of every dimension, so the
  // least common multiple of the lane counts covers every dimension's lanes evenly.
  for (const auto& d : sys.config().md_dims) n = std::lcm(n, d.lanes);
  return n;
}

Path trace_path(const System& sys, int src, int dst, int rail, int up_choice) {
  Path path;
  const Network& net = sys.net();
  const std::uint32_t dst_route = sys.route_of(dst);
  // The terminal link into the network.
  const int first = net.link_out({sys.terminal_block(src, rail), 0});
  path.latency = net.link(first).latency();
  PortRef at = net.link_info(first).to;
  int cls = 0;
  for (int guard = 0; guard < 64; ++guard) {
    if (sys.block_kind(at.block) == System::BlockKind::kTerminal) {
      if (sys.node_of_block(at.block) != dst) {
        path.error = "route from " + std::to_string(src) + " to " + std::to_string(dst) +
                     " ends at node " + std::to_string(sys.node_of_block(at.block));
        return path;
      }
      path.ok = true;
      return path;
    }
    RouteDecision r;
    if (sys.block_kind(at.block) == System::BlockKind::kRouter) {
      r = route_board(sys.router_setup(at.block), at.port, cls, dst_route, rail,
                      net.block(at.block).ports() - kMeshPorts);
    } else {
      r = route_tree(sys.switch_setup(at.block), net.block(at.block).ports(), cls, dst, dst_route,
                     up_choice, at.port, rail);
    }
    PathHop hop;
    hop.block = at.block;
    hop.in_port = at.port;
    hop.out_port = r.port;
    hop.out_class = r.out_class;
    hop.link_out = net.link_out({at.block, r.port});
    path.hops.push_back(hop);
    path.latency += 2;
    if (hop.link_out < 0) {
      path.error = "route from " + std::to_string(src) + " to " + std::to_string(dst) + " leaves " +
                   net.block_name(at.block) + " through unconnected port " + std::to_string(r.port);
      return path;
    }
    const auto& info = net.link_info(hop.link_out);
    path.latency += net.link(hop.link_out).latency();
    if (info.cls != LinkClass::kTerminal) {
      ++path.links;
      if (info.cls == LinkClass::kBoard) ++path.board_links;
      else ++path.cable_links;
    }
    cls = r.out_class;
    at = info.to;
  }
  path.error = "route from " + std::to_string(src) + " to " + std::to_string(dst) + " loops";
  return path;
}

namespace {

// One step of spread_path_links: the traffic share `w` sits at `at` in class `cls`.
bool spread_from(const System& sys, PortRef at, int cls, int dst, std::uint32_t dst_route, int rail,
                 double w, int depth, const std::function<void(int, double)>& add, std::string& error) {
  const Network& net = sys.net();
  if (sys.block_kind(at.block) == System::BlockKind::kTerminal) {
    if (sys.node_of_block(at.block) == dst) return true;
    error = "a route to " + std::to_string(dst) + " ends at node " + std::to_string(sys.node_of_block(at.block));
    return false;
  }
  if (depth > 64) {
    error = "a route to " + std::to_string(dst) + " loops";
    return false;
  }
  RouteDecision choices[64];
  int n = 0;
  if (sys.block_kind(at.block) == System::BlockKind::kRouter) {
    const RouterSetup& s = sys.router_setup(at.block);
    choices[n++] = route_board(s, at.port, cls, dst_route, rail, net.block(at.block).ports() - kMeshPorts);
    if (route_board_alternative(s, cls, dst_route, choices[n])) ++n;
  } else {
    const SwitchSetup& s = sys.switch_setup(at.block);
    const int ups = s.level == SwitchLevel::kLeaf && !s.up_hash ? std::min(64, std::max(1, s.up_ports))
                                                                 : std::min(64, route_lanes(s, dst_route));
    for (int u = 0; u < ups; ++u) {
      choices[n] = route_tree(s, net.block(at.block).ports(), cls, dst, dst_route, u, at.port, rail);
      const bool down = choices[n].port < (1 << s.down_log2);
      ++n;
      if (down) break;   // a head for the leaf's own ports goes down whatever the choice
    }
  }
  for (int k = 0; k < n; ++k) {
    const int link = net.link_out({at.block, choices[k].port});
    if (link < 0) {
      error = "a route to " + std::to_string(dst) + " leaves " + net.block_name(at.block) +
              " through unconnected port " + std::to_string(choices[k].port);
      return false;
    }
    add(link, w / n);
    if (!spread_from(sys, net.link_info(link).to, choices[k].out_class, dst, dst_route, rail, w / n,
                     depth + 1, add, error)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool spread_path_links(const System& sys, int src, int dst, int rail,
                       const std::function<void(int link, double share)>& add, std::string& error) {
  const Network& net = sys.net();
  const int first = net.link_out({sys.terminal_block(src, rail), 0});
  add(first, 1.0);
  return spread_from(sys, net.link_info(first).to, 0, dst, sys.route_of(dst), rail, 1.0, 0, add, error);
}

}  // namespace hxemu::sysc
