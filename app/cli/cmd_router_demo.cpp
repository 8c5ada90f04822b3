// hxemu router-demo: one board router under random traffic (app/commands/router_demo.h).
#include <fmt/core.h>

#include <memory>

#include "app/cli/commands.h"
#include "app/commands/router_demo.h"

namespace hxemu::cli {

namespace {

int print_router_demo(const tb::RouterDemoConfig& cfg) {
  fmt::print("hxemu router demo: one board router (5 ports, {} VCs x {} flits, 256-bit flits), "
             "{}-flit packets,\n  Bernoulli injection of {:.2f} flits/cycle on every input toward "
             "random XY-legal outputs,\n  {} warm-up + {} measured cycles, link latency {}, seed {}\n\n",
             cfg.vcs, cfg.depth, cfg.packet_flits, cfg.load, cfg.warmup, cfg.measure,
             cfg.link_latency, cfg.seed);
  const auto r = tb::run_router_demo(cfg);
  static const char* const kPort[] = {"N", "E", "S", "W", "L"};
  fmt::print("  accepted flits/cycle per output:");
  for (int p = 0; p < 5; ++p) fmt::print("  {} {:.3f}", kPort[p], r.accepted_per_output[p]);
  fmt::print("\n  router throughput: {:.3f} flits/cycle accepted of {:.3f} offered\n",
             r.accepted_total, r.offered_total);
  fmt::print("  packet latency (cycles, creation to tail out, {} packets): mean {:.2f}  p50 {:.0f}  "
             "p99 {:.0f}  max {:.0f}   (zero-load model {:.0f})\n",
             r.packets, r.latency_mean, r.latency_p50, r.latency_p99, r.latency_max,
             r.zero_load_latency);
  fmt::print("  emulation: {} cycles in {:.3f} s = {:.2f} M router-cycles/s\n", r.cycles,
             r.wall_seconds, static_cast<double>(r.cycles) / r.wall_seconds / 1e6);
  fmt::print("  scoreboard: {}\n", r.clean ? "every flit delivered once, in order, intact" : "ERRORS");
  for (const auto& e : r.errors) fmt::print(stderr, "  error: {}\n", e);
  return r.clean ? 0 : 1;
}

}  // namespace

void add_router_demo(CLI::App& app, Action& action) {
  auto cfg = std::make_shared<tb::RouterDemoConfig>();
  auto* sub = app.add_subcommand("router-demo", "one board router under random traffic");
  sub->alias("router");
  sub->add_option("--vcs", cfg->vcs, "VCs per port")->check(CLI::IsMember({2, 4, 8}));
  sub->add_option("--depth", cfg->depth, "buffer depth per VC (flits)")->check(CLI::Range(1, 32));
  sub->add_option("--load", cfg->load, "offered flits per input per cycle")->check(finite_range(0.0, 1.0));
  sub->add_option("--packet-flits", cfg->packet_flits, "flits per packet")->check(CLI::Range(1, 64));
  sub->add_option("--link-latency", cfg->link_latency, "cycles")->check(CLI::Range(0, 64));
  sub->add_option("--cycles", cfg->measure, "measured cycles")->check(CLI::Range(1, 100000000));
  add_seed_option(sub, cfg->seed, "random seed");
  sub->callback([cfg, &action] { action = [cfg] { return print_router_demo(*cfg); }; });
}

}  // namespace hxemu::cli
