// Host memory as a shared resource (SessionConfig::memory_bytes_per_cycle, sysc/host/
// memory_bandwidth.h): the HBM-class default never binds (the same cycles and results as no budget);
// a budget below what four NIC ports and the reduction engines move makes the collective memory
// bound -- slower, with the same, checked, result.
#include <gtest/gtest.h>

#include <iostream>

#include "sw/collectives/session.h"

namespace hxemu::test {
namespace {

sw::CollectiveResult allreduce(double bytes_per_cycle) {
  sw::SessionConfig sc;
  sc.max_bytes = 256 * 1024;
  sc.memory_bytes_per_cycle = bytes_per_cycle;
  sw::CollectiveSession s(sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/hx2mesh-16.json"), sc);
  return s.run(sw::CollectiveOp::kAllreduce, "hamiltonian", 256 * 1024);
}

TEST(MemoryBudget, DefaultNeverBindsAndATightBudgetMakesItMemoryBound) {
  const auto unlimited = allreduce(0);
  const auto hbm = allreduce(sw::SessionConfig{}.memory_bytes_per_cycle);
  const auto tight = allreduce(64);   // a quarter of what four NIC ports read and write per cycle
  for (const auto* r : {&unlimited, &hbm, &tight}) {
    ASSERT_TRUE(r->ok) << (r->errors.empty() ? "" : r->errors.front());
    EXPECT_EQ(r->wrong, 0u);
  }
  EXPECT_EQ(hbm.cycles, unlimited.cycles);
  EXPECT_EQ(hbm.result_digest, unlimited.result_digest);
  EXPECT_EQ(tight.result_digest, unlimited.result_digest);
  EXPECT_GT(tight.cycles, unlimited.cycles * 3 / 2);
  std::cout << "hamiltonian allreduce 256 KiB on hx2mesh-16: " << unlimited.cycles << " cycles unlimited, "
            << hbm.cycles << " at 2048 B/cycle, " << tight.cycles << " at 64 B/cycle\n";
}

}  // namespace
}  // namespace hxemu::test
