#include "tb/report/topology_svg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "sysc/dist/ghost_block.h"
#include "tb/report/svg_chart.h"
#include "tb/report/topology_layout.h"
#include "tb/stats/link_windows.h"

namespace hxemu::tb {

namespace topo {

void add_terminal_stubs(const sysc::System& sys, int node, Pt c, double r, double len, Layout& out) {
  const double k45 = std::sqrt(0.5);
  // NE, SE, SW, NW: clockwise from the first free diagonal.
  constexpr std::array<std::array<double, 2>, 4> kDir = {{{1, -1}, {1, 1}, {-1, 1}, {-1, -1}}};
  for (int rail = 0; rail < sys.rails(); ++rail) {
    const int link = sys.net().link_in(sys.attach_point(node, rail));
    if (link < 0) continue;
    const double dx = kDir[rail % 4][0] * k45, dy = kDir[rail % 4][1] * k45;
    out.wires.push_back({pair_of(link), {{c.x + dx * r, c.y + dy * r}, {c.x + dx * (r + len), c.y + dy * (r + len)}}, false});
  }
}

}  // namespace topo

namespace {

using topo::Glyph;
using topo::GlyphKind;
using topo::Layout;
using topo::Wire;

// Small writers in the manner of svg_chart.cpp (whose helpers are private to it): numbers are
// printed locale-independently with two decimals, so output is byte-identical everywhere.
std::string num(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s(buf);
  std::replace(s.begin(), s.end(), ',', '.');
  if (s == "-0.00") s = "0.00";
  return s;
}

std::string fraction(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(v) ? v : 0.0);
  std::string s(buf);
  std::replace(s.begin(), s.end(), ',', '.');
  return s;
}

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
    }
  }
  return out;
}

std::string text(double x, double y, const std::string& s, const char* anchor, double size, const char* fill) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" + num(size) +
         "\" fill=\"" + fill + "\">" + esc(s) + "</text>\n";
}

// The network is drawn on a dark panel: idle links (viridis' dark end) recede and busy ones (its
// bright end) stand out, which is what a reader looks for.
constexpr const char* kPanel = "#17171C";
constexpr const char* kBoard = "#2A2A33";
constexpr const char* kBand = "#1F1F27";
constexpr const char* kStructure = "#9A9AA6";   // links when no figures are given
constexpr const char* kInk = "#D8D8E0";         // text on the panel

double class_width(sysc::LinkClass c) {
  switch (c) {
    case sysc::LinkClass::kBoard: return 2.6;
    case sysc::LinkClass::kCable: return 1.7;
    default: return 1.2;
  }
}

std::string block_title(const sysc::System& sys, const Glyph& g) {
  std::string t = sys.net().block_name(g.block);
  if (!g.note.empty()) t += " (" + g.note + ")";
  return t;
}

std::string topology_summary(const sysc::System& sys) {
  const auto& cfg = sys.config();
  const auto per = sys.connections_per_class();
  std::string s = std::string(sysc::topology_name(cfg.topology)) + ", " + std::to_string(sys.nodes()) + " accelerators";
  if (cfg.topology == sysc::Topology::kHammingMesh || cfg.topology == sysc::Topology::kTorus) {
    s += ", " + std::to_string(cfg.board_rows) + "x" + std::to_string(cfg.board_cols) + " boards in a " +
         std::to_string(cfg.grid_rows) + "x" + std::to_string(cfg.grid_cols) + " grid";
  }
  int switches = 0;
  for (int b = 0; b < sys.net().blocks(); ++b) {
    if (sys.block_kind(b) == sysc::System::BlockKind::kSwitch) ++switches;
  }
  if (cfg.topology == sysc::Topology::kMultidim) switches -= sys.nodes();   // NPU routers are switch blocks
  s += ", " + std::to_string(switches) + " switches; connections: " + std::to_string(per[0]) + " on-board, " +
       std::to_string(per[1]) + " cables, " + std::to_string(per[2]) + " terminal";
  return s;
}

}  // namespace

std::string render_topology(const sysc::System& sys, const std::vector<double>& util, const std::string& title,
                            const TopologyPictureOptions& opt) {
  const auto topology = sys.config().topology;
  const Layout lay = topology == sysc::Topology::kFatTree    ? topo::layout_fat_tree(sys)
                     : topology == sysc::Topology::kDragonfly ? topo::layout_dragonfly(sys)
                     : topology == sysc::Topology::kMultidim  ? topo::layout_multidim(sys)
                                                              : topo::layout_mesh(sys);
  const sysc::Network& net = sys.net();
  const bool coloured = !util.empty();
  auto u_of = [&](int link) {
    return link >= 0 && link < static_cast<int>(util.size()) && std::isfinite(util[link]) ? std::max(0.0, util[link]) : 0.0;
  };
  double busiest = 0;
  for (int l = 0; l < net.links(); ++l) busiest = std::max(busiest, u_of(l));
  double scale = opt.scale_max;
  if (!(scale > 0)) {
    scale = 1.0;
    for (double top : {0.5, 0.25, 0.2, 0.1}) {
      if (busiest <= top) scale = top;
    }
  }
  // One line per connection, coloured by its busier direction.
  auto pair_u = [&](int link) { return std::max(u_of(link), u_of(link + 1)); };

  constexpr double kMargin = 22, kHead = 52, kLegend = 64;
  const std::string summary = topology_summary(sys);
  // No font metrics without a renderer: 0.6 em per character is a safe overestimate.
  const double text_w = std::max(0.6 * 16 * static_cast<double>(title.size()), 0.6 * 11 * static_cast<double>(summary.size()));
  const double width = std::max({lay.width + 2 * kMargin, 640.0, text_w + 2 * kMargin});
  const double height = kHead + lay.height + 2 * kMargin + kLegend;
  const double ox = kMargin, oy = kHead + kMargin;
  auto X = [&](double x) { return num(ox + x); };
  auto Y = [&](double y) { return num(oy + y); };

  std::string o;
  const std::string ws = std::to_string(static_cast<int>(std::ceil(width)));
  const std::string hs = std::to_string(static_cast<int>(std::ceil(height)));
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + ws + "\" height=\"" + hs +
       "\" viewBox=\"0 0 " + ws + " " + hs + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o += "<title>" + esc(title) + "</title>\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + ws + "\" height=\"" + hs + "\" fill=\"white\"/>\n";
  o += text(kMargin, 24, title, "start", 16, "#111111");
  o += text(kMargin, 42, summary, "start", 11, "#444444");
  o += "<rect class=\"network\" x=\"" + num(kMargin / 2) + "\" y=\"" + num(kHead + kMargin / 2) + "\" width=\"" +
       num(width - kMargin) + "\" height=\"" + num(lay.height + kMargin) + "\" fill=\"" + kPanel + "\" rx=\"6\"/>\n";

  for (const auto& f : lay.frames) {
    const char* fill = f.cls == "board" ? kBoard : f.cls == "band" ? kBand : "none";
    const char* stroke = f.cls == "band" ? "none" : "#3C3C48";
    o += "<rect class=\"" + f.cls + "\" x=\"" + X(f.x) + "\" y=\"" + Y(f.y) + "\" width=\"" + num(f.w) + "\" height=\"" +
         num(f.h) + "\" fill=\"" + fill + "\" stroke=\"" + stroke + "\" rx=\"3\"><title>" + esc(f.tooltip) +
         "</title></rect>\n";
  }
  for (const auto& l : lay.labels) o += text(ox + l.x, oy + l.y, l.text, l.anchor, l.size, kInk);

  // Busier links last, so they lie on top where lines cross (ties by link id: deterministic).
  std::vector<const Wire*> order;
  for (const auto& w : lay.wires) order.push_back(&w);
  std::stable_sort(order.begin(), order.end(), [&](const Wire* a, const Wire* b) {
    const double ua = pair_u(a->link), ub = pair_u(b->link);
    return ua != ub ? ua < ub : a->link < b->link;
  });
  o += "<g class=\"links\" fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
  for (const Wire* w : order) {
    const auto& info = net.link_info(w->link);
    const std::string a = link_end_label(sys, info.from), b = link_end_label(sys, info.to);
    std::string tip = a + " -> " + b;
    if (coloured) {
      tip += ": " + fraction(u_of(w->link)) + ", " + b + " -> " + a + ": " + fraction(u_of(w->link + 1)) + " flits/cycle";
    }
    const std::string colour = coloured ? viridis_colour(pair_u(w->link) / scale) : kStructure;
    o += "<path class=\"link " + std::string(sysc::link_class_name(info.cls)) + "\" data-link=\"" +
         std::to_string(w->link) + "\" d=\"";
    for (std::size_t i = 0; i < w->pts.size(); ++i) {
      o += i == 0 ? "M" : (w->quad ? (i == 1 ? " Q" : " ") : " L");
      o += X(w->pts[i].x) + " " + Y(w->pts[i].y);
    }
    o += "\" stroke=\"" + colour + "\" stroke-width=\"" + num(class_width(info.cls) * lay.line_scale) + "\"><title>" + esc(tip) +
         "</title></path>\n";
  }
  o += "</g>\n";

  for (const auto& g : lay.glyphs) {
    const std::string tip = "<title>" + esc(block_title(sys, g)) + "</title>";
    if (g.kind == GlyphKind::kRouter) {
      o += "<circle class=\"router\" cx=\"" + X(g.x) + "\" cy=\"" + Y(g.y) + "\" r=\"" + num(g.w / 2) +
           "\" fill=\"#C9CBD6\" stroke=\"#0E0E12\" stroke-width=\"1\">" + tip + "</circle>\n";
    } else {
      const bool sw = g.kind == GlyphKind::kSwitch;
      o += "<rect class=\"" + std::string(sw ? "switch" : "endpoint") + "\" x=\"" + X(g.x - g.w / 2) + "\" y=\"" +
           Y(g.y - g.h / 2) + "\" width=\"" + num(g.w) + "\" height=\"" + num(g.h) + "\" fill=\"" +
           (sw ? "#E0A23A" : "#C9CBD6") + "\" stroke=\"#0E0E12\" stroke-width=\"0.8\" rx=\"" + (sw ? "2" : "1") +
           "\">" + tip + "</rect>\n";
    }
  }

  // Legend: the colour bar (or a note that only the structure is drawn) and the widths by class.
  const double ly = kHead + lay.height + 2 * kMargin + 8;
  if (coloured) {
    const double bar_w = 260, bar_h = 12;
    o += "<defs>\n<linearGradient id=\"hx-topology-viridis\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\">\n";
    o += viridis_gradient_stops();
    o += "</linearGradient>\n</defs>\n";
    o += "<g class=\"colour-bar\">\n";
    o += "<rect x=\"" + num(kMargin) + "\" y=\"" + num(ly) + "\" width=\"" + num(bar_w) + "\" height=\"" + num(bar_h) +
         "\" fill=\"url(#hx-topology-viridis)\" stroke=\"#333333\"/>\n";
    // Round tick steps: 0.25 on 0..1, 0.1 on 0..0.5, 0.05 on 0..0.25 and 0..0.2, 0.02 on 0..0.1.
    const int ticks = scale == 1.0 || scale == 0.2 ? 4 : 5;
    for (int k = 0; k <= ticks; ++k) {
      const double x = kMargin + bar_w * k / ticks;
      o += "<line x1=\"" + num(x) + "\" y1=\"" + num(ly + bar_h) + "\" x2=\"" + num(x) + "\" y2=\"" + num(ly + bar_h + 4) +
           "\" stroke=\"#333333\"/>\n";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", scale * k / ticks);
      std::string label(buf);
      std::replace(label.begin(), label.end(), ',', '.');
      o += text(x, ly + bar_h + 15, label, "middle", 10, "#333333");
    }
    o += text(kMargin + bar_w + 12, ly + 10, "link utilisation (" + opt.value_note + "); busiest " + fraction(busiest),
              "start", 11, "#333333");
    o += "</g>\n";
  } else {
    o += text(kMargin, ly + 10, "structure only: no link figures given", "start", 11, "#333333");
  }
  double x = kMargin + 280;
  const double y = ly + 32;
  for (auto c : {sysc::LinkClass::kBoard, sysc::LinkClass::kCable, sysc::LinkClass::kTerminal}) {
    o += "<line x1=\"" + num(x) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(x + 24) + "\" y2=\"" + num(y - 4) +
         "\" stroke=\"#555555\" stroke-width=\"" + num(class_width(c)) + "\"/>\n";
    o += text(x + 30, y, std::string(sysc::link_class_name(c)) + " link", "start", 10, "#333333");
    x += 110;
  }
  o += "</svg>\n";
  return o;
}

namespace {

// Terminals for a System that is only drawn: one-port blocks with no model.
class DrawingTerminals final : public sysc::TerminalFactory {
 public:
  explicit DrawingTerminals(int rails) : rails_(rails) {}
  int rails() const override { return rails_; }
  std::unique_ptr<sysc::LinkBlock> make_terminal(const sysc::TerminalSpec& spec) override {
    return std::make_unique<sysc::GhostBlock>(1, spec.vc.vcs, spec.flit_bits);
  }

 private:
  int rails_;
};

}  // namespace

std::string render_topology(const sysc::SystemConfig& cfg, int rails, const std::vector<double>& util,
                            const std::string& title, const TopologyPictureOptions& opt) {
  DrawingTerminals terminals(rails);
  const sysc::System sys(cfg, terminals);
  // The figures come from a run on a System built the same way: same configuration and rails,
  // hence the same link ids. A mismatch means the caller passed the wrong rails.
  if (!util.empty() && static_cast<int>(util.size()) != sys.net().links()) {
    throw std::logic_error("render_topology: " + std::to_string(util.size()) + " link figures for a system of " +
                           std::to_string(sys.net().links()) + " links");
  }
  return render_topology(sys, util, title, opt);
}

}  // namespace hxemu::tb
