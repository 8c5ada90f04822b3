// Collectives on the multi-dimensional platforms (docs/multidim.md): hierarchical allreduce,
// reduce-scatter and allgather, and alltoall (every piece posted at once: the dimension-order
// routes carry each piece across the dimensions in turn), with real data and sizes that do not
// divide evenly: zero wrong elements. LIBRA's analytical time in the report, recomputed here from
// the configuration alone.
#include <gtest/gtest.h>

#include "sw/collectives/libra_estimate.h"
#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig config(const std::string& name) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json");
}

void check_data(const std::string& system, sw::CollectiveOp op, const std::string& algo) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession s(config(system), sc);
  const int n = s.communicators().front().size();
  ASSERT_EQ(n, s.system().nodes());
  ASSERT_EQ(s.rails(), 4);
  for (std::uint64_t count : {std::uint64_t{1}, std::uint64_t(n - 1), std::uint64_t(n + 1), std::uint64_t{1009},
                              std::uint64_t{12289}}) {
    const auto r = s.run(op, algo, count * 4);
    EXPECT_TRUE(r.ok) << algo << " count " << count << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.wrong, 0u) << algo << " count " << count;
    EXPECT_GT(r.checked, 0u) << algo << " count " << count;
    EXPECT_LE(r.bound_fraction, 1.0) << algo << " count " << count << ": faster than its bound";
    EXPECT_TRUE(r.has_libra);
    EXPECT_GT(r.libra_cycles, 0.0);
  }
}

TEST(MultidimCollectives, Ring4Fc4Sw4Allreduce) {
  check_data("md-ring4-fc4-sw4", sw::CollectiveOp::kAllreduce, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Sw4ReduceScatter) {
  check_data("md-ring4-fc4-sw4", sw::CollectiveOp::kReduceScatter, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Sw4Allgather) {
  check_data("md-ring4-fc4-sw4", sw::CollectiveOp::kAllgather, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Sw4Alltoall) {
  check_data("md-ring4-fc4-sw4", sw::CollectiveOp::kAlltoall, "all-at-once");
}
TEST(MultidimCollectives, Ring4Fc4Ring4Sw2Allreduce) {
  check_data("md-ring4-fc4-ring4-sw2", sw::CollectiveOp::kAllreduce, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Ring4Sw2ReduceScatter) {
  check_data("md-ring4-fc4-ring4-sw2", sw::CollectiveOp::kReduceScatter, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Ring4Sw2Allgather) {
  check_data("md-ring4-fc4-ring4-sw2", sw::CollectiveOp::kAllgather, "hierarchical");
}
TEST(MultidimCollectives, Ring4Fc4Ring4Sw2Alltoall) {
  check_data("md-ring4-fc4-ring4-sw2", sw::CollectiveOp::kAlltoall, "all-at-once");
}

// A Switch dimension on two-level trees (32 NPUs per group, radix 16): hierarchical allreduce and
// reduce-scatter check their data.
TEST(MultidimCollectives, SwitchDimensionOnTwoLevelTrees) {
  const auto cfg = sysc::parse_system_config(
      R"({"name": "ring2-sw32", "topology": "multidim", "switch": {"radix": 16}, "dimensions": [
          {"name": "ring", "kind": "ring", "size": 2}, {"name": "pod", "kind": "switch", "size": 32, "latency": 10}]})",
      "test");
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession s(cfg, sc);
  for (auto op : {sw::CollectiveOp::kAllreduce, sw::CollectiveOp::kReduceScatter}) {
    for (std::uint64_t count : {std::uint64_t{63}, std::uint64_t{12289}}) {
      const auto r = s.run(op, "hierarchical", count * 4);
      EXPECT_TRUE(r.ok) << sw::op_name(op) << " " << count << ": " << (r.errors.empty() ? "" : r.errors[0]);
      EXPECT_EQ(r.wrong, 0u);
      EXPECT_GT(r.checked, 0u);
    }
  }
}

// The ring x ring platform is the cabled 8x8 torus built another way (every link a 10-cycle cable,
// X first, ties +, dateline per ring): the torus2d allreduce takes the same cycles on both (2,468
// for 64 KiB when measured) and leaves the same result buffers.
TEST(MultidimCollectives, RingByRingTakesTheTorusCycles) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession md(config("md-ring8-ring8"), sc);
  sw::CollectiveSession torus(config("torus-64-cabled"), sc);
  const auto a = md.run(sw::CollectiveOp::kAllreduce, "torus2d", 64 * 1024);
  const auto b = torus.run(sw::CollectiveOp::kAllreduce, "torus2d", 64 * 1024);
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.wrong, 0u);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.bound_cycles, b.bound_cycles);
  EXPECT_EQ(a.result_digest, b.result_digest);
}

// LIBRA's time from the configuration alone (docs/multidim.md), by hand: md-ring4-fc4-sw4, 1 MiB
// allreduce. Ring of 4, 1 lane: 2 x 1 MiB x 3/4 over 2 links x 32 B/cycle = 24,576 cycles; FC of 4:
// 2 x 256 KiB x 3/4 over 3 links = 4,096; switch of 4, 2 lanes: 2 x 64 KiB x 3/4 over 2 links =
// 1,536. The ring sets it.
TEST(MultidimLibra, EstimateFromTheConfiguration) {
  const auto cfg = config("md-ring4-fc4-sw4");
  const auto e = sw::libra_estimate(cfg, sw::CollectiveOp::kAllreduce, 1 << 20);
  ASSERT_EQ(e.dims.size(), 3u);
  EXPECT_DOUBLE_EQ(e.dims[0].cycles, 24576.0);
  EXPECT_DOUBLE_EQ(e.dims[1].cycles, 4096.0);
  EXPECT_DOUBLE_EQ(e.dims[2].cycles, 1536.0);
  EXPECT_DOUBLE_EQ(e.cycles, 24576.0);
  EXPECT_EQ(e.bottleneck, 0);
  // Reduce-scatter and allgather: half of it; alltoall: m (n-1)/n on every dimension.
  EXPECT_DOUBLE_EQ(sw::libra_estimate(cfg, sw::CollectiveOp::kReduceScatter, 1 << 20).cycles, 12288.0);
  EXPECT_DOUBLE_EQ(sw::libra_estimate(cfg, sw::CollectiveOp::kAllgather, 1 << 20).cycles, 12288.0);
  const auto a2a = sw::libra_estimate(cfg, sw::CollectiveOp::kAlltoall, 1 << 20);
  EXPECT_DOUBLE_EQ(a2a.dims[0].cycles, (1 << 20) * 0.75 / 64);
  EXPECT_DOUBLE_EQ(a2a.dims[1].cycles, (1 << 20) * 0.75 / 96);
  EXPECT_DOUBLE_EQ(a2a.dims[2].cycles, (1 << 20) * 0.75 / 64);
  EXPECT_THROW(sw::libra_estimate(config("torus-64"), sw::CollectiveOp::kAllreduce, 1024), std::invalid_argument);
  EXPECT_THROW(sw::libra_estimate(cfg, sw::CollectiveOp::kBroadcast, 1024), std::invalid_argument);

  // The collective's report carries the same figure, the ratio and every dimension's share.
  sw::SessionConfig sc;
  sc.max_bytes = 256 * 1024;
  sw::CollectiveSession s(cfg, sc);
  const auto r = s.run(sw::CollectiveOp::kAllreduce, "hierarchical", 256 * 1024);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  ASSERT_TRUE(r.has_libra);
  EXPECT_DOUBLE_EQ(r.libra_cycles, 24576.0 / 4);
  EXPECT_DOUBLE_EQ(r.libra_ratio, static_cast<double>(r.cycles) / (24576.0 / 4));
  EXPECT_EQ(r.libra_bottleneck, "package");
  ASSERT_EQ(r.dims.size(), 3u);
  EXPECT_DOUBLE_EQ(r.dims[0].libra_utilisation, 1.0);
  // The schedule sends exactly LIBRA's load into the FC and switch dimensions (one hop each) and
  // into the ring (neighbours only); utilisation is that over the emulated time.
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(r.dims[d].sent_bytes_per_npu, r.dims[d].libra_load_bytes, 1e-6 * r.dims[d].libra_load_bytes) << d;
    EXPECT_GT(r.dims[d].utilisation, 0.0);
    EXPECT_LE(r.dims[d].utilisation, 1.0);
  }
  const auto j = r.json();
  EXPECT_DOUBLE_EQ(j["libra"]["estimate_cycles"].get<double>(), 24576.0 / 4);
  EXPECT_EQ(j["libra"]["dims"].size(), 3u);
}

}  // namespace
}  // namespace hxemu::test
