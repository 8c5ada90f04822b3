// tb::pattern_bound (the channel-load bound hxemu signoff reports beside each saturation figure)
// against values worked out by hand and against the tests' own channel-load count
// (traffic_test_util.h, max_channel_load: one trace_path per source).
#include <gtest/gtest.h>

#include <random>

#include "tb/traffic/logical_grid.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic/pattern_bound.h"
#include "tests/tb/traffic/traffic_test_util.h"

namespace hxemu::test {
namespace {

// Uniform traffic on a k x k mesh under XY routing: the middle X links of a row carry
// (k/2)(k/2)/k = k/4 flits per cycle per unit of injection, so the bound is the bisection bound 4/k.
TEST(PatternBound, UniformOnAnEightByEightMeshIsTheBisectionBound) {
  const tb::TrafficSystem ts(shipped("mesh-8x8"));
  const auto b = tb::pattern_bound(ts.sys(), "uniform", 1);
  ASSERT_TRUE(b.known);
  EXPECT_NEAR(b.max_link_load, 2.0, 1e-9);
  EXPECT_NEAR(b.throughput, 0.5, 1e-9);
}

// Permutations: the same busiest-link load as one traced path per source.
TEST(PatternBound, PermutationsMatchTheTracedChannelLoad) {
  for (const std::string name : {"mesh-8x8", "hx2mesh-64", "torus-64"}) {
    for (const std::string pattern : {"transpose", "bitcomp", "randperm", "tornado"}) {
      SCOPED_TRACE(name + " " + pattern);
      const auto cfg = shipped(name);
      const tb::TrafficSystem ts(cfg);
      const tb::LogicalGrid grid(ts.sys());
      const tb::TrafficPattern p(pattern, grid, 7);
      std::mt19937_64 rng(1);
      const ChannelLoad cl = max_channel_load(cfg, [&](int src) { return p.destination(src, rng); });
      const auto b = tb::pattern_bound(ts.sys(), pattern, 7);
      ASSERT_TRUE(b.known);
      EXPECT_NEAR(b.max_link_load, cl.max_load, 1e-9);
      EXPECT_NEAR(b.throughput, std::min(1.0, cl.bound()), 1e-9);
    }
  }
}

// Uniform traffic never beats the injection port; hotspot traffic gets no bound.
TEST(PatternBound, CappedAtTheEndpointAndNoneForHotspot) {
  const tb::TrafficSystem ts(shipped("hx2mesh-16"));
  const auto u = tb::pattern_bound(ts.sys(), "uniform", 1);
  ASSERT_TRUE(u.known);
  EXPECT_LE(u.throughput, 1.0);
  EXPECT_GE(u.max_link_load, 1.0);   // every node's ejection link receives 1 flit/cycle
  const auto h = tb::pattern_bound(ts.sys(), "hotspot:0.5:0", 1);
  EXPECT_FALSE(h.known);
  EXPECT_FALSE(h.why.empty());
  EXPECT_THROW(tb::pattern_bound(ts.sys(), "nonsense", 1), std::invalid_argument);
}

}  // namespace
}  // namespace hxemu::test
