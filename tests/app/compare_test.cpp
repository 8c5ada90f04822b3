// hxemu compare: one experiment over several configurations, one row each. Two small systems (the
// shipped hx2mesh-16 and a 16-endpoint two-level fat tree written here), a collective and a traffic
// saturation experiment: the rows, the JSON, the CSV and the SVG agree with each other and with the
// nccl-tests definitions; bad input is refused before anything is printed or written.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

// 16 endpoints on radix-8 switches: 4 leaves (4 down, 4 up) and 4 spines.
std::string fattree16(const TempDir& d) {
  return d.write("fattree-16.json", R"({"name": "fattree-16", "topology": "fattree", "nodes": 16,
    "switch": {"radix": 8}, "flit_bits": 256, "max_packet_flits": 32, "clock_ghz": 1.5625})");
}

std::vector<std::map<std::string, std::string>> parse_csv(const std::string& text) {
  std::vector<std::map<std::string, std::string>> rows;
  std::stringstream ss(text);
  std::string line;
  std::vector<std::string> header;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::stringstream ls(l);
    std::string t;
    while (std::getline(ls, t, ',')) v.push_back(t);
    return v;
  };
  while (std::getline(ss, line)) {
    if (header.empty()) {
      header = split(line);
      continue;
    }
    const auto v = split(line);
    EXPECT_EQ(v.size(), header.size()) << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < std::min(v.size(), header.size()); ++i) row[header[i]] = v[i];
    rows.push_back(row);
  }
  return rows;
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

constexpr double kLinkGBps = 1.5625 * 256 / 8;   // 50 GB/s per link direction

TEST(Compare, AlltoallOverTwoConfigurations) {
  TempDir d;
  const std::string ft = fattree16(d);
  const RunResult r = run_hxemu({"compare", "--configs", config("hx2mesh-16") + "," + ft, "--experiment",
                                 "alltoall:64K", "--seed", "7", "--json", d.file("c.json"), "--csv", d.file("c.csv"),
                                 "--plot", d.file("c.svg"), "--quiet"},
                                {}, 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(slurp(d.file("c.json")));
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["experiment"], "alltoall:64K");
  EXPECT_EQ(j["bytes"], 65536);
  EXPECT_EQ(j["algo"], "pairwise");   // the op's first algorithm
  EXPECT_EQ(j["stamp"]["seed"], 7);
  EXPECT_EQ(j["stamp"]["configs"].size(), 2u);
  EXPECT_EQ(j["stamp"]["config_files"][1], ft);
  EXPECT_FALSE(j["stamp"]["source_revision"].get<std::string>().empty());
  EXPECT_FALSE(j["stamp"]["tool_versions"].get<std::string>().empty());
  const std::vector<std::string> names = {"hx2mesh-16", "fattree-16"};
  const std::vector<int> nics = {4, 1};
  const auto csv = parse_csv(slurp(d.file("c.csv")));
  ASSERT_EQ(csv.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const auto& row = j["rows"][i];
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(row["config"], names[i]);
    EXPECT_EQ(row["accelerators"], 16);
    EXPECT_EQ(row["nics_per_accelerator"], nics[i]);
    EXPECT_EQ(row["ok"], true);
    EXPECT_EQ(row["wrong"], 0);
    EXPECT_EQ(row["checked"], 16 * 65536 / 4);
    const double cycles = row["cycles"].get<double>();
    ASSERT_GT(cycles, 0);
    // nccl-tests: busbw = S / t x (n-1)/n, t = cycles at 1.5625 GHz.
    const double busbw = 65536 / (cycles / 1.5625e9) / 1e9 * 15 / 16;
    EXPECT_NEAR(row["busbw_GBps"].get<double>(), busbw, 1e-9 * busbw);
    EXPECT_DOUBLE_EQ(row["injection_GBps"].get<double>(), nics[i] * kLinkGBps);
    EXPECT_NEAR(row["injection_fraction"].get<double>(), busbw / (nics[i] * kLinkGBps), 1e-9);
    const double bf = row["bound_fraction"].get<double>();
    EXPECT_GT(bf, 0);
    EXPECT_LE(bf, 1);
    EXPECT_NEAR(bf, busbw / row["bound_busbw_GBps"].get<double>(), 1e-9);
    // The CSV row and the table line say the same.
    EXPECT_EQ(csv[i].at("config"), names[i]);
    EXPECT_EQ(csv[i].at("cycles"), std::to_string(static_cast<long long>(cycles)));
    EXPECT_NEAR(std::stod(csv[i].at("busbw_GBps")), busbw, 1e-4);
    EXPECT_NEAR(std::stod(csv[i].at("bound_fraction")), bf, 1e-5);
    EXPECT_EQ(csv[i].at("wrong"), "0");
    bool line_found = false;
    std::stringstream out(r.out);
    for (std::string line; std::getline(out, line);) {
      if (line.rfind(names[i] + " ", 0) != 0) continue;
      line_found = true;
      EXPECT_NE(line.find(" " + std::to_string(static_cast<long long>(cycles)) + " "), std::string::npos) << line;
    }
    EXPECT_TRUE(line_found) << r.out;
  }
  EXPECT_NE(r.out.find("caveat: the fat tree has one NIC"), std::string::npos) << r.out;
  const std::string svg = slurp(d.file("c.svg"));
  EXPECT_EQ(count_of(svg, "class=\"bar\""), 2);
  for (const auto& n : names) EXPECT_NE(svg.find(">" + n + "</text>"), std::string::npos) << n;
}

// A multidim platform is a configuration like any other: the ring x ring platform beside the torus
// it equals, the hierarchical allreduce (on the torus: columns, then rows), data checked.
TEST(Compare, MultidimBesideTheTorus) {
  TempDir d;
  const RunResult r = run_hxemu({"compare", "--configs", config("md-ring8-ring8") + "," + config("torus-64-cabled"),
                                 "--experiment", "allreduce:16K", "--algo", "hierarchical", "--json",
                                 d.file("c.json"), "--quiet"},
                                {}, 300);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(slurp(d.file("c.json")));
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["config"], "md-ring8-ring8");
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["ok"], true);
    EXPECT_EQ(row["wrong"], 0);
    EXPECT_EQ(row["accelerators"], 64);
  }
  EXPECT_NE(r.out.find("multidim ring8x1 ring8x1"), std::string::npos) << r.out;
}

TEST(Compare, TrafficSaturationOverTwoConfigurations) {
  TempDir d;
  const RunResult r = run_hxemu({"compare", "--configs", config("hx2mesh-16") + "," + fattree16(d), "--experiment",
                                 "traffic:uniform:sat", "--loads", "0.3:0.9:0.3", "--warmup", "300", "--measure",
                                 "1500", "--json", d.file("t.json"), "--csv", d.file("t.csv"), "--plot",
                                 d.file("t.svg"), "--quiet"},
                                {}, 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(slurp(d.file("t.json")));
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["pattern"], "uniform");
  const auto csv = parse_csv(slurp(d.file("t.csv")));
  ASSERT_EQ(csv.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const auto& row = j["rows"][i];
    const double sat = row["saturation_throughput"].get<double>();
    EXPECT_EQ(row["ok"], true);
    EXPECT_GT(sat, 0);
    EXPECT_LE(sat, 1);
    // The sweep's own figure, unchanged.
    EXPECT_DOUBLE_EQ(sat, row["detail"]["saturation_throughput"].get<double>());
    EXPECT_NEAR(row["saturation_gbps_per_node"].get<double>(), sat * 400, 1e-9);
    EXPECT_DOUBLE_EQ(row["injection_fraction"].get<double>(), sat);
    EXPECT_EQ(csv[i].at("config"), row["config"].get<std::string>());
    EXPECT_NEAR(std::stod(csv[i].at("saturation_flits_per_node_cycle")), sat, 1e-6);
  }
  EXPECT_EQ(count_of(slurp(d.file("t.svg")), "class=\"bar\""), 2);
}

// Bad input: exit 2, the option named with what is allowed, nothing printed, no file written.
void expect_refused(const TempDir& d, const std::vector<std::string>& args, const std::vector<std::string>& want) {
  std::vector<std::string> a = {"compare"};
  a.insert(a.end(), args.begin(), args.end());
  for (const char* o : {"--json", "--csv", "--plot"}) {
    a.push_back(o);
    a.push_back(d.file(std::string("out") + o));
  }
  std::string cmd;
  for (const auto& x : a) cmd += " " + x;
  const RunResult r = run_hxemu(a, {}, 60);
  EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "") << cmd;
  for (const auto& w : want) EXPECT_NE(r.err.find(w), std::string::npos) << cmd << ": lacks \"" << w << "\":\n" << r.err;
  EXPECT_TRUE(d.entries().empty()) << cmd << ": left a file";
}

TEST(Compare, BadInputIsRefusedBeforeAnythingRuns) {
  TempDir d;
  const std::string two = config("hx2mesh-16") + "," + config("hx2mesh-64");
  expect_refused(d, {"--configs", two, "--experiment", "gather:1M"},
                 {"--experiment 'gather:1M'", "not an experiment kind", "allreduce", "alltoall", "traffic:PATTERN:sat"});
  expect_refused(d, {"--configs", two, "--experiment", "alltoall:3"}, {"--experiment", "'3' is not a size in bytes"});
  expect_refused(d, {"--configs", two, "--experiment", "alltoall:1X"}, {"--experiment", "'1X' is not a size"});
  expect_refused(d, {"--configs", two, "--experiment", "alltoall"}, {"--experiment", "allowed"});
  expect_refused(d, {"--configs", two, "--experiment", "traffic:uniform"}, {"--experiment", "traffic:PATTERN:sat"});
  expect_refused(d, {"--configs", two, "--experiment", "traffic:nosuch:sat"}, {"--experiment", "nosuch"});
  expect_refused(d, {"--configs", config("hx2mesh-16") + ",no/such/config.json", "--experiment", "alltoall:64K"},
                 {"--configs", "no/such/config.json"});
  expect_refused(d, {"--configs", ",", "--experiment", "alltoall:64K"}, {"--configs", "no configuration named"});
  expect_refused(d, {"--configs", two, "--experiment", "allreduce:64K", "--algo", "nosuch"},
                 {"--algo", "hamiltonian"});
  expect_refused(d, {"--configs", two, "--experiment", "alltoall:64K", "--loads", "0.1"}, {"--loads", "traffic"});
}

}  // namespace
}  // namespace hxemu::test
