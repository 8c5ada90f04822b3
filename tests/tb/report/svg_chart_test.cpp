// SVG chart writer: well-formed standalone documents, the requested content present (and
// escaped), one element per drawn thing, and no "nan"/"inf" for any data the testbench may hand
// it. Well-formedness is checked by a small XML checker here, and by xmllint when installed.
#include "tb/report/svg_chart.h"

#include <algorithm>
#include <cctype>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <unistd.h>

namespace hxemu::tb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t count(const std::string& doc, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t pos = doc.find(needle); pos != std::string::npos;
       pos = doc.find(needle, pos + 1))
    ++n;
  return n;
}

bool is_name_char(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == ':' ||
         ch == '.';
}

// '&' must start one of the predefined entities or a character reference.
bool entities_ok(const std::string& text) {
  for (std::size_t pos = text.find('&'); pos != std::string::npos; pos = text.find('&', pos + 1)) {
    const std::size_t semi = text.find(';', pos);
    if (semi == std::string::npos) return false;
    const std::string ent = text.substr(pos + 1, semi - pos - 1);
    const bool named = ent == "amp" || ent == "lt" || ent == "gt" || ent == "quot" || ent == "apos";
    const bool numeric = ent.size() > 1 && ent[0] == '#';
    if (!named && !numeric) return false;
  }
  return true;
}

// A small well-formedness checker: one root element, matching start/end tags, quoted
// attributes without '<', valid entity references, no stray '<' or control characters in text.
::testing::AssertionResult well_formed(const std::string& doc) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  const auto fail = [&](const std::string& why) {
    return ::testing::AssertionFailure() << why << " at offset " << i << ": "
                                         << doc.substr(i, 60);
  };
  while (i < doc.size()) {
    if (doc[i] != '<') {
      const std::size_t next = std::min(doc.find('<', i), doc.size());
      const std::string text = doc.substr(i, next - i);
      if (!entities_ok(text)) return fail("bad entity in text");
      for (char ch : text)
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
          return fail("control character in text");
      if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos)
        return fail("text outside the root element");
      i = next;
      continue;
    }
    if (doc.compare(i, 5, "<?xml") == 0) {
      if (i != 0) return fail("XML declaration not at the start");
      const std::size_t end = doc.find("?>", i);
      if (end == std::string::npos) return fail("unterminated declaration");
      i = end + 2;
      continue;
    }
    if (doc.compare(i, 4, "<!--") == 0) {
      const std::size_t end = doc.find("-->", i);
      if (end == std::string::npos) return fail("unterminated comment");
      i = end + 3;
      continue;
    }
    if (doc.compare(i, 2, "</") == 0) {
      std::size_t j = i + 2;
      while (j < doc.size() && is_name_char(doc[j])) ++j;
      const std::string name = doc.substr(i + 2, j - i - 2);
      if (j >= doc.size() || doc[j] != '>') return fail("malformed end tag");
      if (open.empty() || open.back() != name)
        return fail("end tag </" + name + "> does not match");
      open.pop_back();
      i = j + 1;
      continue;
    }
    std::size_t j = i + 1;
    while (j < doc.size() && is_name_char(doc[j])) ++j;
    const std::string name = doc.substr(i + 1, j - i - 1);
    if (name.empty()) return fail("'<' not starting a tag");
    std::vector<std::string> attrs;
    for (;;) {
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) ++j;
      if (j >= doc.size()) return fail("unterminated tag");
      if (doc[j] == '>' || doc.compare(j, 2, "/>") == 0) break;
      const std::size_t a = j;
      while (j < doc.size() && is_name_char(doc[j])) ++j;
      const std::string attr = doc.substr(a, j - a);
      if (attr.empty() || j + 1 >= doc.size() || doc[j] != '=' || doc[j + 1] != '"')
        return fail("malformed attribute");
      if (std::find(attrs.begin(), attrs.end(), attr) != attrs.end())
        return fail("duplicate attribute " + attr);
      attrs.push_back(attr);
      const std::size_t close = doc.find('"', j + 2);
      if (close == std::string::npos) return fail("unterminated attribute value");
      const std::string value = doc.substr(j + 2, close - j - 2);
      if (value.find('<') != std::string::npos || !entities_ok(value))
        return fail("bad attribute value");
      j = close + 1;
    }
    if (open.empty() && ++roots > 1) return fail("second root element");
    if (doc[j] == '>') {
      open.push_back(name);
      i = j + 1;
    } else {
      if (open.empty() && name != "svg") return fail("root is not svg");
      i = j + 2;
    }
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "unclosed <" << open.back() << ">";
  if (roots != 1) return ::testing::AssertionFailure() << "no root element";
  return ::testing::AssertionSuccess();
}

// xmllint's verdict as well, when it is installed (it is not everywhere).
::testing::AssertionResult xmllint_ok(const std::string& doc) {
  if (!std::filesystem::exists("/usr/bin/xmllint")) return ::testing::AssertionSuccess();
  const std::string path =
      ::testing::TempDir() + "svg_chart_" + std::to_string(::getpid()) + ".svg";
  { std::ofstream(path, std::ios::binary) << doc; }
  const int rc = std::system(("/usr/bin/xmllint --noout '" + path + "' 2>&1").c_str());
  std::remove(path.c_str());
  if (rc == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "xmllint rejected the document (" << rc << ")";
}

// Neither spelling of a non-finite number may reach the document (test labels avoid both).
::testing::AssertionResult all_finite(const std::string& doc) {
  std::string lower = doc;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (const char* bad : {"nan", "inf"}) {
    const std::size_t at = lower.find(bad);
    if (at != std::string::npos)
      return ::testing::AssertionFailure() << "'" << bad << "' in: "
                                           << doc.substr(at > 80 ? at - 80 : 0, 160);
  }
  return ::testing::AssertionSuccess();
}

void expect_valid(const std::string& doc) {
  EXPECT_TRUE(well_formed(doc));
  EXPECT_TRUE(xmllint_ok(doc));
  EXPECT_TRUE(all_finite(doc));
  EXPECT_EQ(doc.compare(0, 5, "<?xml"), 0);
  EXPECT_NE(doc.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(doc.find(" width=\""), std::string::npos);
  EXPECT_NE(doc.find(" height=\""), std::string::npos);
  EXPECT_NE(doc.find(" viewBox=\"0 0 "), std::string::npos);
  EXPECT_EQ(doc.substr(doc.size() - 7), "</svg>\n");
}

// Values of one numeric attribute (e.g. cy) over the whole document.
std::vector<double> attr_values(const std::string& doc, const std::string& attr) {
  std::vector<double> out;
  const std::string key = " " + attr + "=\"";
  for (std::size_t pos = doc.find(key); pos != std::string::npos; pos = doc.find(key, pos + 1))
    out.push_back(std::strtod(doc.c_str() + pos + key.size(), nullptr));
  return out;
}

bool has_text(const std::string& doc, const std::string& escaped) {
  return doc.find(">" + escaped + "</text>") != std::string::npos;
}

LineChart bandwidth_chart() {
  LineChart c;
  c.title = "Bandwidth vs message size";
  c.x_label = "message size [bytes]";
  c.y_label = "bandwidth [GB/s]";
  c.log_x = true;
  const std::vector<double> sizes = {4096, 16384, 65536, 262144, 1048576, 4194304};
  c.series.push_back({"ring", sizes, {1.5, 4.8, 11.0, 17.9, 21.2, 22.4}});
  c.series.push_back({"tree", sizes, {2.1, 6.9, 13.5, 19.8, 23.0, 23.7}});
  c.series.push_back({"direct", sizes, {0.9, 3.1, 8.4, 14.0, 18.3, 20.1}});
  c.h_lines.push_back({25.0, "link bound 25 GB/s"});
  return c;
}

HeatMap utilization_map(int rows, int cols) {
  HeatMap h;
  h.title = "Link utilization";
  h.rows = rows;
  h.cols = cols;
  h.value_label = "link utilization";
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      h.values.push_back(static_cast<double>((r * 7 + c * 3) % 10) / 9.0);
  return h;
}

// ---------------------------------------------------------------------------------------------

TEST(SvgLineChart, StandaloneWellFormedDocument) {
  expect_valid(render_line_chart(bandwidth_chart()));
}

TEST(SvgLineChart, TitleAxisLabelsAndLegendAreEscaped) {
  LineChart c;
  c.title = "Latency <p99> & \"tail\"";
  c.x_label = "load 'offered' <%>";
  c.y_label = "cycles & more";
  c.series.push_back({"A&B <fast>", {1, 2, 3}, {10, 20, 30}});
  c.h_lines.push_back({25, "bound <25>"});
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_TRUE(has_text(doc, "Latency &lt;p99&gt; &amp; &quot;tail&quot;"));
  EXPECT_NE(doc.find("<title>Latency &lt;p99&gt; &amp; &quot;tail&quot;</title>"),
            std::string::npos);
  EXPECT_TRUE(has_text(doc, "load &apos;offered&apos; &lt;%&gt;"));
  EXPECT_TRUE(has_text(doc, "cycles &amp; more"));
  EXPECT_TRUE(has_text(doc, "A&amp;B &lt;fast&gt;"));
  EXPECT_TRUE(has_text(doc, "bound &lt;25&gt;"));
  EXPECT_EQ(doc.find("<p99>"), std::string::npos);
  EXPECT_EQ(doc.find("A&B"), std::string::npos);
}

TEST(SvgLineChart, ControlCharactersInLabelsAreDropped) {
  LineChart c;
  c.title = std::string("bell\x07 and nul") + '\0' + " end";
  c.series.push_back({"s\x01", {1}, {1}});
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_TRUE(has_text(doc, "bell and nul end"));
}

TEST(SvgLineChart, OneLinePerSeriesAndOneMarkerPerFinitePoint) {
  LineChart c;
  c.title = "markers";
  c.series.push_back({"a", {1, 2, 3, 4}, {1, 2, 3, 4}});
  c.series.push_back({"b", {1, 2, 3, 4, 5}, {2, kNaN, 3, kInf, 1}});   // 3 finite points
  c.series.push_back({"c", {1, kNaN, 3}, {5, 5, -kInf}});              // 1 finite point
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"series-line\""), 3u);
  EXPECT_EQ(count(doc, "class=\"marker\""), 4u + 3u + 1u);
  // The gap at the NaN breaks the line: series b has two subpaths.
  const std::size_t b = doc.find("class=\"series-line\"", doc.find("class=\"series-line\"") + 1);
  const std::string b_path = doc.substr(b, doc.find("/>", b) - b);
  EXPECT_EQ(count(b_path, "M"), 3u);  // M at 1, 3 and 5: each point after a gap starts anew
  EXPECT_TRUE(has_text(doc, "a"));
  EXPECT_TRUE(has_text(doc, "b"));
  EXPECT_TRUE(has_text(doc, "c"));
}

TEST(SvgLineChart, SeriesGetDistinctPaletteColours) {
  LineChart c;
  for (int i = 0; i < 8; ++i) c.series.push_back({"s" + std::to_string(i), {1, 2}, {1, 2}});
  const std::string doc = render_line_chart(c);
  std::vector<std::string> colours;
  for (std::size_t pos = doc.find("class=\"series-line\""); pos != std::string::npos;
       pos = doc.find("class=\"series-line\"", pos + 1)) {
    const std::size_t s = doc.find("stroke=\"", pos) + 8;
    colours.push_back(doc.substr(s, doc.find('"', s) - s));
  }
  ASSERT_EQ(colours.size(), 8u);
  std::sort(colours.begin(), colours.end());
  EXPECT_EQ(std::unique(colours.begin(), colours.end()), colours.end());
}

TEST(SvgLineChart, LinearTicksAreNiceRoundValues) {
  LineChart c;
  c.series.push_back({"s", {0, 1000}, {3, 97}});
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  for (const char* t : {"0", "200", "400", "600", "800", "1000", "20", "40", "60", "80", "100"})
    EXPECT_TRUE(has_text(doc, t)) << t;
  EXPECT_FALSE(has_text(doc, "97"));
  // Fractional steps get just enough decimals.
  LineChart f;
  f.series.push_back({"s", {0, 1}, {0.1, 0.35}});
  const std::string fdoc = render_line_chart(f);
  for (const char* t : {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "0.10", "0.15", "0.35"})
    EXPECT_TRUE(has_text(fdoc, t)) << t;
}

TEST(SvgLineChart, Log2AxisHasPowerOfTwoTicksWithBinarySuffixes) {
  const std::string doc = render_line_chart(bandwidth_chart());
  for (const char* t : {"4K", "16K", "64K", "256K", "1M", "4M"}) EXPECT_TRUE(has_text(doc, t)) << t;
  EXPECT_FALSE(has_text(doc, "4096"));
  LineChart wide;
  wide.log_x = true;
  wide.series.push_back({"s", {1, 1024.0 * 1024 * 1024 * 16}, {1, 2}});
  const std::string wdoc = render_line_chart(wide);
  expect_valid(wdoc);
  for (const char* t : {"1", "32", "1K", "1M", "1G", "32G"}) EXPECT_TRUE(has_text(wdoc, t)) << t;
  EXPECT_LE(count(wdoc, "</text>"), 40u);  // ticks thinned, not one per power of two
}

TEST(SvgLineChart, LogAxesSkipNonPositivePoints) {
  LineChart c;
  c.log_x = true;
  c.log_y = true;
  c.series.push_back({"s", {-1, 0, 2, 4, 8, 16}, {5, 5, 0, 10, 100, 1000}});
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"marker\""), 3u);
  for (const char* t : {"10", "100", "1000"}) EXPECT_TRUE(has_text(doc, t)) << t;
}

TEST(SvgLineChart, LogYNarrowRangeAddsTwoAndFiveTicks) {
  LineChart c;
  c.log_y = true;
  c.series.push_back({"s", {1, 2}, {120, 800}});
  const std::string doc = render_line_chart(c);
  for (const char* t : {"100", "200", "500", "1000"}) EXPECT_TRUE(has_text(doc, t)) << t;
}

TEST(SvgLineChart, YMaxClipsAtTheTopEdgeAndMarksClippedPoints) {
  LineChart c;
  c.title = "Latency vs load";
  c.y_max = 500;
  c.series.push_back({"adaptive", {0.1, 0.3, 0.5, 0.7, 0.9}, {100, 120, 180, 2000, 1e6}});
  c.h_lines.push_back({800, "above the cap"});  // out of range: omitted
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"marker\""), 3u);
  EXPECT_EQ(count(doc, "class=\"marker clipped\""), 2u);
  EXPECT_NE(doc.find("above y max"), std::string::npos);  // legend explains the triangles
  EXPECT_TRUE(has_text(doc, "500"));
  EXPECT_FALSE(has_text(doc, "600"));
  EXPECT_FALSE(has_text(doc, "1000000"));
  EXPECT_EQ(count(doc, "class=\"h-line\""), 0u);
  // No data point above the plot's top edge (y = 48).
  for (double cy : attr_values(doc, "cy")) EXPECT_GE(cy, 48.0 - 1e-9);
  // Tooltips keep the true value.
  EXPECT_NE(doc.find("adaptive: 0.9, 1e+06"), std::string::npos);
}

TEST(SvgLineChart, HorizontalReferenceLinesAreDashedAndLabelled) {
  LineChart c = bandwidth_chart();
  c.h_lines.push_back({12.5, "half bound"});
  const std::string doc = render_line_chart(c);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"h-line\""), 2u);
  EXPECT_EQ(count(doc, "stroke-dasharray=\"6,4\""), 2u);
  EXPECT_TRUE(has_text(doc, "link bound 25 GB/s"));
  EXPECT_TRUE(has_text(doc, "half bound"));
  // The bound lies above all data but still inside the axis.
  EXPECT_TRUE(has_text(doc, "25"));
}

TEST(SvgLineChart, EdgeCasesStayWellFormedAndFinite) {
  std::vector<std::pair<std::string, LineChart>> cases;
  const auto add = [&](const std::string& name, const LineChart& c) { cases.push_back({name, c}); };
  add("empty", LineChart{});
  LineChart c;
  c.series.push_back({"one", {3}, {7}});
  add("one point", c);
  c = {};
  c.series.push_back({"flat", {1, 2, 3}, {5, 5, 5}});
  add("flat", c);
  c = {};
  c.series.push_back({"zero", {0, 0, 0}, {0, 0, 0}});
  add("all zero", c);
  c = {};
  c.series.push_back({"x0", {2, 2}, {1, 3}});
  add("zero width x", c);
  c.log_x = true;
  add("zero width log x", c);
  c = {};
  c.series.push_back({"bad", {kNaN, kInf, -kInf}, {1, 2, 3}});
  c.series.push_back({"empty", {}, {}});
  add("no finite points", c);
  c = {};
  c.log_x = c.log_y = true;
  c.series.push_back({"neg", {-1, 0, 4}, {2, 3, -4}});
  add("log all non-positive", c);
  c = {};
  c.series.push_back({"mismatch", {1, 2, 3, 4}, {1, 2}});
  add("length mismatch", c);
  c = {};
  c.y_max = kNaN;
  c.series.push_back({"s", {1, 2}, {1, 2}});
  add("y_max NaN", c);
  c.y_max = 0.5;
  add("all above y_max", c);
  c.y_max = -3;
  add("negative y_max", c);
  c.log_y = true;
  add("log y with negative y_max", c);
  c = {};
  c.h_lines = {{kNaN, "n"}, {kInf, "i"}, {3, "three"}};
  add("only h_lines", c);
  c = {};
  c.series.push_back({"huge", {-1.7e308, 1.7e308}, {-1.7e308, 1.7e308}});
  add("huge", c);
  c = {};
  c.series.push_back({"tiny", {0, 4.9e-324, 1e-320}, {1e-320, 0, 4.9e-324}});
  add("denormal", c);
  c.log_x = c.log_y = true;
  add("denormal log", c);
  c = {};
  c.series.push_back({"offset", {1e15, 1e15 + 1}, {-1e15, -1e15 + 0.5}});
  add("large offset small span", c);
  c = {};
  for (int i = 0; i < 20; ++i)
    c.series.push_back({"s" + std::to_string(i), {1, 2}, {static_cast<double>(i), 1}});
  add("many series", c);
  for (const auto& [name, chart] : cases) {
    SCOPED_TRACE(name);
    expect_valid(render_line_chart(chart));
  }
}

TEST(SvgLineChart, SinglePointAndFlatSeriesAreStillDrawn) {
  LineChart c;
  c.series.push_back({"one", {3}, {7}});
  c.series.push_back({"flat", {1, 2, 3}, {7, 7, 7}});
  const std::string doc = render_line_chart(c);
  EXPECT_EQ(count(doc, "class=\"series-line\""), 2u);
  EXPECT_EQ(count(doc, "class=\"marker\""), 4u);
  EXPECT_TRUE(has_text(doc, "7.0"));  // flat 7 gets a range around it with 7 as a tick
}

TEST(SvgLineChart, DeterministicOutput) {
  const LineChart c = bandwidth_chart();
  EXPECT_EQ(render_line_chart(c), render_line_chart(c));
}

TEST(SvgLineChart, IndependentOfTheNumericLocale) {
  const std::string before = render_line_chart(bandwidth_chart());
  const char* const locales[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "C.UTF-8"};
  std::string used;
  for (const char* l : locales) {
    if (std::setlocale(LC_NUMERIC, l) != nullptr) {
      used = l;
      break;
    }
  }
  const std::string after = render_line_chart(bandwidth_chart());
  std::setlocale(LC_NUMERIC, "C");
  EXPECT_EQ(before, after) << "locale " << used;
}

// ---------------------------------------------------------------------------------------------

TEST(SvgHeatMap, CellsColourBarAndLabels) {
  HeatMap h = utilization_map(8, 8);
  for (int i = 0; i < 8; ++i) h.row_labels.push_back("r<" + std::to_string(i) + ">");
  const std::string doc = render_heat_map(h);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"cell\""), 64u);
  EXPECT_EQ(count(doc, "class=\"colour-bar\""), 1u);
  EXPECT_NE(doc.find("<linearGradient id=\"hx-viridis\""), std::string::npos);
  EXPECT_NE(doc.find("fill=\"url(#hx-viridis)\""), std::string::npos);
  EXPECT_TRUE(has_text(doc, "Link utilization"));
  EXPECT_TRUE(has_text(doc, "link utilization"));
  EXPECT_TRUE(has_text(doc, "r&lt;3&gt;"));
  EXPECT_TRUE(has_text(doc, "7"));  // column index labels by default
  for (const char* t : {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"})
    EXPECT_TRUE(has_text(doc, t)) << t;
}

TEST(SvgHeatMap, ColoursFollowTheScaleAndClampOutsideIt) {
  HeatMap h;
  h.rows = 1;
  h.cols = 4;
  h.v_min = 10;
  h.v_max = 20;
  h.values = {10, 20, -5, 99};
  const std::string doc = render_heat_map(h);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "fill=\"#440154\""), 2u);  // 10 and -5 (clamped), viridis' dark end
  EXPECT_EQ(count(doc, "fill=\"#FDE725\""), 2u);  // 20 and 99 (clamped), the light end
}

TEST(SvgHeatMap, MissingValuesAreGreyWithANoDataKey) {
  HeatMap h = utilization_map(3, 3);
  h.values[4] = kNaN;
  h.values.resize(8);  // the last cell has no value at all
  const std::string doc = render_heat_map(h);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"cell\""), 9u);
  EXPECT_EQ(count(doc, "fill=\"#BBBBBB\""), 2u + 1u);  // two cells and the key swatch
  EXPECT_TRUE(has_text(doc, "no data"));
}

TEST(SvgHeatMap, EdgeCasesStayWellFormedAndFinite) {
  std::vector<std::pair<std::string, HeatMap>> cases;
  cases.push_back({"empty", HeatMap{}});
  HeatMap h = utilization_map(2, 2);
  h.v_min = h.v_max = 0.5;
  cases.push_back({"zero range", h});
  h.v_min = 1;
  h.v_max = 0;
  cases.push_back({"reversed range", h});
  h.v_min = kNaN;
  h.v_max = kInf;
  cases.push_back({"non-finite range", h});
  h.values = {kNaN, kNaN, kInf, -kInf};
  cases.push_back({"non-finite range and values", h});
  h = utilization_map(-3, 4);
  cases.push_back({"negative rows", h});
  h = utilization_map(1, 300);
  h.col_labels = {"a long column label"};
  cases.push_back({"wide", h});
  h = utilization_map(200, 2);
  cases.push_back({"tall", h});
  h = utilization_map(2, 2);
  h.values.push_back(3);  // more values than cells
  h.v_min = -1e308;
  h.v_max = 1e308;
  cases.push_back({"huge range", h});
  for (const auto& [name, map] : cases) {
    SCOPED_TRACE(name);
    const std::string doc = render_heat_map(map);
    expect_valid(doc);
    EXPECT_EQ(count(doc, "class=\"cell\""),
              static_cast<std::size_t>(std::max(map.rows, 0) * std::max(map.cols, 0)));
    EXPECT_EQ(count(doc, "class=\"colour-bar\""), 1u);
  }
}

TEST(SvgHeatMap, DeterministicOutput) {
  const HeatMap h = utilization_map(8, 8);
  EXPECT_EQ(render_heat_map(h), render_heat_map(h));
}

// ---------------------------------------------------------------------------------------------

TEST(SvgBarChart, OneBarPerFiniteValueLabelledAndWellFormed) {
  BarChart c;
  c.title = "alltoall <1M> & co";
  c.y_label = "busbw (GB/s)";
  c.bars = {{"hx2mesh-64", 26.5, "13% inj"}, {"torus-64", 7.97, ""}, {"broken", kNaN, ""},
            {"negative", -1, ""}, {"huge", kInf, ""}};
  c.h_lines.push_back({50, "link"});
  const std::string doc = render_bar_chart(c);
  expect_valid(doc);
  EXPECT_EQ(count(doc, "class=\"bar\""), 2u);
  EXPECT_EQ(count(doc, "class=\"bar-label\""), 5u);
  EXPECT_EQ(count(doc, ">n/a</text>"), 3u);
  EXPECT_EQ(count(doc, "class=\"h-line\""), 1u);
  EXPECT_NE(doc.find(">hx2mesh-64</text>"), std::string::npos);
  EXPECT_NE(doc.find("13% inj"), std::string::npos);
  EXPECT_NE(doc.find("alltoall &lt;1M&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(render_bar_chart(c), doc);
  expect_valid(render_bar_chart(BarChart{}));
}

}  // namespace
}  // namespace hxemu::tb
