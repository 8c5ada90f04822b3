// The exploration's pieces (sw/explore/design_space.h): the splits of a lane budget, each costed
// and estimated; ranks with ties, Spearman's correlation and the Pareto front on known inputs.
#include <gtest/gtest.h>

#include <set>

#include "sw/explore/design_space.h"
#include "sw/training/analytic.h"
#include "sw/training/placement.h"
#include "sw/workload/text_workload.h"
#include "sysc/system/network_cost.h"

namespace hxemu::sw {
namespace {

const std::string kConfig = std::string(HX_CONFIG_DIR) + "/md-ring4-fc4-sw4.json";

TrainingPlan gpt() { return read_text_workload(std::string(HX_CONFIG_DIR) + "/workloads/gpt3-like.txt"); }

TEST(DesignSpace, SplitsOfALaneBudget) {
  const auto plan = gpt();
  const auto space = multidim_splits(kConfig, {}, 7, 0, plan);
  // Lanes a (ring), b (fc), c (switch) >= 1 with a + b + c <= 7: 35 vectors; the NPU router's 16
  // ports hold 4 NICs + 2a + 3b + c, which leaves 20.
  EXPECT_EQ(space.points.size() + space.refused.size(), 35u);
  int fits = 0;
  for (int a = 1; a <= 5; ++a) {
    for (int b = 1; a + b <= 6; ++b) {
      for (int c = 1; a + b + c <= 7; ++c) fits += 4 + 2 * a + 3 * b + c <= 16;
    }
  }
  EXPECT_EQ(static_cast<int>(space.points.size()), fits);
  std::set<std::string> labels;
  double last = 0;
  for (std::size_t i = 0; i < space.points.size(); ++i) {
    const auto& p = space.points[i];
    labels.insert(p.label);
    EXPECT_EQ(p.analytic_rank, static_cast<int>(i) + 1);
    EXPECT_GE(p.analytic_cycles, last);
    last = p.analytic_cycles;
    ASSERT_EQ(p.lanes.size(), 3u);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(p.cfg.md_dims[d].lanes, p.lanes[d]);
    EXPECT_DOUBLE_EQ(p.cost_usd, sysc::network_cost(p.cfg).total_usd);
    EXPECT_DOUBLE_EQ(p.analytic_cycles, libra_iteration(p.cfg, plan, place(p.cfg, plan.par)).total_cycles);
  }
  EXPECT_EQ(labels.size(), space.points.size());
  EXPECT_TRUE(labels.count("1-1-1"));
  EXPECT_FALSE(labels.count("1-4-1"));   // 4 + 2 + 12 + 1 = 19 ports
}

TEST(DesignSpace, BudgetRefusesDearSplits) {
  const auto plan = gpt();
  const auto all = multidim_splits(kConfig, {}, 7, 0, plan);
  double cheapest = 1e300;
  for (const auto& p : all.points) cheapest = std::min(cheapest, p.cost_usd);
  const auto one = multidim_splits(kConfig, {}, 7, cheapest, plan);
  ASSERT_EQ(one.points.size(), 1u);
  EXPECT_EQ(one.points.front().label, "1-1-1");
  EXPECT_THROW(multidim_splits(kConfig, {}, 7, cheapest / 2, plan), std::invalid_argument);
  EXPECT_THROW(multidim_splits(kConfig, {}, 2, 0, plan), std::invalid_argument);   // fewer lanes than dimensions
  EXPECT_THROW(multidim_splits(std::string(HX_CONFIG_DIR) + "/hx2mesh-16.json", {}, 7, 0, plan), std::invalid_argument);
}

TEST(DesignSpace, RanksSpearmanPareto) {
  EXPECT_EQ(ranks({30, 10, 20, 10}), (std::vector<double>{4, 1.5, 3, 1.5}));
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  // d = (0, 0, 1, -1): rho = 1 - 6 x 2 / (4 x 15) = 0.8
  EXPECT_NEAR(spearman({1, 2, 3, 4}, {1, 2, 4, 3}), 0.8, 1e-12);
  // cost, time: (1, 9) (2, 5) (3, 6) (4, 1) (2, 5): the third is beaten by the second.
  EXPECT_EQ(pareto_front({1, 2, 3, 4, 2}, {9, 5, 6, 1, 5}), (std::vector<bool>{true, true, false, true, true}));
}

}  // namespace
}  // namespace hxemu::sw
