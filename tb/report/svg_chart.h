// Dependency-free SVG charts for testbench reports: line charts (latency/bandwidth curves over
// message size or load) and heat maps (per-link utilization). Output is a complete standalone
// SVG 1.1 document that a browser opens directly. Rendering is deterministic -- the same input
// gives a byte-identical document -- so charts can be diffed and checked in next to reports.
//
// Robustness over strictness: bad data never throws and never leaks "nan"/"inf" into the SVG.
// Non-finite points (and non-positive ones on a log axis) are skipped and break the line there,
// mismatched x/y lengths use the common prefix, a heat map with fewer values than rows*cols shows
// the missing cells as "no data".
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hxemu::tb {

struct Series {                 // one line on a line chart
  std::string label;            // legend text
  std::vector<double> x, y;     // same length; points drawn in the given order
  bool line = true;             // false: markers only (a scatter of design points)
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<Series> series;
  // Logarithmic x axis with power-of-two ticks labelled with binary suffixes ("4K", "1M"), the
  // natural scale for message sizes; x must be > 0 (other points are skipped).
  bool log_x = false;
  // Logarithmic y axis with decade ticks (plus 2 and 5 within a decade when the range is
  // narrow): latencies and rates are read in decimal orders of magnitude. y must be > 0.
  bool log_y = false;
  // Top of the y axis, fixed (e.g. latency curves blow up past saturation). Points above it are
  // drawn at the top edge with an upward triangle instead of a dot, and the legend says so.
  std::optional<double> y_max;
  // Horizontal reference lines (y value, label), dashed and labelled in the plot, e.g. a
  // bandwidth bound. They count towards the y range unless above y_max (then omitted).
  std::vector<std::pair<double, std::string>> h_lines;
};

// A complete standalone SVG document. Element classes a checker can rely on: one
// path.series-line per series with `line` set and a drawable point, one .marker per drawn point
// (".marker clipped" when above y_max), one .h-line per drawn reference line.
std::string render_line_chart(const LineChart& c);

struct Bar {                    // one bar of a bar chart
  std::string label;            // under the bar (e.g. a configuration's name)
  double value = 0;             // bar height; non-finite or negative values draw no bar
  std::string note;             // optional, printed above the value (e.g. "62% of injection")
};

struct BarChart {
  std::string title, y_label;
  std::vector<Bar> bars;        // drawn left to right in the given order
  // Horizontal reference lines (y value, label), dashed, as on a line chart.
  std::vector<std::pair<double, std::string>> h_lines;
};

// A complete standalone SVG document with a linear y axis from 0: one rect.bar per bar with a
// finite value >= 0 (with a tooltip), its value above it and its label below (rotated when the
// labels are long), one .h-line per drawn reference line. Deterministic, as the charts above.
std::string render_bar_chart(const BarChart& c);

struct HeatMap {
  std::string title;
  int rows = 0, cols = 0;
  std::vector<double> values;   // rows*cols, row-major; NaN = no data (drawn grey)
  std::string value_label;      // e.g. "link utilization"
  double v_min = 0, v_max = 1;  // colour scale range; values outside it take the end colours
  std::vector<std::string> row_labels, col_labels;  // optional; indices are shown otherwise
};

// A complete standalone SVG document: rows*cols rect.cell (row-major, row 0 at the top, each with
// a tooltip; values printed in cells large enough) and a viridis colour bar (g.colour-bar) with
// ticks over [v_min, v_max] (swapped if reversed, the data's range if not finite).
std::string render_heat_map(const HeatMap& h);

// The colour scale the heat map and the topology picture (tb/report/topology_svg.h) share:
// viridis at t in [0, 1] (clamped; non-finite = 0) as "#RRGGBB", and its stops as the <stop>
// elements of an SVG linearGradient (offsets 0, 0.1, ..., 1).
std::string viridis_colour(double t);
std::string viridis_gradient_stops();

}  // namespace hxemu::tb
