// Network::step_as (sysc/fabric/network_step.h): a block stepped as its own final type (the
// registry's DirectStep adapters, the endpoints) and the same block stepped through LinkBlock's
// virtual methods move the same flits and credits in the same cycles.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <typeinfo>

#include "sysc/fabric/network_step.h"
#include "tests/tb/traffic/traffic_test_util.h"

namespace hxemu::test {
namespace {

TEST(DirectStep, ABlockStepsAsItsOwnTypeAndThroughLinkBlockAlike) {
  const sysc::SystemConfig cfg = shipped_with("hx2mesh-16", {});
  tb::TrafficSystem direct(cfg), generic(cfg);
  sysc::Network& a = direct.sys().net();
  sysc::Network& b = generic.sys().net();
  ASSERT_EQ(a.blocks(), b.blocks());

  // The routers and switches are DirectStep adapters: the test exercises both paths.
  int direct_blocks = 0;
  for (int i = 0; i < a.blocks(); ++i) {
    const sysc::LinkBlock& blk = a.block(i);
    if (std::string(typeid(blk).name()).find("DirectStep") != std::string::npos) ++direct_blocks;
  }
  EXPECT_GT(direct_blocks, 0);

  // The same 300 packets, all queued in cycle 0: the network saturates, so credits run out and
  // switch allocation is contended on both sides.
  std::mt19937_64 rng(11);
  const int n = direct.nodes();
  std::uint64_t flits = 0;
  for (int k = 0; k < 300; ++k) {
    const int src = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    const int dst = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    const int len = 1 + static_cast<int>(rng() % 6);
    direct.send(src, dst, len);
    generic.send(src, dst, len);
    flits += static_cast<std::uint64_t>(len);
  }

  for (std::uint64_t now = 0; now < 3000; ++now) {
    a.step();
    for (int i = 0; i < b.blocks(); ++i) b.step_as<sysc::LinkBlock>(b.block(i), i, now);
    b.set_now(now + 1);
    for (int l = 0; l < a.links(); ++l) {
      ASSERT_EQ(a.link_flits(l), b.link_flits(l)) << "link " << l << " in cycle " << now;
    }
  }
  std::uint64_t received = 0;
  for (int node = 0; node < n; ++node) {
    EXPECT_EQ(direct.endpoint(node).flits_received(), generic.endpoint(node).flits_received()) << node;
    received += direct.endpoint(node).flits_received();
  }
  EXPECT_EQ(received, flits);   // every packet delivered in the 3,000 cycles
  EXPECT_EQ(a.ticks_done(), b.ticks_done());
  EXPECT_EQ(a.ticks_skipped(), b.ticks_skipped());
  for (int i = 0; i < a.blocks(); ++i) {
    for (int p = 0; p < a.block(i).ports(); ++p) {
      EXPECT_EQ(a.stalls_credit({i, p}), b.stalls_credit({i, p})) << a.block_name(i) << "." << p;
      EXPECT_EQ(a.stalls_sa({i, p}), b.stalls_sa({i, p})) << a.block_name(i) << "." << p;
    }
  }
}

}  // namespace
}  // namespace hxemu::test
