// hxemu area --config F [--rails N] [--json FILE] [--list]: the size of the blocks at a
// configuration's design point -- each distinct block (router, switch, NIC) synthesized with Yosys'
// generic `synth`, its cells and flip-flops, how many the system builds, and the system's total
// (docs/area.md). Results are cached, so a repeated run starts no Yosys. `make synth` is this command.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

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

nlohmann::json block_json(const sysc::AreaBlock& b) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : b.params) params[name] = value;
  nlohmann::json j = {{"role", b.role}, {"top", b.top}, {"params", params}, {"param_text", b.param_text()},
                      {"count", b.count}};
  if (!b.note.empty()) j["note"] = b.note;
  if (!b.emulated_as.empty()) j["emulated_as"] = b.emulated_as;
  return j;
}

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

  std::vector<app::SynthResult> res(plan.blocks.size());
  // A block Yosys could not synthesize (time, memory) leaves the others' figures standing; the
  // total is then incomplete and the exit status 1.
  std::vector<std::string> failed(plan.blocks.size());
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
    app::AreaSynthesizer& synth = *synthesizer;
    j["yosys"] = synth.yosys_version();
    j["rtl_digest"] = synth.rtl_digest();
    j["recipe"] = synth.recipe();
    j["cache_dir"] = synth.cache_dir();
    fmt::print("Yosys generic synthesis ({}); cells = generic gates, multiplexers and flip-flops, a size\n"
               "estimate, not um^2; RTL {} (digest {})\n", synth.yosys_version(), synth.rtl_dir(), synth.rtl_digest());
    std::fflush(stdout);
    for (std::size_t i = 0; i < plan.blocks.size(); ++i) {
      // Blocks with the same top and parameters (an NPU router and a tree switch of one radix)
      // are one synthesis: the second comes from the cache, or from the first when not caching.
      bool same = false;
      for (std::size_t k = 0; k < i && !same; ++k) {
        if (plan.blocks[k].top == plan.blocks[i].top && plan.blocks[k].params == plan.blocks[i].params) {
          res[i] = res[k];
          failed[i] = failed[k];
          same = true;
        }
      }
      if (same) continue;
      try {
        res[i] = synth.synthesize(plan.blocks[i]);
      } catch (const std::runtime_error& e) {
        failed[i] = e.what();
        fmt::print(stderr, "hxemu: error: {}\n", e.what());
      }
    }
  }

  fmt::print("\n{:<17} {:<16} {:<34} {:>7}", "block", "top", "parameters", "count");
  if (!o.list) fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", "cells", "flip-flops", "cells x count", "FFs x count", "synthesis");
  fmt::print("\n");
  long long total_blocks = 0, total_cells = 0, total_ffs = 0;
  j["blocks"] = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.blocks.size(); ++i) {
    const auto& b = plan.blocks[i];
    nlohmann::json bj = block_json(b);
    total_blocks += b.count;
    fmt::print("{:<17} {:<16} {:<34} {:>7}", b.role, b.top, b.param_text(), b.count);
    if (!o.list && !failed[i].empty()) {
      fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", "-", "-", "-", "-", "failed");
      bj["error"] = failed[i];
    } else if (!o.list) {
      const auto& r = res[i];
      total_cells += r.cells * b.count;
      total_ffs += r.flip_flops * b.count;
      fmt::print(" {:>10} {:>10} {:>14} {:>14} {:>9}", r.cells, r.flip_flops, r.cells * b.count,
                 r.flip_flops * b.count, r.cached ? "cached" : fmt::format("{:.0f} s", r.seconds));
      bj["cells"] = r.cells;
      bj["flip_flops"] = r.flip_flops;
      bj["cells_x_count"] = r.cells * b.count;
      bj["flip_flops_x_count"] = r.flip_flops * b.count;
      bj["cell_types"] = r.cell_types;
      bj["cached"] = r.cached;
      bj["synthesis_seconds"] = r.seconds;
    }
    fmt::print("\n");
    j["blocks"].push_back(bj);
  }
  fmt::print("{:<17} {:<16} {:<34} {:>7}", "system total", "", "", total_blocks);
  const bool complete = std::all_of(failed.begin(), failed.end(), [](const std::string& f) { return f.empty(); });
  if (!o.list) {
    fmt::print(" {:>10} {:>10} {:>14} {:>14}", "", "", total_cells, total_ffs);
    if (!complete) fmt::print(" {:>9}", "partial");
  }
  fmt::print("\n");
  j["total"] = {{"blocks", total_blocks}};
  if (!o.list) {
    j["total"]["cells"] = total_cells;
    j["total"]["flip_flops"] = total_ffs;
    j["total"]["complete"] = complete;   // false: the blocks that failed are not in the sums
  }
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
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  o->max_memory_gib = pages > 0 && page > 0 ? std::max(1.0, std::floor(static_cast<double>(pages) * page / 2 / (1ull << 30))) : 0;
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
