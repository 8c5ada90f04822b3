// `hxemu describe` reports the memory the process holds once the system is built: resident bytes,
// peak, and resident bytes per accelerator, in its text and in its JSON.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

TEST(DescribeMemory, TextAndJsonReportResidentBytesPerAccelerator) {
  TempDir dir;
  const std::string json_path = dir.file("d.json");
  const RunResult r = run_hxemu({"describe", "--config", config("hx2mesh-64"), "--json", json_path});
  ASSERT_EQ(r.status, 0) << r.err;
  // "  memory          17.9 MiB resident after building the system (peak 17.9 MiB) = 293440 bytes
  //  per accelerator (1 terminal each)"
  std::smatch m;
  const std::regex line(R"(memory +([0-9.]+) MiB resident after building the system \(peak ([0-9.]+) MiB\) = ([0-9]+) bytes per accelerator \(1 terminal each\))");
  ASSERT_TRUE(std::regex_search(r.out, m, line)) << r.out;
  const double mib = std::stod(m[1].str());
  const double peak_mib = std::stod(m[2].str());
  const long long per_node = std::stoll(m[3].str());
  EXPECT_GT(mib, 1.0);
  EXPECT_GE(peak_mib, mib);
  EXPECT_NEAR(static_cast<double>(per_node) * 64 / (1 << 20), mib, 0.1);

  std::ifstream in(json_path);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  ASSERT_TRUE(j.contains("memory")) << j.dump(2);
  const auto& mem = j.at("memory");
  const auto resident = mem.at("resident_bytes").get<std::uint64_t>();
  EXPECT_GT(resident, 1u << 20);
  EXPECT_GE(mem.at("peak_resident_bytes").get<std::uint64_t>(), resident);
  EXPECT_EQ(mem.at("bytes_per_accelerator").get<std::uint64_t>(), resident / 64);
  EXPECT_EQ(mem.at("terminals_per_accelerator").get<int>(), 1);
}

}  // namespace
}  // namespace hxemu::test
