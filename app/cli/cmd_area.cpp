// hxemu area --config F [--rails N] [--json FILE] [--list]: the size of the blocks at a
// configuration's design point -- each distinct block (router, switch, NIC) synthesized with Yosys'
// generic `synth`, its cells and flip-flops, how many the system builds, and the system's total
// (docs/area.md). Results are cached, so a repeated run starts no Yosys. `make synth` is this command.
#include <cstdio>
#include <memory>
#include <set>

#include <fmt/core.h>

#include "app/cli/commands.h"
#include "app/commands/area.h"
#include "sysc/system/area_model.h"
#include "sysc/system/system_config.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, json, rtl;
  std::vector<std::string> sets;
  int rails = 4;
  int timeout = 3600;
  double max_memory_gib = 0;
  bool list = false, refresh = false, flat = false, quiet = false;
};

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  const sysc::AreaPlan plan = sysc::area_plan(cfg, o.rails);
  tb::OutputFiles files;
  files.add("--json", o.json);

  nlohmann::json j;
  j["config"] = cfg.name;
  j["topology"] = sysc::topology_name(cfg.topology);
  j["nodes"] = cfg.nodes();
  j["rails"] = plan.rails;

  // Yosys and the RTL are checked before anything is printed.
  std::unique_ptr<app::AreaSynthesizer> synthesizer;
  if (!o.list) {
    app::AreaOptions ao;
    ao.rtl_dir = o.rtl;
    ao.timeout_s = o.timeout;
    ao.max_memory = static_cast<std::uint64_t>(o.max_memory_gib * (1ull << 30));
    ao.refresh = o.refresh;
    ao.flat = o.flat;
    if (!o.quiet) ao.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
    synthesizer = std::make_unique<app::AreaSynthesizer>(ao);
  }
  fmt::print("area of {} ({}, {} accelerators, {} NIC{} each)\n", cfg.name, sysc::topology_name(cfg.topology),
             cfg.nodes(), plan.rails, plan.rails > 1 ? "s" : "");
  if (synthesizer) {
    const app::AreaSynthesizer& synth = *synthesizer;
    j["yosys"] = synth.yosys_version();
    j["rtl_digest"] = synth.rtl_digest();
    j["recipe"] = synth.recipe();
    j["cache_dir"] = synth.cache_dir();
    fmt::print("Yosys generic synthesis ({}); cells = generic gates, multiplexers and flip-flops, a size\n"
               "estimate, not um^2; RTL {} (digest {})\n", synth.yosys_version(), synth.rtl_dir(), synth.rtl_digest());
    std::fflush(stdout);
  }
  // A block Yosys could not synthesize (time, memory) leaves the others' figures standing; the
  // total is then incomplete and the exit status 1.
  const app::AreaReport rep = app::measure_area(plan, synthesizer.get());
  std::set<std::string> reported;   // a synthesis two blocks share failed once
  for (const auto& ba : rep.blocks) {
    if (!ba.error.empty() && reported.insert(ba.error).second) fmt::print(stderr, "hxemu: error: {}\n", ba.error);
  }

  fmt::print("\n{:<17} {:<16} {:<34} {:>7}", "block", "top", "parameters", "count");
  if (!o.list) fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", "cells", "flip-flops", "cells x count", "FFs x count", "synthesis");
  fmt::print("\n");
  for (const auto& ba : rep.blocks) {
    const auto& b = ba.block;
    fmt::print("{:<17} {:<16} {:<34} {:>7}", b.role, b.top, b.param_text(), b.count);
    if (!o.list && !ba.error.empty()) {
      fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", "-", "-", "-", "-", "failed");
    } else if (!o.list) {
      const auto& r = ba.result;
      fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", r.cells, r.flip_flops, r.cells * b.count,
                 r.flip_flops * b.count, r.cached ? "cached" : fmt::format("{:.0f} s", r.seconds));
    }
    fmt::print("\n");
  }
  fmt::print("{:<17} {:<16} {:<34} {:>7}", "system total", "", "", rep.total_blocks);
  const bool complete = rep.complete();
  if (!o.list) {
    fmt::print(" {:>10} {:>10} {:>14} {:>14}", "", "", rep.total_cells, rep.total_flip_flops);
    if (!complete) fmt::print(" {:>9}", "partial");
  }
  fmt::print("\n");
  const nlohmann::json blocks = rep.json();
  j["blocks"] = blocks["blocks"];
  j["total"] = blocks["total"];
  // What the emulator runs differently: a verilated variant with spare VCs or slots (unused).
  for (const auto& b : plan.blocks) {
    if (!b.note.empty()) fmt::print("  {} ({}): {}\n", b.role, b.param_text(), b.note);
    if (!b.emulated_as.empty()) {
      fmt::print("  {} ({}): emulated by the verilated variant with {} (the extra VCs or slots unused)\n", b.role,
                 b.param_text(), b.emulated_as);
    }
  }
  if (!o.json.empty()) {
    j["stamp"] = tb::reproducibility_stamp(cfg, 0, g_command_line);
    files.put(o.json, j.dump(2) + "\n");
  }
  files.commit();
  return complete ? 0 : 1;
}

}  // namespace

void add_area(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "area", "cells and flip-flops of the router, switch and NIC at a configuration's design point (Yosys "
              "generic synthesis, cached), and the system's total");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--rails", o->rails,
                  "NICs per accelerator (router local ports): 4 as the collectives build it, 1 as synthetic "
                  "traffic does; a fat tree or Dragonfly has at most its planes, a multidim NPU its nics")
      ->check(CLI::Range(1, 4));
  sub->add_option("--json", o->json, "also write the report as JSON to FILE");
  sub->add_flag("--list", o->list, "only list the blocks, their parameters and counts (no synthesis)");
  sub->add_option("--timeout", o->timeout, "seconds one Yosys run may take (0: no limit)")
      ->check(CLI::Range(0, 7 * 24 * 3600));
  // Half the machine's memory by default: a design point too large fails in Yosys, not in the
  // processes sharing the machine.
  o->max_memory_gib = app::default_max_memory_gib();
  sub->add_option("--max-memory", o->max_memory_gib, "GiB of address space one Yosys run may take (0: no limit)")
      ->check(finite_range(0, 1 << 20));
  sub->add_option("--rtl", o->rtl, "the RTL folder (default: rtl/ of the source tree hxemu was built from)");
  sub->add_flag("--refresh", o->refresh, "synthesize again even when the cache has a block");
  sub->add_flag("--flat", o->flat,
                "plain `synth -flatten` (the VC buffers flattened too, resource sharing on): slow and "
                "memory-hungry at many ports, VCs or slots (docs/area.md)");
  sub->add_flag("--quiet,-q", o->quiet, "no progress lines on stderr");
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
