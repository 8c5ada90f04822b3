// The topology picture (tb/report/topology_svg.h): for hx2mesh-64, hx4mesh-64, fattree-64 and
// md-ring4-fc4-sw4 (and the other families) every router, switch and connection is drawn exactly
// once, the document is deterministic and well-formed, and -- checked as an image -- rsvg-convert
// rasterises it to a PNG of the document's size that shows the dark network panel, its blocks and
// links, and a hot link in viridis yellow only where one was given.
#include "tb/report/topology_svg.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "png_check.h"
#include "sysc/system/system_config.h"
#include "tb/traffic_system.h"

namespace hxemu::tb {
namespace {

using test::Image;
using test::read_png;

sysc::SystemConfig shipped(const std::string& name) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json");
}

std::size_t count(const std::string& doc, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = doc.find(needle); at != std::string::npos; at = doc.find(needle, at + 1)) ++n;
  return n;
}

// Start and end tags balance, attribute values are quoted, no '<' inside them.
::testing::AssertionResult tags_balance(const std::string& doc) {
  std::vector<std::string> open;
  for (std::size_t i = doc.find('<'); i != std::string::npos; i = doc.find('<', i + 1)) {
    const std::size_t end = doc.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << i;
    const std::string tag = doc.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "'<' inside a tag at " << i;
    if (count(tag, "\"") % 2 != 0) return ::testing::AssertionFailure() << "unbalanced quotes: " << tag;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return ::testing::AssertionFailure() << "</" << name << "> closes nothing";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> never closed";
  return ::testing::AssertionSuccess();
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "topology_" + std::to_string(::getpid()) + "_" + name;
}

// xmllint's verdict as well, when it is installed.
::testing::AssertionResult xmllint_ok(const std::string& svg_path) {
  if (!std::filesystem::exists("/usr/bin/xmllint")) return ::testing::AssertionSuccess();
  if (std::system(("/usr/bin/xmllint --noout '" + svg_path + "' 2>&1").c_str()) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "xmllint rejected " << svg_path;
}

double attr(const std::string& doc, const std::string& element, const std::string& name) {
  const std::size_t at = doc.find(element);
  if (at == std::string::npos) return -1;
  const std::size_t a = doc.find(" " + name + "=\"", at);
  return a == std::string::npos ? -1 : std::atof(doc.c_str() + a + name.size() + 3);
}

struct Raster {
  Image img;
  std::size_t png_bytes = 0;
};

// The document through rsvg-convert (librsvg2-bin, scripts/install-deps.sh), decoded.
Raster rasterise(const std::string& doc, const std::string& name) {
  Raster r;
  const std::string svg = temp_path(name + ".svg"), png = temp_path(name + ".png");
  { std::ofstream(svg, std::ios::binary) << doc; }
  EXPECT_TRUE(xmllint_ok(svg));
  const int rc = std::system(("rsvg-convert '" + svg + "' -o '" + png + "' 2>&1").c_str());
  EXPECT_EQ(rc, 0) << "rsvg-convert failed (is librsvg2-bin installed? scripts/install-deps.sh)";
  std::ifstream in(png, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  r.png_bytes = bytes.size();
  r.img = read_png(bytes);
  std::remove(svg.c_str());
  std::remove(png.c_str());
  return r;
}

// Pixels of the network panel (<rect class="network">), as an image region.
struct Region {
  int x0, y0, x1, y1;
};
Region panel(const std::string& doc) {
  const double x = attr(doc, "class=\"network\"", "x"), y = attr(doc, "class=\"network\"", "y");
  const double w = attr(doc, "class=\"network\"", "width"), h = attr(doc, "class=\"network\"", "height");
  // A few pixels in from the rounded corners.
  return {static_cast<int>(x) + 4, static_cast<int>(y) + 4, static_cast<int>(x + w) - 4, static_cast<int>(y + h) - 4};
}

template <class Pred>
std::size_t pixels(const Image& img, const Region& r, Pred&& p) {
  std::size_t n = 0;
  for (int y = std::max(0, r.y0); y < std::min(img.height, r.y1); ++y) {
    for (int x = std::max(0, r.x0); x < std::min(img.width, r.x1); ++x) n += p(img.at(x, y)) ? 1 : 0;
  }
  return n;
}

bool near(const std::array<std::uint8_t, 4>& p, int r, int g, int b, int tol) {
  return std::abs(p[0] - r) <= tol && std::abs(p[1] - g) <= tol && std::abs(p[2] - b) <= tol;
}
// Viridis' top end (#FDE725) and what antialiasing leaves of it on the dark panel.
// (The switches' amber, #E0A23A, is redder: its green is under 0.75 of its red.)
bool hot(const std::array<std::uint8_t, 4>& p) { return p[0] > 150 && p[1] > 0.85 * p[0] && p[2] < 90; }

struct Expect {
  int routers = 0, switches = 0, endpoints = 0;
};

Expect expected(const sysc::System& sys) {
  Expect e;
  const auto topo = sys.config().topology;
  const bool switched = topo == sysc::Topology::kFatTree || topo == sysc::Topology::kDragonfly;
  for (int b = 0; b < sys.net().blocks(); ++b) {
    if (sys.block_kind(b) == sysc::System::BlockKind::kSwitch) ++e.switches;
  }
  // A multidim NPU's router is a switch block with the multidim route computer: drawn as a router.
  e.routers = switched ? 0 : sys.nodes();
  if (topo == sysc::Topology::kMultidim) e.switches -= sys.nodes();
  e.endpoints = switched ? sys.nodes() * sys.rails() : 0;
  return e;
}

// Every block and every connection drawn once, with its class.
void check_structure(const sysc::System& sys, const std::string& doc, const std::string& name) {
  const Expect e = expected(sys);
  EXPECT_EQ(count(doc, "<circle class=\"router\""), static_cast<std::size_t>(e.routers)) << name;
  EXPECT_EQ(count(doc, "<rect class=\"switch\""), static_cast<std::size_t>(e.switches)) << name;
  EXPECT_EQ(count(doc, "<rect class=\"endpoint\""), static_cast<std::size_t>(e.endpoints)) << name;
  const auto per = sys.connections_per_class();
  EXPECT_EQ(count(doc, "class=\"link board\""), static_cast<std::size_t>(per[0])) << name;
  EXPECT_EQ(count(doc, "class=\"link cable\""), static_cast<std::size_t>(per[1])) << name;
  EXPECT_EQ(count(doc, "class=\"link terminal\""), static_cast<std::size_t>(per[2])) << name;
  // One path per connection: the a->b ids 0, 2, 4, ... each exactly once.
  std::multiset<int> ids;
  const std::regex re("data-link=\"([0-9]+)\"");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), re); it != std::sregex_iterator(); ++it) {
    ids.insert(std::stoi((*it)[1]));
  }
  std::multiset<int> want;
  for (int l = 0; l < sys.net().links(); l += 2) want.insert(l);
  EXPECT_EQ(ids, want) << name;
  EXPECT_TRUE(tags_balance(doc)) << name;
  EXPECT_EQ(doc.find("nan"), std::string::npos) << name;
}

class TopologyPicture : public ::testing::TestWithParam<std::string> {};

TEST_P(TopologyPicture, DrawsEveryBlockAndLinkOnceDeterministically) {
  const TrafficSystem ts(shipped(GetParam()));
  const auto& sys = ts.sys();
  const std::string plain = render_topology(sys, {}, GetParam());
  check_structure(sys, plain, GetParam());
  EXPECT_EQ(plain, render_topology(sys, {}, GetParam())) << "not deterministic";
  std::vector<double> u(static_cast<std::size_t>(sys.net().links()));
  for (std::size_t l = 0; l < u.size(); ++l) u[l] = static_cast<double>(l % 11) / 10;
  const std::string coloured = render_topology(sys, u, GetParam());
  check_structure(sys, coloured, GetParam() + " coloured");
  EXPECT_EQ(coloured, render_topology(sys, u, GetParam()));
  EXPECT_EQ(count(coloured, "class=\"colour-bar\""), 1u);
  EXPECT_EQ(count(plain, "class=\"colour-bar\""), 0u);
}

TEST_P(TopologyPicture, RastersToAnImageShowingTheNetworkAndItsHotLink) {
  const TrafficSystem ts(shipped(GetParam()));
  const auto& sys = ts.sys();
  const sysc::Network& net = sys.net();
  // Every link lightly used, one cable (or, without cables, one on-board link) at full rate.
  int hot_link = -1;
  for (auto cls : {sysc::LinkClass::kCable, sysc::LinkClass::kBoard}) {
    for (int l = 0; l < net.links() && hot_link < 0; l += 2) {
      if (net.link_info(l).cls == cls) hot_link = l;
    }
  }
  ASSERT_GE(hot_link, 0);
  std::vector<double> cool(static_cast<std::size_t>(net.links()), 0.05), one_hot = cool;
  one_hot[hot_link] = 1.0;
  for (const auto* u : {&cool, &one_hot}) {
    const std::string doc = render_topology(sys, *u, GetParam());
    const Raster r = rasterise(doc, GetParam() + (u == &cool ? "-cool" : "-hot"));
    ASSERT_EQ(r.img.error, "") << GetParam();
    EXPECT_GT(r.png_bytes, 10000u) << GetParam();
    EXPECT_EQ(r.img.width, static_cast<int>(attr(doc, "<svg ", "width")));
    EXPECT_EQ(r.img.height, static_cast<int>(attr(doc, "<svg ", "height")));
    const Region p = panel(doc);
    const double area = static_cast<double>(p.x1 - p.x0) * (p.y1 - p.y0);
    // Not blank: the dark panel is there, and plenty of it is covered by what is drawn on it.
    const std::size_t dark = pixels(r.img, p, [](const auto& c) { return near(c, 0x17, 0x17, 0x1C, 3); });
    const std::size_t drawn = pixels(r.img, p, [](const auto& c) { return !near(c, 0x17, 0x17, 0x1C, 3); });
    EXPECT_GT(static_cast<double>(dark), 0.2 * area) << GetParam();
    EXPECT_GT(static_cast<double>(drawn), 0.05 * area) << GetParam();
    // Switches (amber) where the topology has them; routers and endpoints (light grey).
    const std::size_t amber = pixels(r.img, p, [](const auto& c) { return near(c, 0xE0, 0xA2, 0x3A, 12); });
    const std::size_t grey = pixels(r.img, p, [](const auto& c) { return near(c, 0xC9, 0xCB, 0xD6, 12); });
    const Expect e = expected(sys);
    if (e.switches > 0) {
      EXPECT_GT(amber, static_cast<std::size_t>(e.switches) * 10) << GetParam();
    }
    if (e.routers + e.endpoints > 0) {
      EXPECT_GT(grey, static_cast<std::size_t>(e.routers + e.endpoints) * 4) << GetParam();
    }
    // The hot link shows in viridis yellow; at 5% nothing on the panel is that bright.
    const std::size_t yellow = pixels(r.img, p, hot);
    if (u == &cool) {
      EXPECT_EQ(yellow, 0u) << GetParam();
    } else {
      EXPECT_GT(yellow, 20u) << GetParam();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, TopologyPicture,
                         ::testing::Values("hx2mesh-64", "hx4mesh-64", "fattree-64", "md-ring4-fc4-sw4", "torus-64",
                                           "hyperx-64", "dragonfly-64", "md-ring4-fc4-ring4-sw2", "mesh-8x8"),
                         [](const auto& info) {
                           std::string s = info.param;
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

// The configuration overload builds a System of its own with the run's rails: one plane per NIC on
// the fat tree and the Dragonfly, four NIC stubs per router on the HammingMesh.
TEST(TopologyPictureRails, PlanesAndNicsFollowTheRails) {
  for (const std::string name : {"dragonfly-64", "fattree-64-4plane", "hx2mesh-16", "md-ring4-fc4-sw4"}) {
    const auto cfg = shipped(name);
    const std::string doc = render_topology(cfg, 4, {}, name);
    const bool switched = cfg.topology == sysc::Topology::kFatTree || cfg.topology == sysc::Topology::kDragonfly;
    const std::size_t rails = switched ? static_cast<std::size_t>(cfg.planes) : 4;
    EXPECT_EQ(count(doc, "class=\"link terminal\""), static_cast<std::size_t>(cfg.nodes()) * rails) << name;
    EXPECT_TRUE(tags_balance(doc)) << name;
  }
}

TEST(TopologyPictureRails, FiguresForAnotherSystemAreRefused) {
  const auto cfg = shipped("hx2mesh-16");
  EXPECT_THROW((void)render_topology(cfg, 4, std::vector<double>(3, 0.5), "x"), std::logic_error);
}

}  // namespace
}  // namespace hxemu::tb
