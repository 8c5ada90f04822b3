// The memory estimate the command line checks before building a session: its host-memory part is
// exactly what the session allocates, and it grows with the size, with smaller chunks and with the
// number of collectives in one schedule.
#include <gtest/gtest.h>

#include <string>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {
namespace {

sysc::SystemConfig hx2mesh16() {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/hx2mesh-16.json");
}

TEST(MemoryEstimate, HostMemoryIsWhatTheSessionAllocates) {
  sw::SessionConfig sc;
  for (std::uint64_t bytes : {std::uint64_t{4}, std::uint64_t{4096}, std::uint64_t{1} << 20, std::uint64_t{1} << 30}) {
    sc.max_bytes = bytes;
    const auto m = sw::estimate_session_memory(hx2mesh16(), sc);
    EXPECT_EQ(m.nodes, 16);
    EXPECT_EQ(m.host, 16ull * sw::BufferLayout::for_bytes(bytes).memory_bytes) << bytes;
    EXPECT_GT(m.total(), m.host);
  }
  // The defect: 1 GiB per node on 16 nodes is 48 GiB of host memory alone.
  sc.max_bytes = 1ull << 30;
  EXPECT_GT(sw::estimate_session_memory(hx2mesh16(), sc).total(), 48ull << 30);
}

TEST(MemoryEstimate, GrowsWithSizeSmallChunksAndCollectivesPerSchedule) {
  sw::SessionConfig sc;
  sc.max_bytes = 1 << 20;
  const auto base = sw::estimate_session_memory(hx2mesh16(), sc);
  EXPECT_GT(sw::estimate_session_memory(hx2mesh16(), sc, 64).schedule, 10 * base.schedule);
  EXPECT_GT(sw::estimate_session_memory(hx2mesh16(), sc, 0, 8).schedule, 4 * base.schedule);
  sc.max_bytes = 4 << 20;
  EXPECT_GT(sw::estimate_session_memory(hx2mesh16(), sc).total(), base.total());
  EXPECT_NE(base.detail().find("16 nodes x ("), std::string::npos) << base.detail();
}

}  // namespace
}  // namespace hxemu::test
