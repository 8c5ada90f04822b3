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
      {R"({"topology": "fattree", "nodes": 64, "planes": 5, "switch": {"radix": 16}})",
       {"planes", "1..4"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "planes": 2})",
       {"planes", "only used by topology fattree"}},
      {R"({"topology": "hxmesh", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"routing": "valiant"}})",
       {"router.routing", "deterministic, adaptive"}},
      {R"({"topology": "torus", "board": {"rows": 2, "cols": 2}, "grid": {"rows": 2, "cols": 2}, "router": {"routing": "adaptive"}})",
       {"router.routing", "\"deterministic\""}},
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
                           "hyperx-64", "hyperx-1024", "fattree-64-taper50", "fattree-64-taper75"}) {
    EXPECT_NO_THROW(shipped(name)) << name;
  }
}

}  // namespace
}  // namespace hxemu::test
