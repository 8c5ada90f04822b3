// Where tensor, data-parallel and pipeline groups land (sw/training/placement.h): exact members
// and dimension shapes on a multidim platform and a HammingMesh, LIBRA's partial-dimension shapes,
// and errors that list the sizes allowed.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sw/collectives/session.h"
#include "sw/training/placement.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw {
namespace {

struct Built {
  explicit Built(const std::string& name, std::vector<std::string> sets = {}) {
    SessionConfig sc;
    sc.max_bytes = 4096;
    session = std::make_unique<CollectiveSession>(
        sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json", sets), sc);
  }
  std::unique_ptr<CollectiveSession> session;
  const sysc::System& sys() { return session->system(); }
};

Parallelism par(int tp, int pp = 1, int dp = 0) {
  Parallelism p;
  p.kind = "HYBRID_DATA_MODEL";
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.pp_bytes = pp > 1 ? 64 : 0;
  return p;
}

std::vector<std::pair<int, int>> shape(const Communicator& c) {
  std::vector<std::pair<int, int>> s;
  for (const auto& d : c.dims) s.push_back({d.size, d.platform_dim});
  return s;
}

TEST(Placement, MultidimTensorInnerDataOuter) {
  Built b("md-ring4-fc4-sw4");
  const auto p = place(b.sys(), par(4));
  EXPECT_EQ(p.par.dp, 16);
  EXPECT_EQ(p.used, 64);
  ASSERT_EQ(p.tensor.size(), 1u);
  ASSERT_EQ(p.tensor[0].size(), 16u);
  EXPECT_EQ(p.tensor[0][5].nodes, (std::vector<int>{20, 21, 22, 23}));
  EXPECT_EQ(shape(p.tensor[0][5]), (std::vector<std::pair<int, int>>{{4, 0}}));
  ASSERT_EQ(p.data[0].size(), 4u);
  EXPECT_EQ(p.data[0][1].size(), 16);
  EXPECT_EQ(p.data[0][1].nodes[0], 1);
  EXPECT_EQ(p.data[0][1].nodes[1], 5);
  EXPECT_EQ(p.data[0][1].nodes[4], 17);
  EXPECT_EQ(shape(p.data[0][1]), (std::vector<std::pair<int, int>>{{4, 1}, {4, 2}}));
  EXPECT_EQ(p.data[0][1].dims[0].kind, sysc::DimKind::kFullyConnected);
  EXPECT_EQ(p.data[0][1].dims[1].kind, sysc::DimKind::kSwitch);
  EXPECT_EQ(p.describe(), "tensor 4 (4) x data 16 (4 x 4) x pipeline 1 = 64 accelerators");
}

// LIBRA's GPT-3 on its 4D network: tensor 4 x 4 on [4, 8, 4, 32], data 2 x 4 x 32. Here the same
// cut of a partly shared dimension on [4, 4, 4, 2]: tensor 4 x 2, data 2 x 4 x 2.
TEST(Placement, GroupsMayShareADimension) {
  Built b("md-ring4-fc4-ring4-sw2");
  const auto p = place(b.sys(), par(8));
  EXPECT_EQ(p.par.dp, 16);
  EXPECT_EQ(shape(p.tensor[0][0]), (std::vector<std::pair<int, int>>{{4, 0}, {2, 1}}));
  EXPECT_EQ(p.tensor[0][1].nodes, (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(shape(p.data[0][0]), (std::vector<std::pair<int, int>>{{2, 1}, {4, 2}, {2, 3}}));
  EXPECT_EQ(p.data[0][3].nodes[0], 3);
  EXPECT_EQ(p.data[0][3].nodes[1], 11);
  EXPECT_EQ(p.data[0][3].nodes[2], 19);
  ASSERT_EQ(p.tensor_dims.size(), 2u);
  EXPECT_EQ(p.tensor_dims[1].size, 2);
  EXPECT_EQ(p.tensor_dims[1].platform_dim, 1);
}

TEST(Placement, HammingMeshTensorAlongRowsPipelineOutermost) {
  Built b("hx2mesh-16");   // 4 x 4 accelerators
  const auto p = place(b.sys(), par(2, 2));
  EXPECT_EQ(p.par.dp, 4);
  ASSERT_EQ(p.tensor.size(), 2u);
  const auto& sys = b.sys();
  // Stage 1 is rows 2..3; its first tensor group the first two accelerators of row 2.
  EXPECT_EQ(p.tensor[1][0].nodes, (std::vector<int>{sys.node_at_global(2, 0), sys.node_at_global(2, 1)}));
  EXPECT_EQ(p.tensor[1][0].rows, 1);
  EXPECT_EQ(p.tensor[1][0].cols, 2);
  // Data groups: every other accelerator of the stage's two rows (2 columns x 2 rows).
  EXPECT_EQ(p.data[0][1].nodes, (std::vector<int>{sys.node_at_global(0, 1), sys.node_at_global(0, 3),
                                                  sys.node_at_global(1, 1), sys.node_at_global(1, 3)}));
  EXPECT_EQ(p.data[0][1].rows, 2);
  EXPECT_EQ(p.data[0][1].cols, 2);
  ASSERT_EQ(p.to_next.size(), 1u);
  ASSERT_EQ(p.to_next[0].size(), 8u);
  EXPECT_EQ(p.to_next[0][3].nodes, (std::vector<int>{sys.node_at_global(0, 3), sys.node_at_global(2, 3)}));
  EXPECT_EQ(p.to_previous[0][3].nodes, (std::vector<int>{sys.node_at_global(2, 3), sys.node_at_global(0, 3)}));
}

void expect_error(const std::string& config, const Parallelism& pa, const std::string& fragment) {
  Built b(config);
  try {
    place(b.sys(), pa);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Placement, SizesThatDoNotSplitAreRefused) {
  expect_error("md-ring4-fc4-sw4", par(3),
               "tensor group 3 x pipeline stages 1 does not divide the machine's 64 accelerators (tensor group "
               "sizes that split its dimensions [4, 4, 4]: 1, 2, 4, 8, 16, 32, 64)");
  expect_error("md-ring4-fc4-sw4", par(4, 1, 32), "needs 128 accelerators; the machine has 64");
  expect_error("md-ring4-fc4-sw4", par(2, 1, 3), "data-parallel group size 3 (with tensor groups of 2) does not split");
}

}  // namespace
}  // namespace hxemu::sw
