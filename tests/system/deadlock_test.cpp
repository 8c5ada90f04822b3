// Deadlock freedom: every source kept permanently backlogged with uniform random traffic (offered
// load 1 flit/node/cycle, far above saturation) for 10^5 cycles, then a drain: every packet
// arrives. The watchdog fails the test -- naming the VCs where flits are stuck -- if nothing moves
// for 5,000 cycles while packets are outstanding.
#include <gtest/gtest.h>

#include <random>

#include "tests/util/system_test_util.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

void overload_then_drain(const std::string& name, std::uint64_t cycles, bool adaptive = false) {
  auto cfg = shipped(name);
  cfg.adaptive = adaptive;
  tb::TrafficSystem ts(cfg);
  const int n = ts.nodes();
  std::mt19937_64 rng(2024);
  tb::WatchdogConfig wd;
  wd.stall_cycles = 5000;
  tb::Watchdog dog(wd);
  const std::uint64_t chunk = 64;
  for (std::uint64_t c = 0; c < cycles; c += chunk) {
    for (int src = 0; src < n; ++src) {
      // Keep every source queue 32 packets (128 flits) deep at each 64-cycle top-up: more than the
      // 64 flits a source can inject meanwhile, so sources never run dry.
      while (ts.endpoint(src).queued() < 32) {
        int dst = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
        if (dst == src) dst = (dst + 1) % n;
        ts.send(src, dst, 4);
      }
    }
    ts.run(chunk);
    ASSERT_FALSE(dog.check(ts.sys(), ts.scoreboard()))
        << dog.reason() << "\n" << dog.report();
  }
  const std::size_t created = ts.scoreboard().created();
  const bool drained = ts.drain(2000000, wd);
  ASSERT_TRUE(drained) << (ts.watchdog() ? ts.watchdog()->reason() + "\n" + ts.watchdog()->report()
                                         : std::string("timeout"));
  EXPECT_EQ(ts.scoreboard().delivered_count(), created);
  for (const auto& e : ts.scoreboard().errors()) ADD_FAILURE() << e;
  EXPECT_FALSE(ts.sys().any_error());
  std::cout << name << (adaptive ? " (adaptive)" : "") << ": " << created << " packets offered at 1 flit/node/cycle, accepted "
            << static_cast<double>(ts.scoreboard().delivered_count()) * 4 / n / ts.now()
            << " flits/node/cycle, all delivered after the drain (cycle " << ts.now() << ")\n";
  // The sources really were saturated: they always had packets waiting.
  EXPECT_GT(created, static_cast<std::size_t>(n) * 32);
}

TEST(DeadlockFreedom, Hx2Mesh64OverloadThenDrain) { overload_then_drain("hx2mesh-64", 100000); }
TEST(DeadlockFreedom, Torus64OverloadThenDrain) { overload_then_drain("torus-64", 100000); }
// Adaptive board routing (docs/adaptive-routing.md): the same overload on the 2x2 and 4x4 boards.
TEST(DeadlockFreedom, Hx2Mesh64AdaptiveOverloadThenDrain) { overload_then_drain("hx2mesh-64", 100000, true); }
TEST(DeadlockFreedom, Hx4Mesh64AdaptiveOverloadThenDrain) { overload_then_drain("hx4mesh-64", 100000, true); }
// Adaptive torus routing (3 dateline classes, north-last inside each).
TEST(DeadlockFreedom, Torus64AdaptiveOverloadThenDrain) { overload_then_drain("torus-64", 100000, true); }

}  // namespace
}  // namespace hxemu::test
