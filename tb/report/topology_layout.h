// Where tb/report/topology_svg.cpp draws each block and link: one layout per family of topology
// (mesh family: topology_layout_mesh.cpp; fat tree and Dragonfly: topology_layout_fabric.cpp;
// multidim: topology_layout_multidim.cpp). A layout is geometry only -- pixels from the top-left
// of the network area -- and knows nothing of colours; every link pair gets exactly one wire.
#pragma once

#include <string>
#include <vector>

#include "sysc/system/system.h"

namespace hxemu::tb::topo {

struct Pt {
  double x = 0, y = 0;
};

enum class GlyphKind { kRouter, kSwitch, kEndpoint };

struct Glyph {
  int block = -1;
  GlyphKind kind = GlyphKind::kRouter;
  double x = 0, y = 0;     // centre
  double w = 0, h = 0;     // a router's w is its diameter
  std::string note;        // tooltip text after the block name
};

// One bidirectional connection: `link` is its a->b direction (even id; b->a is link + 1). A
// polyline through pts, or with `quad` a quadratic curve (pts: start, control, end).
struct Wire {
  int link = -1;
  std::vector<Pt> pts;
  bool quad = false;
};

// Background boxes (boards, planes, dimension bands) and text.
struct Frame {
  double x = 0, y = 0, w = 0, h = 0;
  std::string cls;         // "board", "panel", "band"
  std::string tooltip;
};
struct Label {
  double x = 0, y = 0;
  std::string text;
  const char* anchor = "start";
  double size = 10;
};

struct Layout {
  double width = 0, height = 0;
  double line_scale = 1;   // line widths: less than 1 where lanes are packed tighter than 4 px
  std::vector<Frame> frames;
  std::vector<Label> labels;
  std::vector<Glyph> glyphs;
  std::vector<Wire> wires;
};

Layout layout_mesh(const sysc::System& sys);        // HammingMesh, torus, HyperX, mesh
Layout layout_fat_tree(const sysc::System& sys);
Layout layout_dragonfly(const sysc::System& sys);
Layout layout_multidim(const sysc::System& sys);

// Shared helpers.
inline int pair_of(int link) { return link & ~1; }   // Network::connect makes a->b even, b->a odd
// The short stubs for the terminal links of a router drawn as a circle of radius r at c: rail k
// leaves at 45 + 90k degrees (the mesh ports are N, E, S, W), `len` pixels long.
void add_terminal_stubs(const sysc::System& sys, int node, Pt c, double r, double len, Layout& out);

}  // namespace hxemu::tb::topo
