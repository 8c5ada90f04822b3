// Layout of the mesh family (HammingMesh, torus, HyperX = 1x1 boards, mesh = one board): the grid of
// boards, each a grid of routers, with gaps between boards that carry the cables.
//
// Cables are routed like a subway map so that no two share a segment (a reader can follow and
// colour each one): a row-direction cable (a W or E edge port) leaves its router sideways into
// the vertical gap beside the board, turns up or down in a "jog band" next to the board (upper
// rows up, lower rows down), and runs along its own horizontal "lane" in the gap between board
// rows -- to its row tree's switch at the right of the grid (HammingMesh), or back to the first
// board's W edge (a torus wrap-around). Column-direction cables (N, S) do the same turned by 90
// degrees: lanes in the vertical gaps, column trees below the grid. Within a gap, lanes are sorted
// by (tree, tree port), so each tree's cables are adjacent and its switch box spans exactly
// them; the order also keeps the jogs of neighbouring boards from overlapping. Torus cables
// between neighbouring boards are straight lines across the gap.
#include <algorithm>
#include <map>
#include <utility>

#include "sysc/fabric/router_ports.h"
#include "tb/report/topology_layout.h"

namespace hxemu::tb::topo {

namespace {

constexpr double kPitch = 30;    // router to router on a board
constexpr double kRadius = 7;    // router circle
constexpr double kBoardPad = 15; // board edge to the outer routers' centres
constexpr double kGapPad = 5;    // board edge to the first jog
constexpr double kMinGap = 22;   // gap between boards with nothing in it
constexpr double kTreeGap = 14;  // grid to the tree switches
constexpr double kSwitchW = 12;  // a switch box's short side
constexpr double kSpineOff = 44; // leaf to spine

using Key = std::pair<int, int>;  // (tree or wrap ring, port): lane order within a gap

struct Cable {
  int link = -1;
  int router_block = -1, port = -1;   // the end on a board edge (for a torus wrap: the E or S end)
  int tree = -1, tree_port = -1;      // HammingMesh
  int far_router = -1, far_port = -1; // torus wrap: the W or N end
  bool row = true;                    // W/E (row direction) or N/S
  int gap = 0;                        // horizontal gap (row) or vertical gap (column) of its lane
  Key key;
};

class MeshLayout {
 public:
  explicit MeshLayout(const sysc::System& sys) : sys_(sys), net_(sys.net()), cfg_(sys.config()) {
    a_ = cfg_.board_rows;
    b_ = cfg_.board_cols;
    x_ = cfg_.grid_rows;
    y_ = cfg_.grid_cols;
    half_a_ = (a_ + 1) / 2;
    half_b_ = (b_ + 1) / 2;
  }

  Layout build() {
    index_blocks();
    collect_cables();
    place_gaps();
    draw_boards();
    draw_cables();
    draw_trees();
    out_.width = tree_right_;
    out_.height = tree_bottom_;
    out_.line_scale = std::min(1.0, lane_ / 4);
    return std::move(out_);
  }

 private:
  void index_blocks() {
    node_of_router_.assign(net_.blocks(), -1);
    for (int n = 0; n < sys_.nodes(); ++n) node_of_router_[sys_.router_block(n)] = n;
    for (std::size_t t = 0; t < sys_.trees().size(); ++t) {
      const auto& built = sys_.trees()[t].built;
      for (std::size_t p = 0; p < built.tree_ports.size(); ++p) {
        port_tree_[{built.tree_ports[p].block, built.tree_ports[p].port}] = {static_cast<int>(t), static_cast<int>(p)};
      }
    }
  }

  bool is_router(int block) const { return node_of_router_[block] >= 0; }
  sysc::NodeCoord coord_of(int router) const { return sys_.coord(node_of_router_[router]); }

  // A row-direction lane sits above the board row for its upper rows, below for the lower ones.
  int row_gap(const sysc::NodeCoord& c) const { return c.local_row < half_a_ ? c.grid_row : c.grid_row + 1; }
  int col_gap(const sysc::NodeCoord& c) const { return c.local_col < half_b_ ? c.grid_col : c.grid_col + 1; }
  // The jog slot (0 = next to the board): the row nearest the turn jogs nearest the board, so a
  // stub never crosses another row's jog of the same board.
  int row_slot(int lr) const { return lr < half_a_ ? lr : a_ - 1 - lr; }
  int col_slot(int lc) const { return lc < half_b_ ? lc : b_ - 1 - lc; }

  void collect_cables() {
    for (int l = 0; l < net_.links(); l += 2) {
      const auto& info = net_.link_info(l);
      if (info.cls != sysc::LinkClass::kCable) continue;
      const int fb = info.from.block, tb = info.to.block;
      Cable c;
      c.link = l;
      if (is_router(fb) && is_router(tb)) {
        // Torus: E->W or S->N; a wrap-around when the far end is not the next board.
        const sysc::NodeCoord f = coord_of(fb), t = coord_of(tb);
        const bool row = info.from.port == sysc::kPortE;
        const bool wrap = row ? t.grid_col != f.grid_col + 1 : t.grid_row != f.grid_row + 1;
        if (!wrap) continue;   // a straight line, drawn in draw_cables
        c.router_block = fb;
        c.port = info.from.port;
        c.far_router = tb;
        c.far_port = info.to.port;
        c.row = row;
        const int ring = row ? f.grid_row * a_ + f.local_row : f.grid_col * b_ + f.local_col;
        c.key = {ring, 0};
      } else if (is_router(fb) || is_router(tb)) {
        const sysc::PortRef r = is_router(fb) ? info.from : info.to;
        const sysc::PortRef s = is_router(fb) ? info.to : info.from;
        c.router_block = r.block;
        c.port = r.port;
        const auto tp = port_tree_.at({s.block, s.port});
        c.tree = tp.first;
        c.tree_port = tp.second;
        c.row = r.port == sysc::kPortW || r.port == sysc::kPortE;
        c.key = {c.tree, c.tree_port};
      } else {
        continue;   // leaf <-> spine inside a tree: drawn with the tree
      }
      const sysc::NodeCoord rc = coord_of(c.router_block);
      c.gap = c.row ? row_gap(rc) : col_gap(rc);
      cables_.push_back(c);
    }
    hlanes_.assign(x_ + 1, {});
    vlanes_.assign(y_ + 1, {});
    for (const Cable& c : cables_) {
      (c.row ? hlanes_ : vlanes_)[c.gap].push_back(c.key);
      (c.row ? has_row_cables_ : has_col_cables_) = true;
    }
    for (auto* lanes : {&hlanes_, &vlanes_}) {
      for (auto& v : *lanes) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
      }
    }
    const int lanes_max = std::max(max_size(hlanes_), max_size(vlanes_));
    lane_ = lanes_max > 40 ? 2.5 : lanes_max > 24 ? 3 : 4;
    row_band_ = has_row_cables_ ? std::max(half_a_, a_ - half_a_) * lane_ : 0;
    col_band_ = has_col_cables_ ? std::max(half_b_, b_ - half_b_) * lane_ : 0;
  }

  static int max_size(const std::vector<std::vector<Key>>& v) {
    std::size_t m = 0;
    for (const auto& g : v) m = std::max(m, g.size());
    return static_cast<int>(m);
  }

  // Gap g of `lanes` (g = 0 before the first board): [band of the board before][lanes][band of the
  // board after], padded.
  static std::vector<double> gap_sizes(const std::vector<std::vector<Key>>& lanes, double band, double lane) {
    std::vector<double> s;
    const int n = static_cast<int>(lanes.size());
    for (int g = 0; g < n; ++g) {
      const double inner = (g > 0 ? band : 0) + static_cast<double>(lanes[g].size()) * lane + (g < n - 1 ? band : 0);
      s.push_back(std::max(kMinGap, inner + 2 * kGapPad));
    }
    return s;
  }

  void place_gaps() {
    board_w_ = (b_ - 1) * kPitch + 2 * kBoardPad;
    board_h_ = (a_ - 1) * kPitch + 2 * kBoardPad;
    vgap_ = gap_sizes(vlanes_, row_band_, lane_);
    hgap_ = gap_sizes(hlanes_, col_band_, lane_);
    double at = 0;
    for (int g = 0; g <= y_; ++g) {
      gap_left_.push_back(at);
      at += vgap_[g];
      if (g < y_) {
        board_left_.push_back(at);
        at += board_w_;
      }
    }
    grid_right_ = at;
    at = 0;
    for (int g = 0; g <= x_; ++g) {
      gap_top_.push_back(at);
      at += hgap_[g];
      if (g < x_) {
        board_top_.push_back(at);
        at += board_h_;
      }
    }
    grid_bottom_ = at;
    tree_x_ = grid_right_ + kTreeGap;
    tree_y_ = grid_bottom_ + kTreeGap;
  }

  Pt router_at(int router) const {
    const sysc::NodeCoord c = coord_of(router);
    return {board_left_[c.grid_col] + kBoardPad + c.local_col * kPitch,
            board_top_[c.grid_row] + kBoardPad + c.local_row * kPitch};
  }
  // Where a mesh port leaves the router circle.
  Pt port_at(int router, int port) const {
    const Pt c = router_at(router);
    switch (port) {
      case sysc::kPortN: return {c.x, c.y - kRadius};
      case sysc::kPortS: return {c.x, c.y + kRadius};
      case sysc::kPortW: return {c.x - kRadius, c.y};
      default: return {c.x + kRadius, c.y};
    }
  }
  double lane_pos(const std::vector<std::vector<Key>>& lanes, const std::vector<double>& gap_start,
                  double band, int gap, const Key& key) const {
    const auto& v = lanes[gap];
    const double k = static_cast<double>(std::lower_bound(v.begin(), v.end(), key) - v.begin());
    return gap_start[gap] + kGapPad + (gap > 0 ? band : 0) + (k + 0.5) * lane_;
  }
  double hlane_y(int gap, const Key& key) const { return lane_pos(hlanes_, gap_top_, col_band_, gap, key); }
  double vlane_x(int gap, const Key& key) const { return lane_pos(vlanes_, gap_left_, row_band_, gap, key); }
  // Jog positions: in the band beside the board, slot 0 nearest it.
  double jog_w(int gc, int slot) const { return board_left_[gc] - kGapPad - (slot + 0.5) * lane_; }
  double jog_e(int gc, int slot) const { return board_left_[gc] + board_w_ + kGapPad + (slot + 0.5) * lane_; }
  double jog_n(int gr, int slot) const { return board_top_[gr] - kGapPad - (slot + 0.5) * lane_; }
  double jog_s(int gr, int slot) const { return board_top_[gr] + board_h_ + kGapPad + (slot + 0.5) * lane_; }

  // From a router's edge port out to its lane: the port, the jog, the lane.
  std::vector<Pt> to_lane(int router, int port, double lane) const {
    const sysc::NodeCoord c = coord_of(router);
    const Pt p = port_at(router, port);
    if (port == sysc::kPortW || port == sysc::kPortE) {
      const int s = row_slot(c.local_row);
      const double jx = port == sysc::kPortW ? jog_w(c.grid_col, s) : jog_e(c.grid_col, s);
      return {p, {jx, p.y}, {jx, lane}};
    }
    const int s = col_slot(c.local_col);
    const double jy = port == sysc::kPortN ? jog_n(c.grid_row, s) : jog_s(c.grid_row, s);
    return {p, {p.x, jy}, {lane, jy}};
  }

  void draw_boards() {
    for (int gr = 0; gr < x_; ++gr) {
      for (int gc = 0; gc < y_; ++gc) {
        const int board = gr * y_ + gc;
        out_.frames.push_back({board_left_[gc], board_top_[gr], board_w_, board_h_, "board",
                               "board " + std::to_string(board) + " (grid row " + std::to_string(gr) +
                                   ", column " + std::to_string(gc) + ")"});
      }
    }
    for (int n = 0; n < sys_.nodes(); ++n) {
      const int rb = sys_.router_block(n);
      const Pt c = router_at(rb);
      const sysc::NodeCoord nc = sys_.coord(n);
      out_.glyphs.push_back({rb, GlyphKind::kRouter, c.x, c.y, 2 * kRadius, 2 * kRadius,
                             "node " + std::to_string(n) + ", board " + std::to_string(nc.grid_row * y_ + nc.grid_col)});
      add_terminal_stubs(sys_, n, c, kRadius, 6, out_);
    }
  }

  void draw_cables() {
    for (int l = 0; l < net_.links(); l += 2) {
      const auto& info = net_.link_info(l);
      if (info.cls == sysc::LinkClass::kBoard ||
          (info.cls == sysc::LinkClass::kCable && is_router(info.from.block) && is_router(info.to.block))) {
        // On-board neighbours, and torus cables to the next board: straight.
        out_.wires.push_back({l, {port_at(info.from.block, info.from.port), port_at(info.to.block, info.to.port)}, false});
      }
    }
    // Straight torus cables were added above; a wrap-around replaces its straight line.
    std::map<int, std::size_t> wire_of;
    for (std::size_t i = 0; i < out_.wires.size(); ++i) wire_of[out_.wires[i].link] = i;
    for (const Cable& c : cables_) {
      Wire w;
      w.link = c.link;
      if (c.tree >= 0) {
        const double lane = c.row ? hlane_y(c.gap, c.key) : vlane_x(c.gap, c.key);
        w.pts = to_lane(c.router_block, c.port, lane);
        w.pts.push_back(c.row ? Pt{tree_x_, lane} : Pt{lane, tree_y_});
        tree_ports_[{c.tree, c.tree_port}] = lane;
      } else {
        const double lane = c.row ? hlane_y(c.gap, c.key) : vlane_x(c.gap, c.key);
        w.pts = to_lane(c.router_block, c.port, lane);
        std::vector<Pt> back = to_lane(c.far_router, c.far_port, lane);
        w.pts.insert(w.pts.end(), back.rbegin(), back.rend());
      }
      auto it = wire_of.find(c.link);
      if (it != wire_of.end()) {
        out_.wires[it->second] = w;
      } else {
        out_.wires.push_back(w);
      }
    }
  }

  // Row trees right of the grid, column trees below it: a single switch spans its lanes; a
  // two-level tree has a leaf per group of lanes and its spines further out.
  void draw_trees() {
    tree_right_ = grid_right_;
    tree_bottom_ = grid_bottom_;
    for (std::size_t t = 0; t < sys_.trees().size(); ++t) {
      const auto& ti = sys_.trees()[t];
      const bool row = ti.kind == sysc::TreeKind::kRow;
      const auto& built = ti.built;
      const int ports = static_cast<int>(built.tree_ports.size());
      auto lane_of = [&](int p) { return tree_ports_.at({static_cast<int>(t), p}); };
      auto span = [&](int p0, int p1) {   // lanes of tree ports p0 .. p1-1
        double lo = 1e300, hi = -1e300;
        for (int p = p0; p < p1; ++p) {
          lo = std::min(lo, lane_of(p));
          hi = std::max(hi, lane_of(p));
        }
        return std::pair<double, double>{lo - lane_ / 2 - 1, hi + lane_ / 2 + 1};
      };
      auto box = [&](int block, double along_lo, double along_hi, double across) {
        Glyph g;
        g.block = block;
        g.kind = GlyphKind::kSwitch;
        const double len = std::max(8.0, along_hi - along_lo);
        const double mid = (along_lo + along_hi) / 2;
        if (row) {
          g.x = across + kSwitchW / 2;
          g.y = mid;
          g.w = kSwitchW;
          g.h = len;
        } else {
          g.x = mid;
          g.y = across + kSwitchW / 2;
          g.w = len;
          g.h = kSwitchW;
        }
        out_.glyphs.push_back(g);
        return g;
      };
      const double base = row ? tree_x_ : tree_y_;
      const auto all = span(0, ports);
      if (built.leaves == 0) {
        box(built.switches.front(), all.first, all.second, base);
      } else {
        const int down = (ports + built.leaves - 1) / built.leaves;
        const int up = built.spines;
        std::vector<Glyph> leaves, spines;
        for (int l = 0; l < built.leaves; ++l) {
          const auto s = span(l * down, std::min(ports, (l + 1) * down));
          leaves.push_back(box(built.switches[l], s.first, s.second, base));
        }
        const double step = (all.second - all.first) / up;
        for (int k = 0; k < up; ++k) {
          const double lo = all.first + k * step + 1, hi = all.first + (k + 1) * step - 1;
          spines.push_back(box(built.switches[built.leaves + k], lo, hi, base + kSwitchW + kSpineOff));
        }
        // Leaf l's up port k to spine k's port l.
        for (int l = 0; l < built.leaves; ++l) {
          for (int k = 0; k < up; ++k) {
            const int link = net_.link_out({built.switches[l], down + k});
            if (link < 0) continue;
            const Glyph& lf = leaves[l];
            const Glyph& sp = spines[k];
            Pt p0, p1;
            if (row) {
              p0 = {lf.x + lf.w / 2, lf.y - lf.h / 2 + (k + 0.5) * lf.h / up};
              p1 = {sp.x - sp.w / 2, sp.y - sp.h / 2 + (l + 0.5) * sp.h / built.leaves};
            } else {
              p0 = {lf.x - lf.w / 2 + (k + 0.5) * lf.w / up, lf.y + lf.h / 2};
              p1 = {sp.x - sp.w / 2 + (l + 0.5) * sp.w / built.leaves, sp.y - sp.h / 2};
            }
            out_.wires.push_back({pair_of(link), {p0, p1}, false});
          }
        }
      }
      const double far = base + kSwitchW + (built.leaves ? kSwitchW + kSpineOff : 0);
      const std::string name = (row ? "r" : "c") + std::to_string(ti.index);
      if (row) {
        out_.labels.push_back({far + 3, (all.first + all.second) / 2 + 3, name, "start", 8});
        tree_right_ = std::max(tree_right_, far + 8 + 6 * static_cast<double>(name.size()));
      } else {
        out_.labels.push_back({(all.first + all.second) / 2, far + 10, name, "middle", 8});
        tree_bottom_ = std::max(tree_bottom_, far + 14);
      }
    }
    bool rows = false, cols = false;
    for (const auto& ti : sys_.trees()) (ti.kind == sysc::TreeKind::kRow ? rows : cols) = true;
    if (rows) {
      out_.labels.push_back({tree_x_, -5, "row trees", "start", 9});
      tree_right_ = std::max(tree_right_, tree_x_ + 50);
    }
    if (cols) {
      out_.labels.push_back({gap_left_[0] + 2, tree_bottom_ + 8, "column trees", "start", 9});
      tree_bottom_ += 12;
    }
  }

  const sysc::System& sys_;
  const sysc::Network& net_;
  const sysc::SystemConfig& cfg_;
  int a_ = 1, b_ = 1, x_ = 1, y_ = 1, half_a_ = 1, half_b_ = 1;
  std::vector<int> node_of_router_;
  std::map<std::pair<int, int>, std::pair<int, int>> port_tree_;   // (switch, port) -> (tree, tree port)
  std::vector<Cable> cables_;
  std::vector<std::vector<Key>> hlanes_, vlanes_;
  bool has_row_cables_ = false, has_col_cables_ = false;
  double lane_ = 4, row_band_ = 0, col_band_ = 0;
  double board_w_ = 0, board_h_ = 0;
  std::vector<double> vgap_, hgap_, gap_left_, gap_top_, board_left_, board_top_;
  double grid_right_ = 0, grid_bottom_ = 0, tree_x_ = 0, tree_y_ = 0, tree_right_ = 0, tree_bottom_ = 0;
  std::map<std::pair<int, int>, double> tree_ports_;   // (tree, tree port) -> its lane
  Layout out_;
};

}  // namespace

Layout layout_mesh(const sysc::System& sys) { return MeshLayout(sys).build(); }

}  // namespace hxemu::tb::topo
