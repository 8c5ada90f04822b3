// Every collective operation x algorithm with real data and sizes that do not divide evenly among
// the ranks (1 element, n-1, n+1, a prime count, and a size that needs several pipeline chunks):
// zero wrong elements, on hx2mesh-16 (all 16 accelerators) and on a 4x4-accelerator sub-grid
// communicator of hx2mesh-64.
#include <gtest/gtest.h>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig config(const std::string& name) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json");
}

void every_algorithm(const std::string& system, const std::string& group, sw::CollectiveOp op,
                     sw::DataType type = sw::DataType::kInt32) {
  sw::SessionConfig sc;
  sc.group = group;
  sc.type = type;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession s(config(system), sc);
  const int n = s.communicators().front().size();
  ASSERT_EQ(n, 16);
  for (const auto& algo : sw::algorithms(op)) {
    for (std::uint64_t count : {std::uint64_t{1}, std::uint64_t(n - 1), std::uint64_t(n + 1),
                                std::uint64_t{1009}, std::uint64_t{12289}}) {
      const auto r = s.run(op, algo, count * 4);
      EXPECT_TRUE(r.ok) << algo << " count " << count << ": " << (r.errors.empty() ? "" : r.errors[0]);
      EXPECT_EQ(r.wrong, 0u) << algo << " count " << count;
      EXPECT_GT(r.checked, 0u) << algo << " count " << count;
      EXPECT_GT(r.cycles, 0u);
      EXPECT_LE(r.bound_fraction, 1.0) << algo << " count " << count << ": faster than its bound";
    }
  }
}

TEST(CollectivesHx2Mesh16, Allreduce) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kAllreduce); }
TEST(CollectivesHx2Mesh16, AllreduceFloat32) {
  every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kAllreduce, sw::DataType::kFloat32);
}
TEST(CollectivesHx2Mesh16, ReduceScatter) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kReduceScatter); }
TEST(CollectivesHx2Mesh16, Allgather) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kAllgather); }
TEST(CollectivesHx2Mesh16, Alltoall) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kAlltoall); }
TEST(CollectivesHx2Mesh16, Broadcast) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kBroadcast); }
TEST(CollectivesHx2Mesh16, SendRecvPipeline) { every_algorithm("hx2mesh-16", "all", sw::CollectiveOp::kSendRecv); }

// A 2x2-board sub-grid (16 of the 64 accelerators) of hx2mesh-64.
const char* kSubgrid = "subgrid:1,1,2,2";
TEST(CollectivesHx2Mesh64Subgrid, Allreduce) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kAllreduce); }
TEST(CollectivesHx2Mesh64Subgrid, ReduceScatter) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kReduceScatter); }
TEST(CollectivesHx2Mesh64Subgrid, Allgather) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kAllgather); }
TEST(CollectivesHx2Mesh64Subgrid, Alltoall) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kAlltoall); }
TEST(CollectivesHx2Mesh64Subgrid, Broadcast) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kBroadcast); }
TEST(CollectivesHx2Mesh64Subgrid, SendRecvPipeline) { every_algorithm("hx2mesh-64", kSubgrid, sw::CollectiveOp::kSendRecv); }

// Rows and columns as communicators run concurrently (tensor- and data-parallel groups).
TEST(CollectivesGroups, RowsAndColumnsOfHx2Mesh64) {
  for (const char* g : {"rows", "cols"}) {
    sw::SessionConfig sc;
    sc.group = g;
    sc.max_bytes = 64 * 1024;
    sw::CollectiveSession s(config("hx2mesh-64"), sc);
    EXPECT_EQ(s.communicators().size(), 8u);
    for (const char* algo : {"ring", "biring", "halving-doubling"}) {
      const auto r = s.run(sw::CollectiveOp::kAllreduce, algo, 4 * 4099);
      EXPECT_TRUE(r.ok) << g << " " << algo;
      EXPECT_EQ(r.wrong, 0u);
    }
  }
}

TEST(CollectivesGroups, BadGroupsAndAlgorithmsAreClearErrors) {
  sw::SessionConfig sc;
  sc.max_bytes = 4096;
  sc.group = "rows";
  sw::CollectiveSession s(config("hx2mesh-16"), sc);
  try {
    s.run(sw::CollectiveOp::kAllreduce, "hamiltonian", 1024);
    FAIL() << "hamiltonian on a 1-row communicator";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("square"), std::string::npos) << e.what();
  }
  try {
    s.run(sw::CollectiveOp::kAllreduce, "fastest", 1024);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(sw::algorithm_names(sw::CollectiveOp::kAllreduce)), std::string::npos) << e.what();
  }
  sc.group = "subgrid:1,1,5,1";
  EXPECT_THROW(sw::CollectiveSession(config("hx2mesh-16"), sc), std::invalid_argument);
  sc.group = "diagonal";
  EXPECT_THROW(sw::CollectiveSession(config("hx2mesh-16"), sc), std::invalid_argument);
}

}  // namespace
}  // namespace hxemu::test
