// Unit tests of the pieces of the synthetic-traffic layer, each against values worked out by hand:
// load lists (parse_loads), packet lengths (PacketSize), destination maps (TrafficPattern), latency
// statistics (LatencyStats), the scoreboard's checks, and the logical grid of a HammingMesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "sysc/system/system_config.h"
#include "tests/util/system_test_util.h"
#include "tb/event_log.h"
#include "tb/scoreboard.h"
#include "tb/stats/latency_stats.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic/sweep.h"
#include "tb/traffic/random_draw.h"
#include "tb/traffic_system.h"

namespace hxemu::test {
namespace {

// The message of the std::invalid_argument `f` throws ("" if it throws nothing; other exception
// types fail the test).
::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

template <typename F>
std::string invalid_argument_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// ---- parse_loads ------------------------------------------------------------------------------

TEST(ParseLoads, RangeIncludesBothEnds) {
  const auto v = tb::parse_loads("0.05:0.8:0.05");
  ASSERT_EQ(v.size(), 16u);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], 0.05 * static_cast<double>(i + 1), 1e-9);
  EXPECT_DOUBLE_EQ(v.front(), 0.05);
  EXPECT_DOUBLE_EQ(v.back(), 0.8);
  // 0.1 + 2 x 0.1 is 0.30000000000000004 in binary: the end is still included, and rounded.
  EXPECT_EQ(tb::parse_loads("0.1:0.3:0.1"), (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(tb::parse_loads("0.2:0.2:0.1"), (std::vector<double>{0.2}));
  // The end need not be on the grid of steps.
  EXPECT_EQ(tb::parse_loads("0.1:0.35:0.1"), (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(tb::parse_loads("0.001:1:0.001").size(), 1000u);
}

TEST(ParseLoads, CommaListAndSingleValue) {
  EXPECT_EQ(tb::parse_loads("0.1,0.2,0.5"), (std::vector<double>{0.1, 0.2, 0.5}));
  EXPECT_EQ(tb::parse_loads("0.3"), (std::vector<double>{0.3}));
  EXPECT_EQ(tb::parse_loads("1"), (std::vector<double>{1.0}));
  EXPECT_EQ(tb::parse_loads("5e-2"), (std::vector<double>{0.05}));
}

TEST(ParseLoads, BadSpecsThrowNamingTheSpec) {
  const char* bad[] = {"",          "0",          "1.5",          "-0.1",          "abc",
                       "0.1:0.2",   "0.1:0.2:0.1:0.3", "0.5:0.1:0.1", "0.1,,0.2", ",0.1",
                       "0.1x",      "0.1:0.2:0",  "0.1:0.3:abc",  "0.0001:0.2:0.0001", "nan"};
  for (const char* spec : bad) {
    const std::string msg = invalid_argument_of([&] { tb::parse_loads(spec); });
    EXPECT_TRUE(contains(msg, std::string("'") + spec + "'")) << "spec '" << spec << "'";
  }
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::parse_loads("0.5:0.1:0.1"); }), "END is below START"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::parse_loads("0.1:0.2"); }), "START:END:STEP"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::parse_loads("0.0001:0.2:0.0001"); }), "1000"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::parse_loads("1.5"); }), "(0, 1]"));
}

// A separator with nothing after it is as malformed as one with nothing before it (",0.1" and
// "0.1,,0.2" are rejected).
TEST(ParseLoads, TrailingSeparatorIsAnError) {
  for (const char* spec : {"0.1,0.2,", "0.1:0.2:0.1:"}) {
    EXPECT_TRUE(contains(invalid_argument_of([&] { tb::parse_loads(spec); }), std::string("'") + spec + "'"))
        << "'" << spec << "' accepted as " << tb::parse_loads(spec).size() << " loads";
  }
}

// geometric_gap is the inversion the arrival processes used with the standard distribution, and
// its two ends: every cycle, and never.
TEST(GeometricGap, SameGapsAsTheStandardInversion) {
  for (const double p : {0.3 / 4, 0.5, 0.99}) {
    std::mt19937_64 a(7), b(7);
    std::uniform_real_distribution<double> dist(0.0, 1.0);
    for (int i = 0; i < 100000; ++i) {
      const auto want =
          static_cast<std::uint64_t>(std::floor(std::log1p(-dist(a)) / std::log1p(-p)));
      ASSERT_EQ(hxemu::tb::geometric_gap(b, p, std::log1p(-p)), want) << "p " << p << " draw " << i;
    }
  }
  std::mt19937_64 g(1);
  EXPECT_EQ(hxemu::tb::geometric_gap(g, 1.0, std::log1p(-1.0)), 0u);
  EXPECT_EQ(hxemu::tb::geometric_gap(g, 0.0, 0.0), ~std::uint64_t{0} >> 2);
  EXPECT_EQ(g(), std::mt19937_64(1)());   // neither end draws
}

// ---- PacketSize -------------------------------------------------------------------------------

// unit_uniform gives the value std::uniform_real_distribution<double>(0, 1) gives from the same
// generator state (the traffic's packets depend on it), and stays below 1 where a draw rounds up.
TEST(UnitUniform, SameDrawsAsTheStandardDistribution) {
  std::mt19937_64 a(12345), b(12345);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  for (int i = 0; i < 1000000; ++i) {
    const double want = dist(a);
    const double got = hxemu::tb::unit_uniform(b);
    ASSERT_EQ(want, got) << "draw " << i;
  }
  EXPECT_EQ(a(), b());   // both took one number per draw
}

TEST(UnitUniform, DrawsThatRoundUpToOneStayBelowIt) {
  // A generator whose numbers are the top of the range: 2^64 - 1 rounds to 2^64 as a double, so
  // the scaled value is 1; the standard's answer (and this one) is the largest double below 1.
  struct Top {
    using result_type = std::uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type next = ~result_type{0};
    result_type operator()() { return next--; }
  };
  Top a, b;
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  for (int i = 0; i < 4096; ++i) {
    const double want = dist(a);
    const double got = hxemu::tb::unit_uniform(b);
    ASSERT_EQ(want, got) << "draw " << i;
    ASSERT_LT(got, 1.0);
  }
}

TEST(PacketSize, FixedLength) {
  const tb::PacketSize s("4", 16);
  EXPECT_DOUBLE_EQ(s.mean(), 4.0);
  EXPECT_EQ(s.max(), 4);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(s.draw(rng), 4);
  EXPECT_EQ(tb::PacketSize("1", 16).draw(rng), 1);
  EXPECT_EQ(tb::PacketSize("16", 16).draw(rng), 16);
}

TEST(PacketSize, UniformCoversTheRangeWithTheRightMean) {
  const tb::PacketSize s("uniform:2:8", 16);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_EQ(s.max(), 8);
  std::mt19937_64 rng(7);
  std::map<int, int> count;
  const int n = 70000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const int f = s.draw(rng);
    ASSERT_GE(f, 2);
    ASSERT_LE(f, 8);
    ++count[f];
    sum += f;
  }
  EXPECT_EQ(count.size(), 7u);
  // Each length has probability 1/7: 10,000 expected, sd ~ 92.
  for (const auto& [len, c] : count) EXPECT_NEAR(c, n / 7, 500) << len;
  EXPECT_NEAR(sum / n, 5.0, 0.03);   // sd of the mean ~ 2/sqrt(70000) = 0.0076
}

TEST(PacketSize, BimodalMixesTheTwoLengths) {
  const tb::PacketSize s("bimodal:2:16:0.8", 16);
  EXPECT_DOUBLE_EQ(s.mean(), 0.8 * 2 + 0.2 * 16);
  EXPECT_EQ(s.max(), 16);
  std::mt19937_64 rng(3);
  const int n = 50000;
  int shorts = 0;
  for (int i = 0; i < n; ++i) {
    const int f = s.draw(rng);
    ASSERT_TRUE(f == 2 || f == 16) << f;
    shorts += f == 2;
  }
  EXPECT_NEAR(static_cast<double>(shorts) / n, 0.8, 0.008);   // sd 0.0018
  EXPECT_DOUBLE_EQ(tb::PacketSize("bimodal:3:9:1", 16).mean(), 3.0);
  EXPECT_DOUBLE_EQ(tb::PacketSize("bimodal:3:9:0", 16).mean(), 9.0);
}

TEST(PacketSize, BadSpecsThrowNamingTheSpecAndTheForms) {
  const char* bad[] = {"0",          "17",          "-4",          "4x",           "",
                       "uniform:2",  "uniform:8:2", "uniform:0:4", "uniform:2:99", "bimodal:2:16",
                       "bimodal:2:16:1.5", "bimodal:2:16:x", "gauss:4:1", "uniform:2:8:9"};
  for (const char* spec : bad) {
    const std::string msg = invalid_argument_of([&] { tb::PacketSize(spec, 16); });
    EXPECT_TRUE(contains(msg, std::string("'") + spec + "'")) << "spec '" << spec << "'";
  }
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::PacketSize("17", 16); }), "1..16"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::PacketSize("gauss:4:1", 16); }), "N, uniform:MIN:MAX, bimodal:A:B:P"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::PacketSize("uniform:8:2", 16); }), "MIN > MAX"));
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::PacketSize("bimodal:2:16:1.5", 16); }), "0..1"));
}

// Numbers are read whole: "0.8x" is no more a probability than "4x" is a length.
TEST(PacketSize, TrailingGarbageInProbabilityIsAnError) {
  EXPECT_TRUE(contains(invalid_argument_of([] { tb::PacketSize("bimodal:2:16:0.8x", 16); }),
                       "'bimodal:2:16:0.8x'"));
}

// ---- TrafficPattern ---------------------------------------------------------------------------

// A single-board mesh of rows x cols: node id = row * cols + col = logical index.
sysc::SystemConfig mesh(int rows, int cols) {
  return sysc::parse_system_config(
      "{\"topology\": \"hxmesh\", \"board\": {\"rows\": " + std::to_string(rows) +
          ", \"cols\": " + std::to_string(cols) + "}, \"grid\": {\"rows\": 1, \"cols\": 1}}",
      "test");
}

// Node ids, logical grid and pattern of one system (the pattern keeps a pointer to the grid).
struct PatternBench {
  explicit PatternBench(const sysc::SystemConfig& cfg) : ts(cfg), grid(ts.sys()) {}
  std::vector<int> map(const std::string& spec, std::uint64_t seed = 1) {
    const tb::TrafficPattern p(spec, grid, seed);
    std::mt19937_64 rng(99);
    std::vector<int> out;
    for (int n = 0; n < grid.nodes(); ++n) out.push_back(p.destination(n, rng));
    return out;
  }
  tb::TrafficSystem ts;
  tb::LogicalGrid grid;
};

TEST(TrafficPattern, TransposeSwapsRowAndColumn) {
  PatternBench b(mesh(4, 4));
  const auto d = b.map("transpose");
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_EQ(d[r * 4 + c], c * 4 + r) << r << "," << c;
  }
  EXPECT_EQ(d[1], 4);
  EXPECT_EQ(d[7], 13);
  EXPECT_EQ(d[10], 10);   // the diagonal sends to itself
}

// On hx2mesh-16 node ids are board-major, so a transpose moves between boards: (r, c) -> (c, r) in
// global accelerator coordinates (grid_row * 2 + local_row, grid_col * 2 + local_col), computed
// here from System::coord without the LogicalGrid.
TEST(TrafficPattern, TransposeOnHx2Mesh16UsesGlobalCoordinates) {
  PatternBench b(shipped("hx2mesh-16"));
  const auto& sys = b.ts.sys();
  auto global = [&](int node) {
    const auto p = sys.coord(node);
    return std::make_pair(p.grid_row * 2 + p.local_row, p.grid_col * 2 + p.local_col);
  };
  const auto d = b.map("transpose");
  for (int n = 0; n < 16; ++n) {
    const auto [r, c] = global(n);
    const auto [dr, dc] = global(d[n]);
    EXPECT_EQ(dr, c) << n;
    EXPECT_EQ(dc, r) << n;
  }
  EXPECT_EQ(d[1], 2);    // (0,1) on board 0 -> (1,0) on board 0
  EXPECT_EQ(d[4], 8);    // (0,2), board 1 -> (2,0), board 2
  EXPECT_EQ(d[7], 11);   // (1,3), board 1 -> (3,1), board 2: node 8 + 1 * 2 + 1
}

TEST(TrafficPattern, BitPatternsOnLogicalIndices) {
  PatternBench b(mesh(4, 4));   // 16 nodes, 4 bits; node = index
  const auto comp = b.map("bitcomp");
  const auto rev = b.map("bitrev");
  const auto shuf = b.map("shuffle");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(comp[i], 15 - i);
  const std::vector<int> want_rev = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  EXPECT_EQ(rev, want_rev);
  // Rotate left by one bit within 4 bits: 0b1001 -> 0b0011.
  const std::vector<int> want_shuf = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
  EXPECT_EQ(shuf, want_shuf);
}

TEST(TrafficPattern, BitcompOnHx2Mesh16MirrorsTheGlobalGrid) {
  PatternBench b(shipped("hx2mesh-16"));
  const auto& sys = b.ts.sys();
  const auto d = b.map("bitcomp");
  for (int n = 0; n < 16; ++n) {
    const auto s = sys.coord(n), t = sys.coord(d[n]);
    EXPECT_EQ(t.grid_row * 2 + t.local_row, 3 - (s.grid_row * 2 + s.local_row)) << n;
    EXPECT_EQ(t.grid_col * 2 + t.local_col, 3 - (s.grid_col * 2 + s.local_col)) << n;
  }
}

TEST(TrafficPattern, TornadoAndNeighbor) {
  PatternBench b(shipped("mesh-8x8"));
  const auto tor = b.map("tornado");
  const auto nb = b.map("neighbor");
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) {
      // ceil(8/2) - 1 = 3 positions on in each dimension.
      EXPECT_EQ(tor[r * 8 + c], ((r + 3) % 8) * 8 + (c + 3) % 8);
      EXPECT_EQ(nb[r * 8 + c], ((r + 1) % 8) * 8 + (c + 1) % 8);
    }
  }
  EXPECT_EQ(tor[0], 27);
  EXPECT_EQ(nb[63], 0);
  // 3 x 5: ceil(3/2) - 1 = 1 row on, ceil(5/2) - 1 = 2 columns on.
  PatternBench odd(mesh(3, 5));
  const auto t2 = odd.map("tornado");
  EXPECT_EQ(t2[0], 1 * 5 + 2);
  EXPECT_EQ(t2[2 * 5 + 4], 0 * 5 + 1);
}

// shift:K moves every logical index K on, wrapping; K must be in 1..nodes-1.
TEST(TrafficPattern, ShiftMovesEveryIndexKOn) {
  PatternBench b(shipped("mesh-8x8"));
  const auto s8 = b.map("shift:8");
  for (int i = 0; i < 64; ++i) EXPECT_EQ(s8[i], (i + 8) % 64) << i;
  EXPECT_EQ(b.map("shift:63")[0], 63);
  for (const char* bad : {"shift", "shift:0", "shift:64", "shift:x", "shift:1:2"}) {
    EXPECT_THROW(b.map(bad), std::invalid_argument) << bad;
  }
}

TEST(TrafficPattern, UniformNoSelfNeverReturnsTheSource) {
  PatternBench b(mesh(4, 4));
  const tb::TrafficPattern noself("uniform-noself", b.grid, 1);
  const tb::TrafficPattern self("uniform", b.grid, 1);
  EXPECT_FALSE(noself.includes_self());
  EXPECT_TRUE(self.includes_self());
  std::mt19937_64 rng(5);
  for (int src = 0; src < 16; ++src) {
    std::vector<int> seen(16, 0), seen_self(16, 0);
    for (int i = 0; i < 3000; ++i) {
      const int d = noself.destination(src, rng);
      ASSERT_GE(d, 0);
      ASSERT_LT(d, 16);
      ASSERT_NE(d, src);
      ++seen[d];
      ++seen_self[self.destination(src, rng)];
    }
    // Every other node about 3000/15 = 200 times (sd 14); with self, 3000/16 = 187.5 (sd 13).
    for (int d = 0; d < 16; ++d) {
      if (d != src) EXPECT_NEAR(seen[d], 200, 70) << src << " -> " << d;
      EXPECT_NEAR(seen_self[d], 187.5, 70) << src << " -> " << d;
    }
  }
}

TEST(TrafficPattern, HotspotSendsTheFractionToTheHotNodes) {
  PatternBench b(mesh(4, 4));
  const tb::TrafficPattern p("hotspot:0.2:0,5", b.grid, 1);
  std::mt19937_64 rng(11);
  const int n = 100000;
  std::vector<int> count(16, 0);
  for (int i = 0; i < n; ++i) ++count[p.destination(3, rng)];
  // P(0) = P(5) = 0.2 / 2 + 0.8 / 16 = 0.15; any other node 0.8 / 16 = 0.05 (self included).
  for (int d = 0; d < 16; ++d) {
    const double want = (d == 0 || d == 5) ? 0.15 : 0.05;
    const double sd = std::sqrt(want * (1 - want) / n);
    EXPECT_NEAR(static_cast<double>(count[d]) / n, want, 5 * sd) << d;
  }
  // Hot node ids are node ids (not logical indices): on hx2mesh-16 node 5 is at index 3.
  PatternBench hx(shipped("hx2mesh-16"));
  const tb::TrafficPattern all_hot("hotspot:1:5", hx.grid, 1);
  for (int src = 0; src < 16; ++src) EXPECT_EQ(all_hot.destination(src, rng), 5);
}

TEST(TrafficPattern, RandpermIsASeededPermutation) {
  PatternBench b(shipped("hx2mesh-16"));
  const auto a = b.map("randperm", 7);
  const auto again = b.map("randperm", 7);
  const auto other = b.map("randperm", 8);
  EXPECT_EQ(a, again);
  EXPECT_NE(a, other);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(sorted[i], i);
  // Fixed for the run: the per-packet random stream does not change it.
  const tb::TrafficPattern p("randperm", b.grid, 7);
  std::mt19937_64 rng(1234);
  for (int src = 0; src < 16; ++src) EXPECT_EQ(p.destination(src, rng), a[src]);
}

TEST(TrafficPattern, BadSpecsThrowNamingThePatternAndWhatItNeeds) {
  PatternBench rect(mesh(2, 4));    // 8 nodes, not square
  PatternBench six(mesh(2, 3));     // 6 nodes, not a power of two
  auto err = [](const tb::LogicalGrid& g, const std::string& spec) {
    return invalid_argument_of([&] { tb::TrafficPattern(spec, g, 1); });
  };
  EXPECT_TRUE(contains(err(rect.grid, "transpose"), "transpose needs a square node grid"));
  EXPECT_TRUE(contains(err(rect.grid, "transpose"), "2x4"));
  for (const char* p : {"bitcomp", "bitrev", "shuffle"}) {
    EXPECT_TRUE(contains(err(six.grid, p), std::string(p) + " needs a power-of-two node count"));
    EXPECT_TRUE(contains(err(six.grid, p), "6"));
    EXPECT_EQ(err(rect.grid, p), "") << p;   // 8 nodes is fine
  }
  EXPECT_EQ(err(six.grid, "tornado"), "");
  EXPECT_EQ(err(six.grid, "neighbor"), "");
  EXPECT_EQ(err(six.grid, "randperm"), "");
  EXPECT_TRUE(contains(err(six.grid, "zigzag"), "unknown pattern 'zigzag'"));
  EXPECT_TRUE(contains(err(six.grid, "zigzag"), "uniform, uniform-noself, transpose"));
  EXPECT_TRUE(contains(err(six.grid, "uniform:3"), "takes no arguments"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:0.2"), "hotspot:FRACTION:NODE"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:1.2:0"), "0..1"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:x:0"), "'x'"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:0.2:6"), "'6' is not a node id in 0..5"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:0.2:1,,2"), "''"));
  EXPECT_TRUE(contains(err(six.grid, "hotspot:0.2:3x"), "'3x'"));
}

// The hot-node list rejects "3x"; the fraction should reject "0.2x" alike.
TEST(TrafficPattern, TrailingGarbageInHotspotFractionIsAnError) {
  PatternBench b(mesh(2, 2));
  EXPECT_TRUE(contains(invalid_argument_of([&] { tb::TrafficPattern("hotspot:0.2x:0", b.grid, 1); }),
                       "'0.2x'"));
}

// ---- LatencyStats -----------------------------------------------------------------------------

TEST(LatencyStats, PercentilesOfOneToHundred) {
  tb::LatencyStats s;
  for (std::uint64_t v = 100; v >= 1; --v) s.add(v);   // unsorted on purpose
  EXPECT_EQ(s.count(), 100u);
  EXPECT_DOUBLE_EQ(s.mean(), 50.5);
  EXPECT_EQ(s.min(), 1u);
  EXPECT_EQ(s.max(), 100u);
  EXPECT_EQ(s.percentile(0.0), 1u);
  EXPECT_EQ(s.percentile(0.01), 1u);
  EXPECT_EQ(s.percentile(0.5), 50u);
  EXPECT_EQ(s.percentile(0.505), 51u);
  EXPECT_EQ(s.percentile(0.99), 99u);
  EXPECT_EQ(s.percentile(0.999), 100u);
  EXPECT_EQ(s.percentile(1.0), 100u);
  // Adding after a query re-sorts.
  s.add(0);
  EXPECT_EQ(s.min(), 0u);
  EXPECT_EQ(s.percentile(0.5), 50u);   // 101 samples 0..100: the 51st is 50
}

TEST(LatencyStats, HistogramOnKnownData) {
  tb::LatencyStats s;
  for (std::uint64_t v = 1; v <= 100; ++v) s.add(v);
  // Range 99 over at most 20 bins: width (99 + 20) / 20 = 5, edges 1, 6, ..., 96, 5 samples each.
  const auto h = s.histogram(20);
  ASSERT_EQ(h.size(), 20u);
  for (std::size_t i = 0; i < h.size(); ++i) {
    EXPECT_EQ(h[i].first, 1 + 5 * i);
    EXPECT_EQ(h[i].second, 5u);
  }
  tb::LatencyStats t;
  for (std::uint64_t v : {10, 10, 10, 20, 13}) t.add(v);
  const auto g = t.histogram(20);   // width 1: edges 10..20
  ASSERT_EQ(g.size(), 11u);
  EXPECT_EQ(g[0], (std::pair<std::uint64_t, std::uint64_t>{10, 3}));
  EXPECT_EQ(g[3], (std::pair<std::uint64_t, std::uint64_t>{13, 1}));
  EXPECT_EQ(g[10], (std::pair<std::uint64_t, std::uint64_t>{20, 1}));
  std::uint64_t total = 0;
  for (const auto& [edge, n] : t.histogram(3)) total += n;   // width 4: 10, 14, 18
  EXPECT_EQ(t.histogram(3).size(), 3u);
  EXPECT_EQ(total, 5u);
  // Never more bins than asked, and every sample counted, over many ranges.
  for (std::uint64_t range = 0; range < 200; ++range) {
    tb::LatencyStats r;
    r.add(7);
    r.add(7 + range);
    r.add(7 + range / 2);
    for (int bins : {1, 3, 20}) {
      const auto hb = r.histogram(bins);
      ASSERT_LE(hb.size(), static_cast<std::size_t>(bins)) << range;
      std::uint64_t sum = 0;
      for (const auto& e : hb) sum += e.second;
      ASSERT_EQ(sum, 3u) << range;
    }
  }
}

TEST(LatencyStats, EmptyAndJson) {
  tb::LatencyStats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.min(), 0u);
  EXPECT_EQ(s.percentile(0.5), 0u);
  EXPECT_TRUE(s.histogram().empty());
  for (std::uint64_t v : {24, 24, 27, 30, 100}) s.add(v);
  const auto j = s.json();
  EXPECT_EQ(j["count"], 5);
  EXPECT_EQ(j["min"], 24);
  EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 41.0);
  EXPECT_EQ(j["p50"], 27);
  EXPECT_EQ(j["p99"], 100);
  EXPECT_EQ(j["max"], 100);
  EXPECT_EQ(j["histogram"].size(), 20u);   // range 76: width 4, edges 24..100
}

// Counts per value: samples far beyond the dense range, merging and a round trip through the
// byte string an MPI gather carries give the statistics of all the samples added in one place.
TEST(LatencyStats, MergeAndEncodeKeepEverySample) {
  tb::LatencyStats all, a, b;
  const std::uint64_t values[] = {5, 5, 9, 70000, 12, 5, 1000000, 70000, 3};
  for (std::size_t i = 0; i < std::size(values); ++i) {
    all.add(values[i]);
    (i % 2 ? a : b).add(values[i]);
  }
  tb::LatencyStats merged = a;
  merged.merge(b);
  tb::LatencyStats decoded;
  decoded.merge_encoded(a.encode());
  decoded.merge_encoded(b.encode());
  for (const tb::LatencyStats* s : {&merged, &decoded}) {
    EXPECT_EQ(s->json(), all.json());
    EXPECT_EQ(s->count(), 9u);
    EXPECT_EQ(s->min(), 3u);
    EXPECT_EQ(s->max(), 1000000u);
    EXPECT_EQ(s->percentile(0.5), 9u);
    EXPECT_EQ(s->percentile(0.8), 70000u);
  }
  EXPECT_THROW(decoded.merge_encoded("abc"), std::invalid_argument);
}

// ---- Scoreboard -------------------------------------------------------------------------------

tb::PacketSpec spec(std::uint64_t id, int src, int dst, int flits = 4) {
  tb::PacketSpec p;
  p.id = id;
  p.src = src;
  p.dst = dst;
  p.flits = flits;
  p.created = 10 * id;
  return p;
}

tb::Delivery delivery_of(const tb::PacketSpec& p, int vc = 0) {
  tb::Delivery d;
  d.id = p.id;
  d.src = p.src;
  d.dst = p.dst;
  d.header_dst = p.dst;
  d.flits = p.flits;
  d.vc = vc;
  d.created = p.created;
  d.head_arrival = p.created + 20;
  d.tail_arrival = p.created + 23;
  return d;
}

bool any_error_contains(const tb::Scoreboard& sb, const std::string& what) {
  for (const auto& e : sb.errors()) {
    if (e.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(Scoreboard, CleanRunCountsEverything) {
  tb::Scoreboard sb;
  for (std::uint64_t i = 0; i < 4; ++i) sb.expect(spec(i, 1, 2));
  EXPECT_EQ(sb.created(), 4u);
  EXPECT_EQ(sb.outstanding(), 4u);
  sb.injected(1, 0, 5);
  sb.delivered(delivery_of(spec(0, 1, 2)));
  sb.delivered(delivery_of(spec(2, 1, 2)));
  EXPECT_EQ(sb.delivered_count(), 2u);
  EXPECT_EQ(sb.outstanding(), 2u);
  EXPECT_TRUE(sb.clean());
  EXPECT_EQ(sb.record(0).injected, 5u);
  EXPECT_EQ(sb.record(0).deliveries, 1);
  EXPECT_EQ(sb.record(2).delivery.tail_arrival, 43u);
  EXPECT_TRUE(contains(sb.history(0), "packet 0 (1 -> 2, 4 flits): created 0, head left source 5"));
  EXPECT_TRUE(contains(sb.history(1), "not injected"));
  EXPECT_TRUE(contains(sb.history(1), "not delivered"));
}

// Records created ahead of time leave the table while a check looks at it and come back intact;
// records of packets that exist are not touched, and a gap in the ids is an error.
TEST(Scoreboard, RecordsTakenOutAndPutBackKeepTheirIds) {
  tb::Scoreboard sb;
  for (std::uint64_t i = 0; i < 5; ++i) sb.expect(spec(i, 1, 2));
  sb.delivered(delivery_of(spec(1, 1, 2)));
  std::vector<tb::PacketRecord> ahead;
  sb.take_from(3, ahead);
  ASSERT_EQ(ahead.size(), 2u);
  EXPECT_EQ(ahead[0].spec.id, 3u);
  EXPECT_EQ(ahead[1].spec.created, 40u);
  EXPECT_EQ(sb.created(), 3u);
  EXPECT_EQ(sb.outstanding(), 2u);   // 0 and 2; 1 is delivered
  EXPECT_EQ(sb.record(1).deliveries, 1);
  sb.put_back(ahead);
  EXPECT_EQ(sb.created(), 5u);
  EXPECT_EQ(sb.outstanding(), 4u);
  EXPECT_EQ(sb.record(4).spec.created, 40u);
  EXPECT_TRUE(sb.clean());
  sb.take_from(9, ahead);   // past the end: nothing
  EXPECT_TRUE(ahead.empty());
  EXPECT_EQ(sb.created(), 5u);
  sb.take_from(2, ahead);
  sb.take_from(2, ahead);   // nothing left from 2 on: the first three are gone with the first call
  EXPECT_TRUE(ahead.empty());
  std::vector<tb::PacketRecord> gap(1);
  gap[0].spec = spec(7, 1, 2);
  sb.put_back(gap);
  EXPECT_TRUE(any_error_contains(sb, "packet ids must be consecutive: got 7"));
  EXPECT_EQ(sb.created(), 2u);
}

// The partitions' logs reach the scoreboard by cycle, ties in partition order and then in the order
// each log has them (faults show the order: the scoreboard lists them as they come), whether the
// cycles are few (counted into place) or far apart (sorted); and the logs are empty afterwards.
TEST(PartitionEvents, HandOverByCycleThenPartitionThenLogOrder) {
  for (const std::uint64_t far : {std::uint64_t{0}, std::uint64_t{1000000}}) {
    tb::PartitionEvents events;
    std::uint64_t clock[3] = {0, 0, 0};
    tb::EventLog* log[3];
    for (int p = 0; p < 3; ++p) log[p] = &events.log(p, &clock[p]);
    auto at = [&](int p, std::uint64_t cycle, const char* what) {
      clock[p] = cycle;
      log[p]->fault(p, what);
    };
    at(2, 5, "c");
    at(0, 7, "e");
    at(1, 5, "b");
    at(0, 5, "a");
    at(2, 3, "start");
    at(2, 7, "f");
    at(1, 9 + far, "g");   // far: a million cycles after the others
    at(0, 7, "e2");
    tb::Scoreboard sb;
    events.flush(sb);
    std::string order;
    for (const auto& e : sb.errors()) order += e.substr(e.find(": ") + 2) + " ";
    EXPECT_EQ(order, "start a b c e e2 f g ") << "last event " << far << " cycles later";
    for (int p = 0; p < 3; ++p) EXPECT_TRUE(log[p]->events().empty());
    events.flush(sb);   // nothing logged: nothing handed over
    EXPECT_EQ(sb.errors().size(), 8u);
  }
}

// What one rank's logs send another under mpirun (PartitionEvents::encode / append_encoded): every
// event as logged, faults with their texts, taking their places by cycle and partition among the
// receiver's own; a message cut short is an error, not a read past its end.
TEST(PartitionEvents, EncodedEventsArriveAsLoggedWithTheirFaultTexts) {
  std::uint64_t clock[3] = {0, 0, 0};
  tb::PartitionEvents sender, receiver;
  for (int p : {0, 2}) sender.log(p, &clock[p]);
  receiver.log(1, &clock[1]);
  const tb::PacketSpec s0 = spec(0, 1, 2), s1 = spec(1, 3, 4);
  clock[2] = 3;
  sender.log(2, nullptr).fault(2, "start");
  sender.log(0, nullptr).injected(1, 0, 1);
  sender.log(0, nullptr).cable(0, 10, 4);
  clock[0] = 5;
  sender.log(0, nullptr).fault(0, "a with a text longer than a short string's buffer");
  sender.log(2, nullptr).delivered(delivery_of(s0));   // tail at 23
  clock[1] = 4;
  receiver.log(1, nullptr).fault(1, "b");
  receiver.log(1, nullptr).injected(3, 1, 11);
  // The receiver's own text in a log that the message adds to (its index must not be reused).
  receiver.log(0, &clock[0]);
  clock[0] = 2;
  receiver.log(0, nullptr).fault(0, "zero");

  std::string msg;
  sender.encode(msg);
  tb::PartitionEvents cut;
  EXPECT_THROW(cut.append_encoded(msg, 0, msg.size() - 1), std::runtime_error);
  receiver.append_encoded(msg, 0, msg.size());
  tb::Scoreboard sb;
  sb.expect(s0);
  sb.expect(s1);
  receiver.flush(sb);
  std::string order;
  for (const auto& e : sb.errors()) order += e.substr(e.find(": ") + 2) + " | ";
  EXPECT_EQ(order, "zero | start | b | a with a text longer than a short string's buffer | ");
  EXPECT_EQ(sb.record(0).injected, 1u);
  EXPECT_EQ(sb.record(0).tree_enter, 5u);
  EXPECT_EQ(sb.record(0).tree_exit, 15u);
  EXPECT_EQ(sb.record(0).deliveries, 1);
  EXPECT_EQ(sb.record(0).delivery.tail_arrival, 23u);
  EXPECT_EQ(sb.record(1).injected, 11u);
  EXPECT_EQ(sb.delivered_count(), 1u);
}

TEST(Scoreboard, DuplicateDeliveryIsAnError) {
  tb::Scoreboard sb;
  sb.expect(spec(0, 1, 2));
  sb.delivered(delivery_of(spec(0, 1, 2)));
  EXPECT_TRUE(sb.clean());
  sb.delivered(delivery_of(spec(0, 1, 2)));
  ASSERT_FALSE(sb.clean());
  EXPECT_TRUE(any_error_contains(sb, "duplicate delivery: packet 0")) << sb.errors()[0];
  EXPECT_TRUE(contains(sb.errors()[0], "(2x)"));
  EXPECT_EQ(sb.delivered_count(), 1u);
}

TEST(Scoreboard, MisrouteIsAnError) {
  tb::Scoreboard sb;
  sb.expect(spec(0, 1, 2));
  sb.expect(spec(1, 1, 2));
  tb::Delivery wrong_node = delivery_of(spec(0, 1, 2));
  wrong_node.dst = 3;   // arrived elsewhere
  sb.delivered(wrong_node);
  EXPECT_TRUE(any_error_contains(sb, "misrouted: packet 0"));
  EXPECT_TRUE(contains(sb.errors()[0], "delivered to 3"));
  tb::Delivery wrong_header = delivery_of(spec(1, 1, 2));
  wrong_header.header_dst = 5;   // header rewritten in flight
  sb.delivered(wrong_header);
  EXPECT_TRUE(any_error_contains(sb, "misrouted: packet 1"));
}

TEST(Scoreboard, CorruptionIsAnError) {
  tb::Scoreboard sb;
  for (std::uint64_t i = 0; i < 3; ++i) sb.expect(spec(i, 1, 2));
  tb::Delivery bad_payload = delivery_of(spec(0, 1, 2));
  bad_payload.intact = false;
  sb.delivered(bad_payload);
  EXPECT_TRUE(any_error_contains(sb, "payload or header corrupted: packet 0"));
  EXPECT_TRUE(any_error_contains(sb, "CORRUPTED"));
  tb::Delivery bad_src = delivery_of(spec(1, 1, 2));
  bad_src.src = 0;
  sb.delivered(bad_src);
  EXPECT_TRUE(any_error_contains(sb, "payload or header corrupted: packet 1"));
  tb::Delivery short_packet = delivery_of(spec(2, 1, 2));
  short_packet.flits = 3;
  sb.delivered(short_packet);
  EXPECT_TRUE(any_error_contains(sb, "payload or header corrupted: packet 2"));
  EXPECT_EQ(sb.errors().size(), 3u);
}

TEST(Scoreboard, UnknownPacketsAndEndpointFaults) {
  tb::Scoreboard sb;
  sb.expect(spec(0, 1, 2));
  sb.expect(spec(5, 1, 2));   // ids must be consecutive
  EXPECT_TRUE(any_error_contains(sb, "consecutive: got 5"));
  sb.injected(4, 9, 100);
  EXPECT_TRUE(any_error_contains(sb, "node 4 injected unknown packet 9"));
  sb.delivered(delivery_of(spec(9, 1, 2)));
  EXPECT_TRUE(any_error_contains(sb, "node 2 received unknown packet 9"));
  sb.fault(7, "credit overflow on VC 1");
  EXPECT_TRUE(any_error_contains(sb, "node 7: credit overflow on VC 1"));
  // The list is capped so that a broken run stays readable.
  for (int i = 0; i < 200; ++i) sb.fault(1, "x");
  EXPECT_EQ(sb.errors().size(), 50u);
}

TEST(Scoreboard, WithdrawTakesBackUnsentPacketsOnly) {
  tb::Scoreboard sb;
  for (std::uint64_t i = 0; i < 3; ++i) sb.expect(spec(i, 1, 2));
  sb.delivered(delivery_of(spec(0, 1, 2)));
  sb.withdraw(1);
  sb.withdraw(1);   // twice counts once
  sb.withdraw(0);   // delivered: no effect
  sb.withdraw(42);  // unknown: no effect
  EXPECT_EQ(sb.withdrawn_count(), 1u);
  EXPECT_TRUE(sb.record(1).withdrawn);
  EXPECT_FALSE(sb.record(0).withdrawn);
  EXPECT_EQ(sb.outstanding(), 1u);   // packet 2
  sb.delivered(delivery_of(spec(2, 1, 2)));
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_TRUE(sb.clean());
}

TEST(Scoreboard, OrderCheckPerStream) {
  tb::Scoreboard sb;
  sb.set_check_order(true);
  for (std::uint64_t i = 0; i < 4; ++i) sb.expect(spec(i, 1, 2));
  sb.delivered(delivery_of(spec(1, 1, 2), 0));
  sb.delivered(delivery_of(spec(0, 1, 2), 1));   // other VC: another stream, no error
  EXPECT_TRUE(sb.clean());
  sb.delivered(delivery_of(spec(3, 1, 2), 1));
  sb.delivered(delivery_of(spec(2, 1, 2), 1));   // overtaken on VC 1
  ASSERT_EQ(sb.errors().size(), 1u);
  EXPECT_TRUE(contains(sb.errors()[0], "out of order: packet 2"));
  EXPECT_TRUE(contains(sb.errors()[0], "arrived after packet 3"));
}

// ---- LogicalGrid ------------------------------------------------------------------------------

// hx2mesh-16: 2x2 boards of 2x2; node = board * 4 + local_row * 2 + local_col (board-major), the
// logical index is row-major in the 4x4 global grid.
TEST(LogicalGrid, Hx2Mesh16BoardMajorNodesOnTheGlobalGrid) {
  tb::TrafficSystem ts(shipped("hx2mesh-16"));
  const tb::LogicalGrid g(ts.sys());
  EXPECT_EQ(g.rows(), 4);
  EXPECT_EQ(g.cols(), 4);
  EXPECT_EQ(g.nodes(), 16);
  const std::vector<int> index_of = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
  for (int node = 0; node < 16; ++node) {
    EXPECT_EQ(g.index_of(node), index_of[node]) << node;
    EXPECT_EQ(g.node_at(index_of[node]), node) << node;
    EXPECT_EQ(g.row_of(node), index_of[node] / 4);
    EXPECT_EQ(g.col_of(node), index_of[node] % 4);
    EXPECT_EQ(g.node_at(g.row_of(node), g.col_of(node)), node);
  }
  EXPECT_EQ(g.node_at(0, 2), 4);   // board (0,1), local (0,0)
  EXPECT_EQ(g.node_at(2, 1), 9);   // board (1,0), local (0,1)
  EXPECT_EQ(g.node_at(3, 3), 15);
}

TEST(LogicalGrid, MeshIsIdentityAndFatTreeSquareOrOneRow) {
  {
    tb::TrafficSystem ts(shipped("mesh-8x8"));
    const tb::LogicalGrid g(ts.sys());
    EXPECT_EQ(g.rows(), 8);
    for (int n = 0; n < 64; ++n) EXPECT_EQ(g.index_of(n), n);
  }
  {
    tb::TrafficSystem ts(shipped("fattree-64"));
    const tb::LogicalGrid g(ts.sys());
    EXPECT_EQ(g.rows(), 8);
    EXPECT_EQ(g.cols(), 8);
    for (int n = 0; n < 64; ++n) EXPECT_EQ(g.node_at(n), n);
  }
  {
    tb::TrafficSystem ts(sysc::parse_system_config(
        R"({"topology": "fattree", "nodes": 32, "switch": {"radix": 16}})", "test"));
    const tb::LogicalGrid g(ts.sys());
    EXPECT_EQ(g.rows(), 1);
    EXPECT_EQ(g.cols(), 32);
  }
  {
    // hx2mesh-64 and torus-64 share the 4x4 grid of 2x2 boards: node 13 is board 3 = grid (0,3),
    // local (0,1) -> global (0, 7).
    for (const char* name : {"hx2mesh-64", "torus-64"}) {
      tb::TrafficSystem ts(shipped(name));
      const tb::LogicalGrid g(ts.sys());
      EXPECT_EQ(g.rows(), 8) << name;
      EXPECT_EQ(g.index_of(13), 7) << name;
      EXPECT_EQ(g.index_of(16), 16) << name;   // board 4 = grid (1,0), local (0,0) -> (2,0)
    }
  }
}

}  // namespace
}  // namespace hxemu::test
