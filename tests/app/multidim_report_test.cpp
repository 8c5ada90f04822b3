// `hxemu collective` on a multidim platform: LIBRA's estimate beside the emulation in the table,
// the JSON, the CSV and the SVG. md-ring8-ring8: two rings of 8, one lane each, so an NPU has 2
// links (64 B/cycle) per dimension; an allreduce of m bytes has LIBRA time 2 m 7/8 / 64 cycles
// (dimension x sets it; y carries an eighth of that).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"

namespace hxemu::test {
namespace {

TEST(MultidimReport, LibraEstimateInEveryOutput) {
  TempDir d;
  const RunResult r = run_hxemu({"collective", "--config", config("md-ring8-ring8"), "--op", "allreduce", "--algo",
                                 "hierarchical", "--sizes", "16K,64K", "--json", d.file("c.json"), "--csv",
                                 d.file("c.csv"), "--plot", d.file("c.svg")},
                                {}, 300);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("#   LIBRA estimate 448 cycles (x bound), emulated "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("#   LIBRA estimate 1792 cycles (x bound), emulated "), std::string::npos) << r.out;

  const auto j = nlohmann::json::parse(slurp(d.file("c.json")));
  const auto& rows = j.at("results");
  ASSERT_EQ(rows.size(), 2u);
  const double expect[] = {2.0 * 16384 * 7 / 8 / 64, 2.0 * 65536 * 7 / 8 / 64};
  for (int i = 0; i < 2; ++i) {
    const auto& l = rows[i].at("libra");
    EXPECT_DOUBLE_EQ(l.at("estimate_cycles").get<double>(), expect[i]);
    EXPECT_EQ(l.at("emulated_cycles"), rows[i].at("cycles"));
    EXPECT_DOUBLE_EQ(l.at("ratio").get<double>(), rows[i].at("cycles").get<double>() / expect[i]);
    EXPECT_EQ(l.at("bottleneck"), "x");
    ASSERT_EQ(l.at("dims").size(), 2u);
    EXPECT_DOUBLE_EQ(l.at("dims")[1].at("libra_utilisation").get<double>(), 1.0 / 8);
    EXPECT_EQ(rows[i].at("wrong"), 0);
  }
  const std::string csv = slurp(d.file("c.csv"));
  EXPECT_NE(csv.find(",libra_cycles,libra_ratio,x_libra_utilisation,x_utilisation,y_libra_utilisation,"
                     "y_utilisation\n"),
            std::string::npos) << csv;
  EXPECT_NE(csv.find(",448.0,"), std::string::npos) << csv;
  const std::string svg = slurp(d.file("c.svg"));
  EXPECT_NE(svg.find("LIBRA estimate"), std::string::npos);
  EXPECT_NE(svg.find("emulated, hierarchical"), std::string::npos);
}

}  // namespace
}  // namespace hxemu::test
