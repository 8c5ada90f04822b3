// Bandwidth against the bounds (docs/metrics-and-bounds.md).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sw/collectives/grid_cycles.h"
#include "sw/collectives/session.h"
#include "sw/jobs/training_job.h"
#include "sysc/harness/parallel_harness.h"
#include "sysc/system/route_model.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig config(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json", overrides);
}

std::unique_ptr<sysc::Harness> parallel(sysc::System& s) { return sysc::make_parallel_harness(s); }

// HammingMesh's bandwidth-optimal allreduce: two edge-disjoint Hamiltonian cycles, each in both
// directions, keep all four ports of every accelerator busy. 4 MiB on hx2mesh-16: at least 90% of
// its bound -- which here is the accelerator's whole injection bandwidth, 4 links -- and at least
// 1.5x the busbw of the one-direction ring.
TEST(CollectiveBandwidth, HamiltonianAllreduce4MiBOnHx2Mesh16) {
  sw::SessionConfig sc;
  sc.max_bytes = 4u << 20;
  sc.harness = parallel;
  sw::CollectiveSession s(config("hx2mesh-16"), sc);
  const auto ham = s.run(sw::CollectiveOp::kAllreduce, "hamiltonian", 4u << 20);
  const auto ring = s.run(sw::CollectiveOp::kAllreduce, "ring", 4u << 20);
  ASSERT_TRUE(ham.ok);
  ASSERT_TRUE(ring.ok);
  EXPECT_EQ(ham.wrong, 0u);
  std::cout << "hamiltonian 4 MiB: " << ham.busbw << " GB/s busbw, " << 100 * ham.bound_fraction
            << "% of its bound " << ham.bound_busbw << " GB/s, " << 100 * ham.injection_fraction
            << "% of injection; ring: " << ring.busbw << " GB/s (" << 100 * ring.bound_fraction << "%)\n";
  RecordProperty("hamiltonian_busbw_GBps", std::to_string(ham.busbw));
  RecordProperty("hamiltonian_bound_fraction", std::to_string(ham.bound_fraction));
  RecordProperty("ring_busbw_GBps", std::to_string(ring.busbw));
  // The bound is all four ports: 4 x 50 GB/s.
  EXPECT_NEAR(ham.bound_busbw, 4 * 50.0, 0.5);
  EXPECT_NEAR(ham.injection, 200.0, 1e-9);
  EXPECT_GE(ham.bound_fraction, 0.90);
  EXPECT_GE(ham.busbw, 1.5 * ring.busbw);
}

// Pipelined chunks of two packets each (2 KiB; a 32-flit packet carries 992 B) stay pipelined. A
// NIC that shared its link round robin among every queued message, all to the ring's one successor,
// finished the whole batch of chunks at once and lost the pipeline at every hop: 68.8% of the bound
// on this case (and 33.9% for 1 MiB on hx2mesh-64). Messages to one destination now leave in posted
// order (rtl/nic/hx_nic_tx.sv): 95% measured.
TEST(CollectiveBandwidth, TwoPacketChunksStayPipelined) {
  sw::SessionConfig sc;
  sc.max_bytes = 1u << 20;
  sc.harness = parallel;
  sw::CollectiveSession s(config("hx2mesh-16"), sc);
  sw::BuildOptions bo;
  bo.chunk_bytes = 2048;
  const auto ham = s.run(sw::CollectiveOp::kAllreduce, "hamiltonian", 1u << 20, bo);
  ASSERT_TRUE(ham.ok);
  EXPECT_EQ(ham.wrong, 0u);
  std::cout << "hamiltonian 1 MiB, 2 KiB chunks: " << ham.cycles << " cycles, " << 100 * ham.bound_fraction
            << "% of its bound\n";
  EXPECT_GE(ham.bound_fraction, 0.85);
}

// The baselines run the same collectives; on the fat tree (one NIC per endpoint, adaptive
// two-level tree) the bound spreads adaptive up-port choices evenly, so nothing beats it.
TEST(CollectiveBandwidth, BaselinesStayWithinTheirBounds) {
  for (const char* name : {"torus-64", "fattree-64"}) {
    sw::SessionConfig sc;
    sc.max_bytes = 64 * 1024;
    sc.harness = parallel;
    sw::CollectiveSession s(config(name), sc);
    for (const char* algo : {"torus2d", "hamiltonian"}) {
      const auto r = s.run(sw::CollectiveOp::kAllreduce, algo, 64 * 1024);
      EXPECT_TRUE(r.ok) << name << " " << algo;
      EXPECT_EQ(r.wrong, 0u);
      EXPECT_GT(r.bound_fraction, 0.1) << name << " " << algo;   // 64 KiB on 64 nodes: latency-bound
      EXPECT_LE(r.bound_fraction, 1.0) << name << " " << algo << ": faster than its bound";
    }
  }
}

// The parallel harness (partitions on several threads, a barrier per cycle) gives exactly the
// plain loop's results: the same cycle counts for every algorithm.
TEST(CollectiveHarness, ParallelAndPlainAreCycleIdentical) {
  std::vector<std::uint64_t> cycles[2];
  for (int k = 0; k < 2; ++k) {
    sw::SessionConfig sc;
    sc.max_bytes = 64 * 1024;
    sc.harness = k == 0 ? sysc::make_plain_harness : parallel;
    sw::CollectiveSession s(config("hx2mesh-16"), sc);
    for (const auto& algo : sw::algorithms(sw::CollectiveOp::kAllreduce)) {
      const auto r = s.run(sw::CollectiveOp::kAllreduce, algo, 4 * 12289);
      EXPECT_TRUE(r.ok);
      cycles[k].push_back(r.cycles);
    }
  }
  EXPECT_EQ(cycles[0], cycles[1]);
}

// The Hamiltonian cycles really are two edge-disjoint Hamiltonian cycles of the k x k torus.
TEST(CollectiveBandwidth, HamiltonianCyclesAreEdgeDisjoint) {
  for (int k = 3; k <= 9; ++k) {
    sw::Communicator c;
    c.rows = c.cols = k;
    for (int i = 0; i < k * k; ++i) c.nodes.push_back(i);
    EXPECT_TRUE(sw::edge_disjoint_hamiltonian(c, sw::hamiltonian_a(c), sw::hamiltonian_b(c))) << k;
  }
  sw::Communicator c;
  c.rows = c.cols = 4;
  for (int i = 0; i < 16; ++i) c.nodes.push_back(i);
  EXPECT_FALSE(sw::edge_disjoint_hamiltonian(c, sw::hamiltonian_a(c), sw::hamiltonian_a(c)));
}

// Alltoall is reported against the bound from the pattern's maximum channel load under the
// system's routing: recompute that load independently by counting routes per link.
TEST(CollectiveBandwidth, AlltoallBoundIsTheMaximumChannelLoad) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession s(config("hx2mesh-16"), sc);
  const std::uint64_t bytes = 64 * 1024;
  const auto r = s.run(sw::CollectiveOp::kAlltoall, "all-at-once", bytes);
  ASSERT_TRUE(r.ok);
  auto& sys = s.system();
  const auto& net = sys.net();
  const int n = sys.nodes(), rails = s.rails();
  // Every ordered pair moves bytes/n, split evenly over the rails, each part on its own rail.
  std::map<int, double> load;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      for (int k = 0; k < rails; ++k) {
        const auto p = sysc::trace_path(sys, a, b, k);
        ASSERT_TRUE(p.ok);
        const double part = static_cast<double>(bytes) / n / rails;
        load[net.link_out({sys.terminal_block(a, k), 0})] += part;
        for (const auto& h : p.hops) load[h.link_out] += part;
      }
    }
  }
  double max_load = 0;
  for (const auto& [l, v] : load) max_load = std::max(max_load, v);
  EXPECT_NEAR(static_cast<double>(r.bound_cycles), max_load / 32.0, 2.0);
  EXPECT_GT(r.bound_fraction, 0.2);
  EXPECT_LE(r.bound_fraction, 1.0);
  std::cout << "alltoall 64 KiB on hx2mesh-16: " << r.busbw << " GB/s busbw, " << 100 * r.bound_fraction
            << "% of the channel-load bound " << r.bound_busbw << " GB/s (busiest link " << r.busiest_link << ")\n";
}

// router.class_vcs: on hx2mesh-64 an alltoall queues behind the row-tree switches in class 1 (and
// the column trees in class 2); giving those classes the VCs class 0 does not need ([1, 4, 3], 8 VCs)
// cuts the head-of-line blocking that limits it. Both runs deliver every element; measured 2,487
// cycles even ([2, 2, 2]) against 2,120 split (1.17x), asserted with room: at least 1.08x.
TEST(CollectiveBandwidth, AlltoallGainsFromMoreVcsInTheTreeClasses) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  std::uint64_t cycles[2] = {0, 0};
  const char* splits[2] = {"router.class_vcs=[2, 2, 2]", "router.class_vcs=[1, 4, 3]"};
  for (int k = 0; k < 2; ++k) {
    sw::CollectiveSession s(config("hx2mesh-64", {splits[k]}), sc);
    const auto r = s.run(sw::CollectiveOp::kAlltoall, "all-at-once", 64 * 1024);
    ASSERT_TRUE(r.ok) << splits[k] << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.wrong, 0u) << splits[k];
    EXPECT_EQ(r.checked, 64u * 16384u) << splits[k];
    // Every block is stepped once per cycle, evaluated or skipped as idle: the two counts add up
    // to a whole number of cycles of every block, at least the run's.
    const auto blocks = static_cast<std::uint64_t>(s.system().net().blocks());
    EXPECT_GT(r.block_ticks, 0u);
    EXPECT_EQ((r.block_ticks + r.block_ticks_skipped) % blocks, 0u) << splits[k];
    EXPECT_GE((r.block_ticks + r.block_ticks_skipped) / blocks, r.cycles) << splits[k];
    cycles[k] = r.cycles;
  }
  std::cout << "alltoall 64 KiB on hx2mesh-64: " << cycles[0] << " cycles with [2, 2, 2], " << cycles[1]
            << " with [1, 4, 3]\n";
  EXPECT_GE(static_cast<double>(cycles[0]), 1.08 * static_cast<double>(cycles[1]));
}

// The shipped hx2mesh-64 (12 VCs split 1/7/4, configs/hx2mesh-64.json): a 1 MiB alltoall with every
// piece posted at once reaches at least 80% of its channel-load bound. The bound is exact: each
// accelerator's exit to its row tree carries the 3/4 of its MiB bound for other grid columns,
// 24,576 flits. Measured 29,748 cycles (82.6%); with 2 VCs per class the same run took 35,478
// (69.3%).
TEST(CollectiveBandwidth, AlltoallOnHx2Mesh64ReachesFourFifthsOfItsBound) {
  sw::SessionConfig sc;
  sc.max_bytes = 1u << 20;
  sc.harness = parallel;
  sw::CollectiveSession s(config("hx2mesh-64"), sc);
  const auto r = s.run(sw::CollectiveOp::kAlltoall, "all-at-once", 1u << 20);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_EQ(r.checked, 64u * 262144u);
  EXPECT_EQ(r.bound_cycles, 24576u);
  std::cout << "alltoall 1 MiB on hx2mesh-64: " << r.cycles << " cycles, " << 100 * r.bound_fraction
            << "% of the bound (busiest link " << r.busiest_link << ")\n";
  EXPECT_GE(r.bound_fraction, 0.80);
}

// The isolation claim of HammingMesh: two training jobs on disjoint halves of hx2mesh-64 (board
// rows 0-1 and 2-3) each take within 5% of their time alone.
TEST(TrainingJobs, TwoJobsOnDisjointHalvesAreIsolated) {
  const auto cfg = config("hx2mesh-64");
  const auto jobs = sw::parse_jobs(R"({"jobs": [
      {"name": "A", "boards": [0, 0, 2, 4], "steps": 1, "tp_bytes": 65536, "dp_bytes": 131072},
      {"name": "B", "boards": [2, 0, 2, 4], "steps": 1, "tp_bytes": 65536, "dp_bytes": 131072}]})",
                                   "test", cfg);
  sw::SessionConfig sc;
  sc.max_bytes = sw::jobs_max_bytes(jobs);
  sc.harness = parallel;
  sw::CollectiveSession s(cfg, sc);
  const auto res = sw::run_jobs(s, jobs);
  ASSERT_EQ(res.size(), 2u);
  for (const auto& r : res) {
    EXPECT_TRUE(r.ok) << r.name << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.wrong, 0u);
    EXPECT_GT(r.checked, 0u);
    EXPECT_GT(r.cycles_alone, 0u);
    EXPECT_LE(r.slowdown, 0.05) << r.name << ": " << r.cycles_together << " together vs " << r.cycles_alone;
    std::cout << "job " << r.name << ": alone " << r.cycles_alone << " cycles, together " << r.cycles_together
              << " (" << 100 * r.slowdown << "%)\n";
  }
}

TEST(TrainingJobs, BadJobFilesAreClearErrors) {
  const auto cfg = config("hx2mesh-64");
  auto error_of = [&](const std::string& text) {
    try {
      sw::parse_jobs(text, "jobs.json", cfg);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(R"({"jobs": [{"boards": [0,0,2,4], "tp_bytes": 4, "dp_bytes": 4},
                                   {"boards": [1,0,2,4], "tp_bytes": 4, "dp_bytes": 4}]})").find("already belongs"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": [{"boards": [3,0,2,4], "tp_bytes": 4, "dp_bytes": 4}]})").find("boards[2] (H): must be an integer in 1..1"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": [{"boards": [0,0,1,1], "tp_bytes": 6, "dp_bytes": 4}]})").find("tp_bytes: must be a multiple of 4"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": [{"boards": [0,0,1,1], "dp_bytes": 4}]})").find("tp_bytes"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": [{"boards": [0,0,1,1], "tp_bytes": 4, "dp_bytes": 4, "tp_algo": "star"}]})").find("ring, biring"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": []})").find("non-empty"), std::string::npos);
  EXPECT_NE(error_of(R"({"jobs": [)").find("malformed"), std::string::npos);
}

}  // namespace
}  // namespace hxemu::test
