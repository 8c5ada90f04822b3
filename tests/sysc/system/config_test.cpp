// Bad configurations give an error naming the field and the allowed values.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sysc/system/system_config.h"
#include "sysc/util/input_file.h"
#include "tests/util/system_test_util.h"

namespace hxemu::test {
namespace {

std::string error_of(const std::string& json) {
  try {
    sysc::parse_system_config(json, "test.json");
  } catch (const sysc::ConfigError& e) {
    return e.what();
  }
  return "";
}

const char* kGood = R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2},
                        "grid": {"rows": 2, "cols": 2}, "switch": {"radix": 4}})";

TEST(Config, GoodConfigParses) {
  EXPECT_EQ(error_of(kGood), "");
  const auto c = sysc::parse_system_config(kGood, "x");
  EXPECT_EQ(c.nodes(), 16);
  EXPECT_EQ(c.classes(), 3);
}

TEST(Config, NicCrcIsABooleanWrittenBackWhenOn) {
  const auto off = sysc::parse_system_config(kGood, "x");
  EXPECT_FALSE(off.nic_crc);
  EXPECT_EQ(off.json.find("nic_crc"), std::string::npos) << off.json;
  std::string on_json = kGood;
  on_json.insert(on_json.rfind('}'), R"(, "nic_crc": true)");
  const auto on = sysc::parse_system_config(on_json, "x");
  EXPECT_TRUE(on.nic_crc);
  EXPECT_NE(on.json.find("\"nic_crc\":true"), std::string::npos) << on.json;
  EXPECT_TRUE(sysc::parse_system_config(kGood, "x", {"nic_crc=true"}).nic_crc);
  for (const char* bad : {"3", "\"yes\"", "null", "1"}) {
    std::string j = kGood;
    j.insert(j.rfind('}'), std::string(", \"nic_crc\": ") + bad);
    const std::string err = error_of(j);
    EXPECT_NE(err.find("nic_crc"), std::string::npos) << bad << ": " << err;
    EXPECT_NE(err.find("true or false"), std::string::npos) << bad << ": " << err;
  }
  // A packet with CRC is at least head, data and trailer.
  std::string two = kGood;
  two.insert(two.rfind('}'), R"(, "nic_crc": true, "max_packet_flits": 2)");
  const std::string err = error_of(two);
  EXPECT_NE(err.find("max_packet_flits"), std::string::npos) << err;
  EXPECT_NE(err.find("nic_crc"), std::string::npos) << err;
  two.replace(two.find("\"max_packet_flits\": 2"), 21, "\"max_packet_flits\": 3");
  EXPECT_EQ(error_of(two), "");
}

struct BadCase {
  const char* json;
  const char* must_contain[2];
};

TEST(Config, BadConfigsNameTheFieldAndTheAllowedValues) {
  const BadCase cases[] = {
      {R"({"topology": "hxmesh", "board": {"rows": 0, "cols": 2}, "grid": {"rows": 2, "cols": 2}})",
       {"board.rows", "1..255"}},
      {R"({"topology": "hxmesh", "board": {"rows": -3, "cols": 2}, "grid": {"rows": 2, "cols": 2}})",
       {"board.rows", "got -3"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2}})",
       {"grid.cols", "required"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2, "depth": 3}})",
       {"grid.depth", "unknown key"}},
      {R"({"topology": "ring", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}})",
       {"topology", "hxmesh, torus, fattree, dragonfly"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "colour": 1})",
       {"colour", "unknown key"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "switch": {"radix": 6}})",
       {"switch.radix", "provides radix in"}},
      {R"({"topology": "fattree", "nodes": 200, "switch": {"radix": 8}})",
       {"switch.radix", "too small"}},
      {R"({"topology": "fattree", "nodes": 64, "switch": {"radix": 16, "up_ports": 9}})",
       {"switch.up_ports", "1..8"}},
      {R"({"topology": "fattree", "nodes": 64, "planes": 5, "switch": {"radix": 16}})",
       {"planes", "1..4"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "planes": 2})",
       {"planes", "only used by topologies fattree and dragonfly"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"routing": "valiant"}})",
       {"router.routing", "deterministic, adaptive"}},
      {R"({"topology": "torus", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"routing": "adaptive", "adaptive_margin": 0.3}})",
       {"router.adaptive_margin", "multiple of 1/8"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"adaptive_margin": 2}})",
       {"router.adaptive_margin", "0..1"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"vcs_per_class": 5}})",
       {"router.vcs_per_class", "vcs in {"}},   // 3 classes x 5 = 15 VCs: more than any variant built
      // router.class_vcs: one count per class, each 1..12, within a built variant, dynamic policy
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": [2, 2]}})",
       {"router.class_vcs", "has 2 entries; hxmesh with deterministic routing has 3 VC classes"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": [1, 0, 2]}})",
       {"router.class_vcs", "entry 1 is 0"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": 4}})",
       {"router.class_vcs", "array of VC counts"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": [6, 6, 1]}})",
       {"router.class_vcs", "13 VCs per port in all"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": [1, 4, 3], "vc_policy": "lane"}})",
       {"router.class_vcs", "needs router.vc_policy \"dynamic\""}},
      {R"({"topology": "torus", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"class_vcs": [2, 2], "routing": "adaptive"}})",
       {"router.class_vcs", "torus with adaptive routing has 3 VC classes"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1}, "router": {"buffer_depth": 99}})",
       {"router.buffer_depth", "1..32"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1}, "router": {"vc_policy": "fast"}})",
       {"router.vc_policy", "dynamic, lane"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1}, "flit_bits": 128})",
       {"flit_bits", "flit_bits=256"}},
      {R"({"topology": "torus", "board": {"rows": 1, "cols": 1}, "grid": {"rows": 1, "cols": 4}})",
       {"board.rows", "at least 2 rows"}},
      {R"({"topology": "hxmesh", "board": {"rows": "two", "cols": 2}, "grid": {"rows": 1, "cols": 1}})",
       {"board.rows", "integer"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1}, "links": {"cable_latency": -1}})",
       {"links.cable_latency", "0..1000"}},
      {R"({"topology": "fattree", "nodes": 64, "board": {"rows": 2, "cols": 2}})",
       {"board", "not used by topology fattree"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 1, "cols": 1}, "clock_ghz": 0})",
       {"clock_ghz", "number in"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2})",
       {"malformed JSON", "test.json"}},
      {R"([1, 2, 3])", {"(top level)", "object"}},
      // Dragonfly: shape, one global link per pair of groups, ports within the radix.
      {R"({"topology": "dragonfly", "switch": {"radix": 8}})", {"dragonfly", "is required"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2}, "switch": {"radix": 8}})",
       {"dragonfly.global_per_router", "required"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 1, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2}, "switch": {"radix": 8}})",
       {"dragonfly.groups", "2..255"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 10, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2}, "switch": {"radix": 8}})",
       {"dragonfly.groups", "at most routers_per_group x global_per_router + 1 = 9"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 3}, "switch": {"radix": 8}})",
       {"dragonfly.global_per_router", "power of two"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 4, "global_per_router": 2}, "switch": {"radix": 8}})",
       {"switch.radix", "4 + 3 + 2 = 9 ports, more than radix 8"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2, "ugal_threshold": 300}, "switch": {"radix": 8}})",
       {"dragonfly.ugal_threshold", "0..255"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2, "local": 1}, "switch": {"radix": 8}})",
       {"dragonfly.local", "unknown key"}},
      {R"({"topology": "dragonfly", "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2}, "planes": 8, "switch": {"radix": 8}})",
       {"planes", "1..4"}},
      {R"({"topology": "dragonfly", "nodes": 64, "dragonfly": {"groups": 8, "routers_per_group": 4, "terminals_per_router": 2, "global_per_router": 2}, "switch": {"radix": 8}})",
       {"nodes", "not used by topology dragonfly"}},
      {R"({"topology": "fattree", "nodes": 64, "dragonfly": {"groups": 8}})",
       {"dragonfly", "only used by topology dragonfly"}},
  };
  for (const auto& c : cases) {
    const std::string err = error_of(c.json);
    ASSERT_NE(err, "") << "accepted: " << c.json;
    for (const char* want : c.must_contain) {
      EXPECT_NE(err.find(want), std::string::npos) << "error \"" << err << "\" lacks \"" << want << "\"";
    }
  }
}

// router.class_vcs splits the VCs unevenly: class c takes the next counts[c] VCs, the variant is
// the smallest holding their sum, the tables the RTL reads follow, and the canonical JSON says so.
TEST(Config, ClassVcsSplitTheVcsUnevenly) {
  const auto c = sysc::load_system_config(config_path("hx2mesh-64"), {"router.class_vcs=[1, 4, 3]"});
  EXPECT_EQ(c.model_vcs(), 8);
  const auto p = c.vc_plan();
  EXPECT_EQ(p.vcs, 8);
  EXPECT_EQ(p.classes, 3);
  EXPECT_EQ(p.per_class, 0);   // uneven
  EXPECT_EQ(p.class_counts, (std::vector<int>{1, 4, 3}));
  EXPECT_EQ(p.vc_class, (std::vector<int>{0, 1, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(p.class_vcs[0], 0x01u);
  EXPECT_EQ(p.class_vcs[1], 0x1eu);
  EXPECT_EQ(p.class_vcs[2], 0xe0u);
  EXPECT_EQ(p.class_vcs[3], 0u);
  EXPECT_EQ(p.inject_vcs(), 0x01u);
  EXPECT_NE(c.json.find("\"class_vcs\":[1,4,3]"), std::string::npos) << c.json;
  EXPECT_EQ(c.json.find("vcs_per_class"), std::string::npos) << c.json;
  // An even split written out is the same plan as vcs_per_class (hx4mesh-64: 2 per class, and the
  // same three HammingMesh classes).
  const auto even = sysc::load_system_config(config_path("hx2mesh-64"), {"router.class_vcs=[2, 2, 2]"});
  const auto dflt = shipped("hx4mesh-64");
  EXPECT_EQ(even.vc_plan().vc_class, dflt.vc_plan().vc_class);
  EXPECT_EQ(even.vc_plan().class_vcs, dflt.vc_plan().class_vcs);
  EXPECT_EQ(even.vc_plan().per_class, 2);
  // The shipped hx2mesh-64 splits 12 VCs 1/7/4.
  EXPECT_EQ(shipped("hx2mesh-64").vc_plan().class_counts, (std::vector<int>{1, 7, 4}));
  EXPECT_EQ(shipped("hx2mesh-64").model_vcs(), 12);
  // The lane policy takes an even split.
  EXPECT_EQ(sysc::load_system_config(config_path("hx2mesh-64"),
                                     {"router.class_vcs=[3, 3, 3]", "router.vc_policy=lane"})
                .vc_plan().vc_allow[4],
            (1u << 1) | (1u << 4) | (1u << 7));
}

// A Dragonfly: nodes = g a p, classes = global links a route may take (2 minimal, 3 with UGAL),
// planes as the fat tree's, and the canonical JSON carries the shape.
// The default adaptive margin depends on where the choice is made: HammingMesh routers also choose
// at the front of the VC, so by default they never divert on arrival (1); torus routers choose on
// arrival only (0.5). The canonical JSON records the margin in use; a configured one wins.
TEST(Config, AdaptiveMarginDefaultsPerTopology) {
  const auto hm = sysc::load_system_config(config_path("hx2mesh-64"), {"router.routing=adaptive"});
  const auto to = sysc::load_system_config(config_path("torus-64"), {"router.routing=adaptive"});
  EXPECT_EQ(hm.adaptive_margin_eighths, 8);
  EXPECT_EQ(to.adaptive_margin_eighths, 4);
  EXPECT_NE(hm.json.find("\"adaptive_margin\":1.0"), std::string::npos) << hm.json;
  EXPECT_NE(to.json.find("\"adaptive_margin\":0.5"), std::string::npos) << to.json;
  EXPECT_EQ(sysc::load_system_config(config_path("torus-64"),
                                     {"router.routing=adaptive", "router.adaptive_margin=0.75"})
                .adaptive_margin_eighths,
            6);
}

TEST(Config, DragonflyShapeClassesAndCanonicalJson) {
  const auto c = shipped("dragonfly-64");
  EXPECT_EQ(c.topology, sysc::Topology::kDragonfly);
  EXPECT_EQ(c.nodes(), 64);
  EXPECT_EQ(c.planes, 4);
  EXPECT_EQ(c.classes(), 2);
  EXPECT_EQ(c.ugal_threshold, 2 * 32 / 2);   // default: half a class's buffering at a cable input
  EXPECT_NE(c.json.find("\"global_per_router\":2"), std::string::npos) << c.json;
  const auto ad = sysc::load_system_config(config_path("dragonfly-64"), {"router.routing=adaptive"});
  EXPECT_EQ(ad.classes(), 3);
  EXPECT_EQ(ad.model_vcs(), 6);
  EXPECT_EQ(shipped("dragonfly-1024").nodes(), 1024);
  // g = a h + 1 (every global port used) is the largest allowed.
  EXPECT_EQ(error_of(R"({"topology": "dragonfly", "dragonfly": {"groups": 9, "routers_per_group": 4,
      "terminals_per_router": 2, "global_per_router": 2}, "switch": {"radix": 8}})"), "");
}

TEST(Config, MissingFileIsAClearError) {
  try {
    sysc::load_system_config("/nonexistent/x.json");
    FAIL();
  } catch (const sysc::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json"), std::string::npos);
  }
}

std::string override_error(const std::string& set) {
  try {
    sysc::parse_system_config(kGood, "test.json", {set});
  } catch (const sysc::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, NonFiniteAndHugeNumbersNameTheFieldAndTheRange) {
  const std::pair<const char*, std::vector<std::string>> cases[] = {
      {"clock_ghz=1e400", {"clock_ghz", "0.001..100", "1e400"}},
      {"clock_ghz=-1e400", {"clock_ghz", "0.001..100"}},
      {"clock_ghz=nan", {"clock_ghz", "0.001..100"}},
      {"clock_ghz=inf", {"clock_ghz", "0.001..100"}},
      {"clock_ghz=1e-400", {"clock_ghz", "0.001..100"}},
      {"flit_bits=1e400", {"flit_bits", "32..4096"}},
      {"flit_bits=256.5", {"flit_bits", "integer"}},
      {"max_packet_flits=99999999999999999999999", {"max_packet_flits", "2..64"}},
      {"max_packet_flits=18446744073709551615", {"max_packet_flits", "2..64", "18446744073709551615"}},
      {"router.buffer_depth=4294967304", {"router.buffer_depth", "4294967304"}},
      {"links.cable_latency=-9223372036854775808", {"links.cable_latency", "0..1000"}},
  };
  for (const auto& [set, wants] : cases) {
    const std::string err = override_error(set);
    ASSERT_NE(err, "") << "accepted --set " << set;
    for (const auto& want : wants) {
      EXPECT_NE(err.find(want), std::string::npos) << "--set " << set << ": \"" << err << "\" lacks \"" << want << "\"";
    }
  }
  // In the file itself: the JSON library cannot hold 1e400; the error names the field.
  const std::string err = error_of(R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2},
      "grid": {"rows": 2, "cols": 2}, "links": {"board_latency": 1, "cable_latency": 1e400}})");
  EXPECT_NE(err.find("links.cable_latency"), std::string::npos) << err;
  EXPECT_NE(err.find("test.json"), std::string::npos) << err;
  const std::string top = error_of(R"({"topology": "hxmesh", "clock_ghz": -1e999})");
  EXPECT_NE(top.find("'clock_ghz'"), std::string::npos) << top;
}

TEST(Config, DevicesFoldersAndOversizedFilesAreRefused) {
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/zero", "not a regular file"},
      {"/tmp", "directory"},
      {"/nonexistent/x.json", "No such file"},
  };
  for (const auto& [path, want] : cases) {
    try {
      sysc::load_system_config(path);
      FAIL() << path;
    } catch (const sysc::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(sysc::read_input_file("/dev/zero", "x", 1024), sysc::InputFileError);
}

TEST(Config, EveryShippedConfigParses) {
  for (const char* name : {"hx2mesh-16", "hx2mesh-64", "hx4mesh-64", "hx4mesh-1024", "hx2mesh-1024",
                           "hx4mesh-16k", "torus-64", "fattree-64", "fattree-64-4plane", "mesh-8x8",
                           "hyperx-64", "hyperx-1024", "fattree-64-taper50", "fattree-64-taper75",
                           "dragonfly-64", "dragonfly-1024"}) {
    EXPECT_NO_THROW(shipped(name)) << name;
  }
}

}  // namespace
}  // namespace hxemu::test
