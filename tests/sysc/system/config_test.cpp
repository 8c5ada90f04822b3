// Bad configurations give an error naming the field and the allowed values.
#include <gtest/gtest.h>

#include "sysc/system/system_config.h"
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
       {"topology", "hxmesh, torus, fattree"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "colour": 1})",
       {"colour", "unknown key"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "switch": {"radix": 6}})",
       {"switch.radix", "provides radix in"}},
      {R"({"topology": "fattree", "nodes": 200, "switch": {"radix": 8}})",
       {"switch.radix", "too small"}},
      {R"({"topology": "fattree", "nodes": 64, "switch": {"radix": 16, "up_ports": 9}})",
       {"switch.up_ports", "1..8"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"vcs_per_class": 3}})",
       {"router.vcs_per_class", "vcs in {"}},
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
  };
  for (const auto& c : cases) {
    const std::string err = error_of(c.json);
    ASSERT_NE(err, "") << "accepted: " << c.json;
    for (const char* want : c.must_contain) {
      EXPECT_NE(err.find(want), std::string::npos) << "error \"" << err << "\" lacks \"" << want << "\"";
    }
  }
}

TEST(Config, MissingFileIsAClearError) {
  try {
    sysc::load_system_config("/nonexistent/x.json");
    FAIL();
  } catch (const sysc::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json"), std::string::npos);
  }
}

TEST(Config, EveryShippedConfigParses) {
  for (const char* name : {"hx2mesh-16", "hx2mesh-64", "hx4mesh-64", "hx4mesh-1024", "torus-64",
                           "fattree-64", "mesh-8x8"}) {
    EXPECT_NO_THROW(shipped(name)) << name;
  }
}

}  // namespace
}  // namespace hxemu::test
