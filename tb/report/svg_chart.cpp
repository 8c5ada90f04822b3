#include "tb/report/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>

namespace hxemu::tb {
namespace {

// ---------------------------------------------------------------------------------------------
// Text and numbers

// Coordinates leave here only; a non-finite value would make the document unrenderable, so it
// is flattened to 0 as a last line of defence (callers filter data before mapping it).
std::string fmt_fixed(double v, int decimals) {
  if (!std::isfinite(v)) v = 0;
  char buf[400];  // %.Nf of the largest double needs ~310 characters
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s(buf);
  // snprintf follows LC_NUMERIC: a host program with a decimal-comma locale must not change
  // the document (nor break determinism across machines).
  std::replace(s.begin(), s.end(), ',', '.');
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // "-0.00"
  return s;
}

std::string fmt_general(double v, int significant) {
  if (!std::isfinite(v)) v = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  std::string s(buf);
  std::replace(s.begin(), s.end(), ',', '.');
  if (s == "-0") s = "0";
  return s;
}

std::string px(double v) { return fmt_fixed(v, 2); }

// Tick labels read better as "2e9" / "5e-6" than printf's "2e+09" / "5e-06".
std::string compact_exponent(std::string s) {
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::size_t digits = e + 1;
  if (digits < s.size() && s[digits] == '+') s.erase(digits, 1);
  if (digits < s.size() && s[digits] == '-') ++digits;
  while (digits + 1 < s.size() && s[digits] == '0') s.erase(digits, 1);
  return s;
}

// Text content and attribute values alike. Control characters other than tab/newline are not
// allowed in XML 1.0 at all (not even escaped), so they are dropped.
std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') break;
        out += ch;
    }
  }
  return out;
}

// There is no font metrics without a renderer; 0.6 em per character (UTF-8 code point) is a
// slight overestimate for sans-serif, so layouts reserve enough room rather than too little.
double text_width(const std::string& s, double font_size) {
  std::size_t code_points = 0;
  for (char ch : s)
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++code_points;
  return 0.6 * font_size * static_cast<double>(code_points);
}

// <text> with escaped content; `extra` carries further (already well-formed) attributes.
std::string svg_text(double x, double y, const char* anchor, const std::string& content,
                     const std::string& extra = "") {
  std::string s = "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + anchor + "\"";
  if (!extra.empty()) s += " " + extra;
  return s + ">" + xml_escape(content) + "</text>\n";
}

std::string svg_line(double x1, double y1, double x2, double y2, const std::string& attrs) {
  return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" +
         px(y2) + "\" " + attrs + "/>\n";
}

std::string svg_header(double width, double height, const std::string& title) {
  const int w = static_cast<int>(std::ceil(width));
  const int h = static_cast<int>(std::ceil(height));
  const std::string ws = std::to_string(w), hs = std::to_string(h);
  // The white background keeps the chart readable in viewers with a dark theme.
  return "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + ws +
         "\" height=\"" + hs + "\" viewBox=\"0 0 " + ws + " " + hs +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n"
         "<title>" + xml_escape(title) + "</title>\n"
         "<rect x=\"0\" y=\"0\" width=\"" + ws + "\" height=\"" + hs + "\" fill=\"white\"/>\n";
}

// ---------------------------------------------------------------------------------------------
// Axes

struct Tick {
  double value;
  std::string label;
};

struct Axis {
  double lo = 0, hi = 1;  // data units; lo < hi (and both > 0 on a log axis)
  bool log = false;
  std::vector<Tick> ticks;
  // Unlabelled positions between ticks on log axes (every power of two, 2..9 per decade), so
  // points between labels can be placed by eye.
  std::vector<double> minor;

  // Position in [0, 1] along the axis. Values outside [lo, hi] (only possible for data beyond
  // the representable tick range, ~1e+-300) are pinned to the edge rather than drawn off-chart.
  double frac(double v) const {
    const double f = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo))
                         : (v - lo) / (hi - lo);
    return std::isfinite(f) ? std::clamp(f, 0.0, 1.0) : 0;
  }
};

// Beyond this, spans and tick positions overflow; data this large is clamped onto the axis.
constexpr double kMaxAbs = 1e300;
// Below this span, 10^floor(log10(span)) runs into denormals and the tick step into zero.
constexpr double kMinSpan = 1e-290;

// Widens a zero (or numerically negligible) range around its value so it can be drawn: a flat
// series of 5 gets 4.5..5.5 before nice rounding.
void ensure_span(double& lo, double& hi) {
  lo = std::clamp(lo, -kMaxAbs, kMaxAbs);
  hi = std::clamp(hi, -kMaxAbs, kMaxAbs);
  const double mag = std::max(std::fabs(lo), std::fabs(hi));
  if (hi - lo >= std::max(mag * 1e-9, kMinSpan)) return;
  const double mid = lo / 2 + hi / 2;
  const double pad = mid == 0 ? 1 : std::max(std::fabs(mid) * 0.1, kMinSpan);
  lo = mid - pad;
  hi = mid + pad;
}

// A 1, 2 or 5 times 10^n step giving about `target` intervals over `span`.
double nice_step(double span, int target) {
  const double raw = span / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  const double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  return nice * mag;
}

// Multiples of `step` inside [lo, hi], labelled with just enough digits to tell them apart.
std::vector<Tick> linear_ticks(double lo, double hi, double step) {
  std::vector<Tick> ticks;
  const double k_first = std::ceil(lo / step - 1e-6);
  const double k_last = std::floor(hi / step + 1e-6);
  const double max_abs = std::max(std::fabs(lo), std::fabs(hi));
  const int step_exp = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  const bool fixed = step_exp >= -4 && max_abs < 1e6;
  // In exponent notation the digits needed are those from the largest value down to the step.
  const int max_exp = max_abs > 0 ? static_cast<int>(std::floor(std::log10(max_abs))) : step_exp;
  const int significant = std::clamp(max_exp - step_exp + 1, 1, 15);
  for (double k = k_first; k <= k_last && ticks.size() < 50; k += 1) {
    const double v = k * step;  // not accumulated: repeated addition drifts (0.1 + 0.2 ...)
    ticks.push_back({v, fixed ? fmt_fixed(v, std::max(0, -step_exp))
                              : compact_exponent(fmt_general(v, significant))});
  }
  return ticks;
}

// A linear axis on nice round limits around [lo, hi]; with `fixed_hi` the top is exactly that.
Axis linear_axis(double lo, double hi, std::optional<double> fixed_hi) {
  Axis a;
  if (fixed_hi) {
    hi = std::clamp(*fixed_hi, -kMaxAbs, kMaxAbs);
    // Everything at or above the cap: show the band below it, from zero where that makes sense.
    if (lo >= hi) lo = hi > 0 ? 0 : hi - 1;
    // A negligible span is widened downwards only: the top stays where it was asked to be.
    double wide_lo = lo, wide_hi = hi;
    ensure_span(wide_lo, wide_hi);
    if (wide_hi - wide_lo > hi - lo) lo = hi - (wide_hi - wide_lo) / 2;
  } else {
    ensure_span(lo, hi);
  }
  const double step = nice_step(hi - lo, 6);
  a.lo = std::floor(lo / step) * step;
  a.hi = fixed_hi ? hi : std::ceil(hi / step) * step;
  if (!(a.hi > a.lo)) a.hi = a.lo + step;  // rounding at the limits of double precision
  a.ticks = linear_ticks(a.lo, a.hi, step);
  return a;
}

// Step between labelled exponents on a log axis (1, 2, 5, 10, 20, ...): at most 8 intervals.
int exponent_step(int span) {
  static constexpr int kSteps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500};
  for (int step : kSteps)
    if (span <= 8 * step) return step;
  return 1000;
}

int floor_div(int a, int b) { return a / b - (a % b != 0 && a < 0 ? 1 : 0); }

// Binary suffixes, as message sizes are quoted: 2^12 -> "4K", 2^20 -> "1M".
std::string pow2_label(int e) {
  static const char* const kSuffix[] = {"", "K", "M", "G", "T", "P", "E"};
  if (e >= 0 && e < 70) return std::to_string(1ull << (e % 10)) + kSuffix[e / 10];
  if (e < 0 && e >= -10) return fmt_general(std::ldexp(1.0, e), 10);  // 0.5 .. 0.0009765625
  return "2^" + std::to_string(e);
}

// Powers of two from the one at or below lo to the one at or above hi, at most ~9 labelled.
Axis log2_axis(double lo, double hi) {
  Axis a;
  a.log = true;
  int e_lo = static_cast<int>(std::floor(std::log2(lo)));
  int e_hi = static_cast<int>(std::ceil(std::log2(hi)));
  if (e_hi <= e_lo) { --e_lo; ++e_hi; }
  e_lo = std::max(e_lo, -1074);
  e_hi = std::min(e_hi, 1023);
  // Ticks on multiples of the exponent step: as 10 divides into the steps, a wide axis hits
  // the suffix boundaries (1K, 1M, 1G) rather than 2K, 64K, 2M ...
  const int e_step = exponent_step(e_hi - e_lo);
  e_lo = std::max(-1074, floor_div(e_lo, e_step) * e_step);
  // End the axis on a tick, so the last label marks the right edge.
  e_hi = std::min(1023, -floor_div(-e_hi, e_step) * e_step);
  a.lo = std::ldexp(1.0, e_lo);
  a.hi = std::ldexp(1.0, e_hi);
  for (int e = e_lo; e <= e_hi; e += e_step) {
    a.ticks.push_back({std::ldexp(1.0, e), pow2_label(e)});
    for (int m = e + 1; m < std::min(e + e_step, e_hi) && e_step <= 5; ++m)
      a.minor.push_back(std::ldexp(1.0, m));
  }
  return a;
}

std::string decimal_label(double v) {
  const int d = static_cast<int>(std::floor(std::log10(v) + 1e-9));
  if (d >= -3 && d < 5) return fmt_fixed(v, std::max(0, -d));
  const double mantissa = std::round(v / std::pow(10.0, d));
  return fmt_fixed(mantissa, 0) + "e" + std::to_string(d);
}

// Decade ticks; over a narrow range (at most two decades) 2 and 5 times each decade as well, so
// there are always a few labels. With `fixed_hi` the top is exactly that.
Axis log10_axis(double lo, double hi, std::optional<double> fixed_hi) {
  Axis a;
  a.log = true;
  if (fixed_hi) {
    hi = *fixed_hi;
    if (lo >= hi) lo = hi / 10;
  }
  int d_lo = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int d_hi = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (d_hi <= d_lo) { --d_lo; ++d_hi; }
  const int d_step = exponent_step(d_hi - d_lo);
  d_lo = std::max(-307, floor_div(d_lo, d_step) * d_step);
  d_hi = std::min(307, -floor_div(-d_hi, d_step) * d_step);
  a.lo = std::pow(10.0, d_lo);
  a.hi = fixed_hi ? hi : std::pow(10.0, d_hi);
  if (!(a.hi > a.lo)) a.hi = a.lo * 10;
  const bool with_2_5 = d_hi - d_lo <= 2;
  const double top = a.hi * (1 + 1e-9);
  for (int d = d_lo; d <= d_hi; d += d_step) {
    for (int m = 1; m <= 9; ++m) {
      const double v = m * std::pow(10.0, d);
      if (v < a.lo * (1 - 1e-9) || v > top) continue;
      if (m == 1 || (with_2_5 && (m == 2 || m == 5)))
        a.ticks.push_back({v, decimal_label(v)});
      else if (d_step == 1)
        a.minor.push_back(v);
    }
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// Colours

// Okabe & Ito's palette, distinguishable under the common colour-vision deficiencies; yellow
// is last because it is the weakest on white.
constexpr std::array<const char*, 8> kPalette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                 "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// Viridis sampled at 0, 0.1, ..., 1: perceptually uniform and readable in greyscale. The
// colour bar's gradient uses the same stops, so cells and bar agree.
constexpr std::array<std::array<int, 3>, 11> kViridis = {{{68, 1, 84},
                                                          {72, 36, 117},
                                                          {65, 68, 135},
                                                          {53, 95, 141},
                                                          {42, 120, 142},
                                                          {33, 145, 140},
                                                          {34, 168, 132},
                                                          {68, 191, 112},
                                                          {122, 209, 81},
                                                          {189, 223, 38},
                                                          {253, 231, 37}}};

std::string hex_colour(const std::array<int, 3>& rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", rgb[0], rgb[1], rgb[2]);
  return buf;
}

std::string viridis(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
  const double pos = t * (kViridis.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(pos), kViridis.size() - 2);
  const double f = pos - static_cast<double>(i);
  std::array<int, 3> rgb{};
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<int>(
        std::lround(kViridis[i][c] + f * (kViridis[i + 1][c] - kViridis[i][c])));
  return hex_colour(rgb);
}

constexpr const char* kNoDataColour = "#BBBBBB";

// The y axis both charts share: grid lines, tick marks and labels at `ya`'s ticks across
// [left, right], for a plot area whose bottom edge is at `bottom` and height `plot_h`.
void draw_y_ticks(std::string& out, const Axis& ya, double left, double right, double bottom, double plot_h) {
  for (const Tick& t : ya.ticks) {
    const double y = bottom - ya.frac(t.value) * plot_h;
    out += svg_line(left, y, right, y, "stroke=\"#E5E5E5\"");
    out += svg_line(left - 5, y, left, y, "stroke=\"#333333\"");
    out += svg_text(left - 8, y + 4, "end", t.label);
  }
}

// The y-axis label, written upwards beside a plot area starting at `top` of height `plot_h`.
std::string y_label_text(const std::string& label, double top, double plot_h) {
  const double x = 18, y = top + plot_h / 2;
  return svg_text(x, y, "middle", label,
                  "class=\"y-label\" transform=\"rotate(-90 " + px(x) + " " + px(y) + ")\"");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Line chart

std::string render_line_chart(const LineChart& c) {
  constexpr double kPlotW = 560, kPlotH = 360, kTop = 48, kBottom = 56, kRowH = 18;
  constexpr double kInf = std::numeric_limits<double>::infinity();

  const auto usable_x = [&](double v) { return std::isfinite(v) && (!c.log_x || v > 0); };
  const auto usable_y = [&](double v) { return std::isfinite(v) && (!c.log_y || v > 0); };
  std::optional<double> cap;
  if (c.y_max && usable_y(*c.y_max)) cap = c.y_max;
  const auto capped = [&](double y) { return cap && y > *cap ? *cap : y; };

  // Data ranges over the points that will be drawn (clipped ones count at the cap).
  double x_lo = kInf, x_hi = -kInf, y_lo = kInf, y_hi = -kInf;
  std::size_t drawable = 0, clipped = 0;
  for (const Series& s : c.series) {
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable_x(s.x[i]) || !usable_y(s.y[i])) continue;
      ++drawable;
      if (cap && s.y[i] > *cap) ++clipped;
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, capped(s.y[i]));
      y_hi = std::max(y_hi, capped(s.y[i]));
    }
  }
  const auto h_line_drawn = [&](double y) { return usable_y(y) && !(cap && y > *cap); };
  for (const auto& [y, label] : c.h_lines) {
    if (!h_line_drawn(y)) continue;
    y_lo = std::min(y_lo, y);
    y_hi = std::max(y_hi, y);
  }
  if (x_lo > x_hi) {  // nothing to draw: an empty frame with a sensible scale
    x_lo = c.log_x ? 1 : 0;
    x_hi = c.log_x ? 1024 : 1;
  }
  if (y_lo > y_hi) {
    y_lo = c.log_y ? 1 : 0;
    y_hi = c.log_y ? 10 : 1;
    if (cap) y_lo = y_hi = *cap;
  }
  const Axis xa = c.log_x ? log2_axis(x_lo, x_hi) : linear_axis(x_lo, x_hi, std::nullopt);
  const Axis ya = c.log_y ? log10_axis(y_lo, y_hi, cap) : linear_axis(y_lo, y_hi, cap);

  // Layout: margins follow the widest tick label and legend text, the plot area is fixed.
  double y_tick_w = 0;
  for (const Tick& t : ya.ticks) y_tick_w = std::max(y_tick_w, text_width(t.label, 12));
  const double left = 30 + y_tick_w + 12;
  const double right = left + kPlotW, top = kTop, bottom = kTop + kPlotH;
  std::vector<std::string> legend;
  for (const Series& s : c.series) legend.push_back(s.label);
  const std::string clip_note = "above y max (drawn at top)";
  if (clipped > 0) legend.push_back(clip_note);
  double legend_w = 0;
  for (const std::string& l : legend) legend_w = std::max(legend_w, text_width(l, 12));
  legend_w = legend.empty() ? 20 : 20 + 32 + legend_w + 12;
  const double title_w = text_width(c.title, 16) + 20;
  const double width = std::max(right + legend_w, title_w);
  const double height =
      std::max(bottom + kBottom, top + static_cast<double>(legend.size()) * kRowH + 20);

  const auto to_x = [&](double v) { return left + xa.frac(v) * kPlotW; };
  const auto to_y = [&](double v) { return bottom - ya.frac(v) * kPlotH; };

  std::string out = svg_header(width, height, c.title);
  out += svg_text(width / 2, 28, "middle", c.title, "font-size=\"16\" font-weight=\"bold\"");

  // Grid and ticks first, so data is drawn over them.
  out += "<g class=\"axes\">\n";
  for (const Tick& t : xa.ticks) {
    const double x = to_x(t.value);
    out += svg_line(x, top, x, bottom, "stroke=\"#E5E5E5\"");
    out += svg_line(x, bottom, x, bottom + 5, "stroke=\"#333333\"");
    out += svg_text(x, bottom + 18, "middle", t.label);
  }
  for (double v : xa.minor)
    out += svg_line(to_x(v), bottom, to_x(v), bottom + 3, "stroke=\"#333333\"");
  for (double v : ya.minor)
    out += svg_line(left - 3, to_y(v), left, to_y(v), "stroke=\"#333333\"");
  draw_y_ticks(out, ya, left, right, bottom, kPlotH);
  out += "<rect x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(kPlotW) +
         "\" height=\"" + px(kPlotH) + "\" fill=\"none\" stroke=\"#333333\"/>\n";
  out += svg_text(left + kPlotW / 2, bottom + 44, "middle", c.x_label, "class=\"x-label\"");
  out += y_label_text(c.y_label, top, kPlotH);
  out += "</g>\n";
  if (drawable == 0)
    out += svg_text(left + kPlotW / 2, top + kPlotH / 2, "middle", "no data", "fill=\"#777777\"");

  // Reference lines go under the data, their labels over it (below).
  for (const auto& [y, label] : c.h_lines) {
    if (!h_line_drawn(y)) continue;
    out += svg_line(left, to_y(y), right, to_y(y),
                    "class=\"h-line\" stroke=\"#444444\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"6,4\"");
  }

  for (std::size_t si = 0; si < c.series.size(); ++si) {
    const Series& s = c.series[si];
    const std::string colour = kPalette[si % kPalette.size()];
    // Past the palette, colours repeat with a dashed line so series stay distinguishable.
    const std::string dash = (si / kPalette.size()) % 2 ? " stroke-dasharray=\"8,4\"" : "";
    std::string d, markers;
    bool pen_down = false;
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable_x(s.x[i]) || !usable_y(s.y[i])) {
        pen_down = false;  // a gap in the data is a gap in the line, not a bridge over it
        continue;
      }
      const double x = to_x(s.x[i]), y = to_y(capped(s.y[i]));
      d += (d.empty() ? "" : " ") + std::string(pen_down ? "L" : "M") + px(x) + " " + px(y);
      pen_down = true;
      const std::string tip = "<title>" + xml_escape(s.label) + ": " + fmt_general(s.x[i], 6) +
                              ", " + fmt_general(s.y[i], 6) + "</title>";
      if (cap && s.y[i] > *cap) {
        markers += "<path class=\"marker clipped\" d=\"M" + px(x) + " " + px(y - 7) + " L" +
                   px(x + 5) + " " + px(y + 2) + " L" + px(x - 5) + " " + px(y + 2) +
                   " Z\" fill=\"" + colour + "\" stroke=\"white\">" + tip + "</path>\n";
      } else {
        markers += "<circle class=\"marker\" cx=\"" + px(x) + "\" cy=\"" + px(y) +
                   "\" r=\"3.5\" fill=\"" + colour + "\" stroke=\"white\">" + tip + "</circle>\n";
      }
    }
    out += "<g class=\"series\">\n";
    if (!d.empty() && s.line)
      out += "<path class=\"series-line\" d=\"" + d + "\" fill=\"none\" stroke=\"" + colour +
             "\" stroke-width=\"2\" stroke-linejoin=\"round\"" + dash + "/>\n";
    out += markers + "</g>\n";
  }

  for (const auto& [y, label] : c.h_lines) {
    if (!h_line_drawn(y)) continue;
    // Above the line, or below it when the line runs along the top edge; a white halo (a
    // stroked copy underneath, as SVG 1.1 has no paint-order) keeps it legible over the data.
    const double py = to_y(y), label_y = py - top < 16 ? py + 14 : py - 4;
    out += svg_text(right - 4, label_y, "end", label,
                    "fill=\"white\" stroke=\"white\" stroke-width=\"3\" "
                    "stroke-linejoin=\"round\"");
    out += svg_text(right - 4, label_y, "end", label, "fill=\"#444444\"");
  }

  if (!legend.empty()) {
    out += "<g class=\"legend\">\n";
    const double lx = right + 20;
    for (std::size_t i = 0; i < legend.size(); ++i) {
      const double ly = top + 10 + static_cast<double>(i) * kRowH;
      if (i < c.series.size()) {
        const std::string colour = kPalette[i % kPalette.size()];
        const std::string dash = (i / kPalette.size()) % 2 ? " stroke-dasharray=\"8,4\"" : "";
        out += svg_line(lx, ly, lx + 24, ly,
                        "stroke=\"" + colour + "\" stroke-width=\"2\"" + dash);
        out += "<circle cx=\"" + px(lx + 12) + "\" cy=\"" + px(ly) + "\" r=\"3.5\" fill=\"" +
               colour + "\" stroke=\"white\"/>\n";
      } else {
        out += "<path d=\"M" + px(lx + 12) + " " + px(ly - 7) + " L" + px(lx + 17) + " " +
               px(ly + 2) + " L" + px(lx + 7) + " " + px(ly + 2) + " Z\" fill=\"#777777\"/>\n";
      }
      out += svg_text(lx + 32, ly + 4, "start", legend[i]);
    }
    out += "</g>\n";
  }
  return out + "</svg>\n";
}

// ---------------------------------------------------------------------------------------------
// Bar chart

std::string render_bar_chart(const BarChart& c) {
  constexpr double kPlotH = 360, kTop = 48, kBar = 56, kGap = 28;
  const auto usable = [](double v) { return std::isfinite(v) && v >= 0; };
  double y_hi = 0;
  for (const Bar& b : c.bars)
    if (usable(b.value)) y_hi = std::max(y_hi, b.value);
  for (const auto& [y, label] : c.h_lines)
    if (usable(y)) y_hi = std::max(y_hi, y);
  if (!(y_hi > 0)) y_hi = 1;
  // Room above the tallest bar for its value and note.
  const Axis ya = linear_axis(0, y_hi * 1.12, std::nullopt);

  double y_tick_w = 0;
  for (const Tick& t : ya.ticks) y_tick_w = std::max(y_tick_w, text_width(t.label, 12));
  double label_w = 0;
  for (const Bar& b : c.bars) label_w = std::max(label_w, text_width(b.label, 12));
  const bool rotate = label_w > kBar + kGap - 4;
  const double left = 30 + y_tick_w + 12;
  const double plot_w = std::max(240.0, static_cast<double>(c.bars.size()) * (kBar + kGap) + kGap);
  const double right = left + plot_w, top = kTop, bottom = kTop + kPlotH;
  const double label_h = rotate ? label_w * 0.72 + 24 : 30;
  const double title_w = text_width(c.title, 16) + 20;
  const double width = std::max(right + 30, title_w);
  const double height = bottom + label_h + 16;
  const auto to_y = [&](double v) { return bottom - ya.frac(v) * kPlotH; };

  std::string out = svg_header(width, height, c.title);
  out += svg_text(width / 2, 28, "middle", c.title, "font-size=\"16\" font-weight=\"bold\"");
  out += "<g class=\"axes\">\n";
  draw_y_ticks(out, ya, left, right, bottom, kPlotH);
  out += "<rect x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(plot_w) +
         "\" height=\"" + px(kPlotH) + "\" fill=\"none\" stroke=\"#333333\"/>\n";
  out += y_label_text(c.y_label, top, kPlotH);
  out += "</g>\n";
  if (c.bars.empty())
    out += svg_text(left + plot_w / 2, top + kPlotH / 2, "middle", "no data", "fill=\"#777777\"");

  out += "<g class=\"bars\">\n";
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    const double x = left + kGap + static_cast<double>(i) * (kBar + kGap), cx = x + kBar / 2;
    if (usable(b.value)) {
      const double y = to_y(b.value);
      out += "<rect class=\"bar\" x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(kBar) +
             "\" height=\"" + px(bottom - y) + "\" fill=\"" + kPalette[i % kPalette.size()] +
             "\"><title>" + xml_escape(b.label) + ": " + fmt_general(b.value, 6) +
             (b.note.empty() ? "" : " (" + xml_escape(b.note) + ")") + "</title></rect>\n";
      out += svg_text(cx, y - 5, "middle", fmt_general(b.value, 4), "class=\"bar-value\"");
      if (!b.note.empty())
        out += svg_text(cx, y - 20, "middle", b.note, "class=\"bar-note\" font-size=\"10\" fill=\"#555555\"");
    } else {
      out += svg_text(cx, bottom - 6, "middle", "n/a", "class=\"bar-value\" fill=\"#777777\"");
    }
    if (rotate) {
      out += svg_text(cx + 4, bottom + 14, "end", b.label,
                      "class=\"bar-label\" transform=\"rotate(-45 " + px(cx + 4) + " " +
                          px(bottom + 14) + ")\"");
    } else {
      out += svg_text(cx, bottom + 18, "middle", b.label, "class=\"bar-label\"");
    }
  }
  out += "</g>\n";
  for (const auto& [y, label] : c.h_lines) {
    if (!usable(y)) continue;
    out += svg_line(left, to_y(y), right, to_y(y),
                    "class=\"h-line\" stroke=\"#444444\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"6,4\"");
    out += svg_text(right - 4, to_y(y) - 4, "end", label, "fill=\"#444444\"");
  }
  return out + "</svg>\n";
}

// ---------------------------------------------------------------------------------------------
// Heat map

std::string render_heat_map(const HeatMap& h) {
  constexpr double kTop = 48, kGridMax = 480, kCellMax = 40, kBarW = 16;
  const std::size_t rows = h.rows > 0 ? static_cast<std::size_t>(h.rows) : 0;
  const std::size_t cols = h.cols > 0 ? static_cast<std::size_t>(h.cols) : 0;
  const std::size_t n = rows * cols;
  const auto value_at = [&](std::size_t i) {
    return i < h.values.size() ? h.values[i] : std::numeric_limits<double>::quiet_NaN();
  };

  // Colour scale: the given range, or the data's when the given one is unusable.
  double v_lo = h.v_min, v_hi = h.v_max;
  if (!std::isfinite(v_lo) || !std::isfinite(v_hi)) {
    v_lo = std::numeric_limits<double>::infinity();
    v_hi = -v_lo;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(value_at(i))) continue;
      v_lo = std::min(v_lo, value_at(i));
      v_hi = std::max(v_hi, value_at(i));
    }
    if (v_lo > v_hi) {  // no finite value either
      v_lo = 0;
      v_hi = 1;
    }
  }
  if (v_lo > v_hi) std::swap(v_lo, v_hi);
  ensure_span(v_lo, v_hi);
  const auto scale = [&](double v) { return (v - v_lo) / (v_hi - v_lo); };

  const double cell =
      n == 0 ? 0 : std::min(kCellMax, kGridMax / static_cast<double>(std::max(rows, cols)));
  const double grid_w = n == 0 ? 160 : cell * static_cast<double>(cols);
  const double grid_h = n == 0 ? 160 : cell * static_cast<double>(rows);

  // Axis labels: the given ones, else indices; thinned so neighbours do not overlap.
  const auto label = [](const std::vector<std::string>& given, std::size_t i) {
    if (given.empty()) return std::to_string(i);
    return i < given.size() ? given[i] : std::string();
  };
  double row_label_w = 0, col_label_w = 0;
  for (std::size_t r = 0; r < rows && n > 0; ++r)
    row_label_w = std::max(row_label_w, text_width(label(h.row_labels, r), 12));
  for (std::size_t col = 0; col < cols && n > 0; ++col)
    col_label_w = std::max(col_label_w, text_width(label(h.col_labels, col), 12));
  const bool cols_vertical = col_label_w > cell - 4;
  const std::size_t row_every = n == 0 ? 1 : static_cast<std::size_t>(std::ceil(14 / cell));
  const std::size_t col_every = n == 0 ? 1
                                : static_cast<std::size_t>(
                                      std::ceil((cols_vertical ? 14 : col_label_w + 6) / cell));

  const double left = 20 + row_label_w + 8;
  const double top = kTop;
  const double bar_x = left + grid_w + 30;
  const double bar_h = std::max({grid_h, 160.0, text_width(h.value_label, 12) + 20});
  const Axis bar_axis = [&] {
    Axis a;
    a.lo = v_lo;
    a.hi = v_hi;
    a.ticks = linear_ticks(v_lo, v_hi, nice_step(v_hi - v_lo, 5));
    return a;
  }();
  double bar_tick_w = 0;
  for (const Tick& t : bar_axis.ticks) bar_tick_w = std::max(bar_tick_w, text_width(t.label, 12));
  bool any_missing = false;
  for (std::size_t i = 0; i < n; ++i) any_missing = any_missing || !std::isfinite(value_at(i));
  const double value_label_x = bar_x + kBarW + 8 + bar_tick_w + 16;
  const double width = std::max({value_label_x + 16, bar_x + 80, text_width(h.title, 16) + 20});
  const double grid_bottom = top + grid_h + 8 + (cols_vertical ? col_label_w : 14);
  const double bar_bottom = top + bar_h + (any_missing ? 34 : 0);
  const double height = std::max(grid_bottom, bar_bottom) + 16;

  std::string out = svg_header(width, height, h.title);
  out += "<defs>\n<linearGradient id=\"hx-viridis\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n";
  out += viridis_gradient_stops();
  out += "</linearGradient>\n</defs>\n";
  out += svg_text(width / 2, 28, "middle", h.title, "font-size=\"16\" font-weight=\"bold\"");

  // Row 0 at the top, as the matrix is written.
  out += "<g class=\"cells\">\n";
  const bool cell_edges = cell >= 6;
  const bool values_fit = cell >= 24;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t col = 0; col < cols; ++col) {
      const double v = value_at(r * cols + col);
      const bool ok = std::isfinite(v);
      const double x = left + static_cast<double>(col) * cell;
      const double y = top + static_cast<double>(r) * cell;
      const std::string row_name =
          h.row_labels.empty() ? "row " + std::to_string(r) : label(h.row_labels, r);
      const std::string col_name =
          h.col_labels.empty() ? "col " + std::to_string(col) : label(h.col_labels, col);
      out += "<rect class=\"cell\" x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(cell) +
             "\" height=\"" + px(cell) + "\" fill=\"" + (ok ? viridis(scale(v)) : kNoDataColour) +
             "\"" + (cell_edges ? " stroke=\"white\" stroke-width=\"0.5\"" : "") + "><title>" +
             xml_escape(row_name + ", " + col_name + ": " + (ok ? fmt_general(v, 6) : "no data")) +
             "</title></rect>\n";
      if (!ok || !values_fit) continue;
      // Two significant digits for fractions (utilizations), three for larger numbers.
      const double mag = std::fabs(v);
      const std::string text = compact_exponent(fmt_general(v, mag >= 1 && mag < 1000 ? 3 : 2));
      if (text_width(text, 10) > cell - 4) continue;
      // Dark text on the light (yellow-green) end of viridis, white on the dark end.
      out += svg_text(x + cell / 2, y + cell / 2 + 3.5, "middle", text,
                      std::string("font-size=\"10\" fill=\"") +
                          (scale(v) > 0.6 ? "#000000" : "#FFFFFF") + "\"");
    }
  }
  if (n == 0) {
    out += "<rect x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(grid_w) +
           "\" height=\"" + px(grid_h) + "\" fill=\"none\" stroke=\"#BBBBBB\"/>\n";
    out += svg_text(left + grid_w / 2, top + grid_h / 2, "middle", "no data", "fill=\"#777777\"");
  }
  out += "</g>\n<g class=\"labels\">\n";
  for (std::size_t r = 0; r < rows && n > 0; r += row_every)
    out += svg_text(left - 6, top + (static_cast<double>(r) + 0.5) * cell + 4, "end",
                    label(h.row_labels, r));
  for (std::size_t col = 0; col < cols && n > 0; col += col_every) {
    const double x = left + (static_cast<double>(col) + 0.5) * cell, y = top + grid_h + 8;
    if (cols_vertical)
      out += svg_text(x + 4, y, "end", label(h.col_labels, col),
                      "transform=\"rotate(-90 " + px(x + 4) + " " + px(y) + ")\"");
    else
      out += svg_text(x, y + 10, "middle", label(h.col_labels, col));
  }
  out += "</g>\n";

  out += "<g class=\"colour-bar\">\n";
  out += "<rect x=\"" + px(bar_x) + "\" y=\"" + px(top) + "\" width=\"" + px(kBarW) +
         "\" height=\"" + px(bar_h) + "\" fill=\"url(#hx-viridis)\" stroke=\"#333333\"/>\n";
  for (const Tick& t : bar_axis.ticks) {
    const double y = top + bar_h - bar_axis.frac(t.value) * bar_h;
    out += svg_line(bar_x + kBarW, y, bar_x + kBarW + 4, y, "stroke=\"#333333\"");
    out += svg_text(bar_x + kBarW + 8, y + 4, "start", t.label);
  }
  const double value_label_y = top + bar_h / 2;
  out += svg_text(value_label_x, value_label_y, "middle", h.value_label,
                  "transform=\"rotate(90 " + px(value_label_x) + " " + px(value_label_y) + ")\"");
  if (any_missing) {
    const double y = top + bar_h + 14;
    out += "<rect x=\"" + px(bar_x) + "\" y=\"" + px(y) + "\" width=\"" + px(kBarW) +
           "\" height=\"12\" fill=\"" + kNoDataColour + "\" stroke=\"#333333\"/>\n";
    out += svg_text(bar_x + kBarW + 8, y + 10, "start", "no data");
  }
  out += "</g>\n";
  return out + "</svg>\n";
}

std::string viridis_colour(double t) { return viridis(t); }

std::string viridis_gradient_stops() {
  std::string out;
  for (std::size_t i = 0; i < kViridis.size(); ++i) {
    out += "<stop offset=\"" + fmt_fixed(static_cast<double>(i) / (kViridis.size() - 1), 2) +
           "\" stop-color=\"" + hex_colour(kViridis[i]) + "\"/>\n";
  }
  return out;
}

}  // namespace hxemu::tb
