// Per-link utilisation over time windows (tb/stats/link_windows.h): windows end exactly on their
// edges when the run's steps are cut there, they agree with the run's own measured-window figures,
// they do not change the run (same arrival digest, plain and parallel harness), counts survive the
// counter reset at the end of the warm-up, and the JSON has one entry per window.
#include "tb/stats/link_windows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sysc/harness/harness.h"
#include "sysc/harness/parallel_harness.h"
#include "sysc/system/system_config.h"
#include "tb/traffic/traffic_run.h"
#include "tb/traffic_system.h"

namespace hxemu::tb {
namespace {

sysc::SystemConfig shipped(const std::string& name) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json");
}

TrafficRunConfig point() {
  TrafficRunConfig rc;
  rc.pattern = "uniform";
  rc.load = 0.3;
  rc.warmup = 200;
  rc.measure = 600;
  rc.seed = 3;
  return rc;
}

TEST(LinkWindows, ExactWindowsAgreeWithTheMeasuredWindowAndLeaveTheRunAlone) {
  const auto cfg = shipped("hx2mesh-16");
  const TrafficRunResult plain = run_traffic(cfg, point());
  LinkWindows w(100);
  const TrafficRunResult r = run_traffic(cfg, point(), sysc::make_plain_harness, nullptr, &w);
  EXPECT_EQ(r.arrival_digest, plain.arrival_digest);
  ASSERT_GE(w.windows(), 8);
  ASSERT_EQ(w.links(), static_cast<int>(r.links.size()));
  for (int k = 0; k < w.windows(); ++k) EXPECT_EQ(w.edges()[k], 100u * static_cast<std::uint64_t>(k));
  EXPECT_EQ(w.edges().back(), r.cycles);
  // Windows 2..7 are the measured window [200, 800): the same flits the run counted there.
  std::uint64_t all = 0;
  for (int l = 0; l < w.links(); ++l) {
    std::uint64_t measured = 0;
    for (int k = 2; k < 8; ++k) measured += w.flits(l, k);
    EXPECT_EQ(static_cast<double>(measured), std::round(r.links[l].utilization * 600)) << r.links[l].from;
    for (int k = 0; k < w.windows(); ++k) {
      EXPECT_LE(w.utilisation(l, k), 1.0);
      all += w.flits(l, k);
    }
  }
  EXPECT_GT(all, 0u);
  // The parallel harness, stepped in the same cut pieces, gives the same run.
  LinkWindows w2(100);
  const auto par = run_traffic(cfg, point(), [](sysc::System& s) { return sysc::make_parallel_harness(s, 2); },
                               nullptr, &w2);
  EXPECT_EQ(par.arrival_digest, plain.arrival_digest);
  EXPECT_EQ(w2.json(), w.json());
}

TEST(LinkWindows, JsonHasOneEntryPerWindowAndNamesTheLinks) {
  LinkWindows w(250);
  const TrafficRunResult r = run_traffic(shipped("hx2mesh-16"), point(), sysc::make_plain_harness, nullptr, &w);
  const auto j = w.json();
  EXPECT_EQ(j["window_cycles"], 250u);
  EXPECT_EQ(j["edges"].size(), static_cast<std::size_t>(w.windows()) + 1);
  ASSERT_EQ(j["links"].size(), r.links.size());
  for (std::size_t l = 0; l < r.links.size(); ++l) {
    const auto& e = j["links"][l];
    EXPECT_EQ(e["id"], l);
    EXPECT_EQ(e["from"], r.links[l].from);
    EXPECT_EQ(e["to"], r.links[l].to);
    EXPECT_EQ(e["class"], r.links[l].cls);
    for (const char* k : {"flits", "utilisation", "stall_credit", "stall_sa"}) {
      EXPECT_EQ(e[k].size(), static_cast<std::size_t>(w.windows())) << k;
    }
  }
  EXPECT_EQ(j["totals"]["cycles"], r.cycles);
  EXPECT_GT(j["totals"]["flits"].get<std::uint64_t>(), 0u);
}

// Two identical systems, one of them with its counters reset mid-way: the same totals.
TEST(LinkWindows, CountsSurviveACounterReset) {
  const auto cfg = shipped("hx2mesh-16");
  TrafficSystem a(cfg), b(cfg);
  LinkWindows wa(0), wb(0);
  wa.attach(a.sys());
  wb.attach(b.sys());
  for (TrafficSystem* ts : {&a, &b}) {
    for (int n = 0; n < ts->nodes(); ++n) ts->send(n, (n + 5) % ts->nodes(), 4);
  }
  a.run(40);
  b.run(40);
  wb.before_counter_reset();
  b.sys().net().reset_link_counters();
  b.sys().net().reset_stall_counters();
  a.run(400);
  b.run(400);
  wa.finish(a.now());
  wb.finish(b.now());
  ASSERT_EQ(wa.windows(), 1);
  ASSERT_EQ(wb.windows(), 1);
  std::uint64_t total = 0;
  for (int l = 0; l < wa.links(); ++l) {
    EXPECT_EQ(wa.flits(l, 0), wb.flits(l, 0)) << l;
    EXPECT_EQ(wa.stall_credit(l, 0), wb.stall_credit(l, 0)) << l;
    total += wa.flits(l, 0);
  }
  EXPECT_GT(total, 0u);
  EXPECT_EQ(wa.total_utilisation(), wb.total_utilisation());
}

// A caller that only samples (a collective session: every 64 cycles) gets windows that end at the
// first sample on or after each edge; with W a multiple of its step they are exact.
TEST(LinkWindows, SamplingOnlyEndsWindowsAtTheFirstSampleAfterTheEdge) {
  const auto cfg = shipped("hx2mesh-16");
  TrafficSystem ts(cfg);
  LinkWindows exact(128), late(100);
  exact.attach(ts.sys());
  late.attach(ts.sys());
  for (int n = 0; n < ts.nodes(); ++n) ts.send(n, (n + 3) % ts.nodes(), 8);
  for (int i = 0; i < 10; ++i) {
    ts.run(64);
    exact.sample(ts.now());
    late.sample(ts.now());
  }
  exact.finish(ts.now());
  late.finish(ts.now());
  EXPECT_EQ(exact.edges(), (std::vector<std::uint64_t>{0, 128, 256, 384, 512, 640}));
  EXPECT_EQ(late.edges(), (std::vector<std::uint64_t>{0, 128, 256, 320, 448, 512, 640}));
  for (int l = 0; l < exact.links(); ++l) EXPECT_EQ(exact.total_flits(l), late.total_flits(l));
}

}  // namespace
}  // namespace hxemu::tb
