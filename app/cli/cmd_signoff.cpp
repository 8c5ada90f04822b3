// hxemu signoff --config C [--workload W] [--thresholds T] --out DIR: one report on a design point
// (docs/signoff.md) -- structure and cost, area, deadlock freedom per routing mode, zero-load
// latency, saturation throughput, collectives against their bounds, a workload's iteration -- in
// DIR/signoff.md, DIR/signoff.json and SVG figures beside them, judged against the thresholds.
// Exit status: 0 every threshold met and no problem found; 1 a threshold failed or a run found a
// problem (wrong data, a deadlock cycle, a traffic checker error); 2 bad input (nothing written).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/core.h>

#include "app/cli/commands.h"
#include "app/commands/area.h"
#include "app/commands/signoff.h"
#include "app/commands/signoff_report.h"
#include "tb/progress.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  app::SignoffOptions s;
  std::string out, sizes = "1M,16M", patterns = "uniform,transpose,bitcomp,randperm";
  HarnessOpts harness;
  bool no_area = false, quiet = false;
};

// DIR for the report: made when missing (its parent must exist), after every input check.
// Returns true when this call made it (removed again if the run fails before writing).
bool make_out_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw UsageError("--out '" + dir + "': not a folder (the report's folder)");
    return false;
  }
  if (::mkdir(dir.c_str(), 0755) != 0) {
    throw UsageError("--out '" + dir + "': cannot create the folder (" + std::strerror(errno) +
                     "; its parent folder must exist)");
  }
  return true;
}

int run(Opts& o) {
  if (o.harness.harness == "systemc") {
    throw UsageError("--harness systemc: signoff builds several systems in one process and SystemC elaborates "
                     "once per process (allowed: parallel, plain)");
  }
  o.s.harness = harness_named(o.harness);
  o.s.harness_label = harness_label(o.harness);
  o.s.area = !o.no_area;
  o.s.sizes = parse_sizes(o.sizes);
  o.s.patterns = split_list(o.patterns);
  o.s.command_line = g_command_line;
  const app::SignoffPlan plan = app::plan_signoff(o.s);
  check_memory("--sizes " + o.sizes + (o.s.workload.empty() ? "" : " / --workload"), plan.memory_bytes,
               plan.memory_detail);

  const bool made = make_out_dir(o.out);
  tb::OutputFiles files;
  const std::string md = o.out + "/signoff.md", js = o.out + "/signoff.json";
  try {
    files.add("--out", md);
    files.add("--out", js);
    for (const auto& f : app::signoff_figure_names()) files.add("--out", o.out + "/" + f);
  } catch (...) {
    if (made) ::rmdir(o.out.c_str());
    throw;
  }

  fmt::print("hxemu signoff: {} ({}), seed {}, {}\n", plan.cfg.name, plan.cfg.source, o.s.seed, o.s.harness_label);
  std::fflush(stdout);
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  app::SignoffHooks hooks;
  hooks.done = [&](const std::string& what, const std::string& summary, double s) {
    fmt::print("  {:<28} {} ({:.1f} s)\n", what, summary, s);
    std::fflush(stdout);
  };
  app::SignoffResult r;
  try {
    r = app::run_signoff(plan, hooks, &progress);
    files.put(md, app::signoff_markdown(plan, r));
    files.put(js, app::signoff_json(plan, r).dump(1) + "\n");
    for (auto& [name, svg] : app::signoff_figures(plan, r)) files.put(o.out + "/" + name, std::move(svg));
    files.commit();
  } catch (...) {
    if (made) ::rmdir(o.out.c_str());   // only when still empty: nothing of ours is in it
    throw;
  }
  progress.clear();
  for (const auto& v : r.verdicts) {
    if (!v.passed) fmt::print("  threshold failed: {} ({}): {}\n", v.threshold.text, v.threshold.source, v.measured_text);
  }
  for (const auto& p : r.problems) fmt::print("  problem: {}\n", p);
  fmt::print("{}: {}{}; wrote {}, {} and {} figures; {:.0f} s\n", r.exit_status() == 0 ? "PASS" : "FAIL",
             plan.thresholds.empty() ? "no thresholds"
                                     : fmt::format("{} of {} thresholds met", r.verdicts.size() - r.thresholds_failed(),
                                                   r.verdicts.size()),
             r.problems.empty() ? ", no problem found" : fmt::format(", {} problems found", r.problems.size()), md, js,
             app::signoff_figure_names().size(), r.wall_seconds);
  return r.exit_status();
}

}  // namespace

void add_signoff(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "signoff", "one report on a design point: structure and cost, area, deadlock freedom, zero-load latency, "
                 "saturation, collectives against their bounds, a workload; pass/fail against thresholds");
  add_config_options(sub, o->s.config, o->s.sets);
  sub->add_option("--out", o->out, "folder for signoff.md, signoff.json and the SVG figures (made if missing)")
      ->required();
  sub->add_option("--thresholds", o->s.thresholds,
                  "threshold file, one per line, e.g. 'allreduce 16MiB busbw >= 90% bound' "
                  "(configs/signoff/default-thresholds.txt; docs/signoff.md)");
  sub->add_option("--workload", o->s.workload, "also run one training iteration of this text workload (as hxemu train)");
  add_seed_option(sub, o->s.seed, "random seed (traffic, pair sample, input data)");
  sub->add_option("--sizes", o->sizes, "collective sizes per accelerator: a list or MIN:MAX (K/M/G suffixes)");
  sub->add_option("--patterns", o->patterns, "saturation patterns, a comma list (as hxemu sweep --pattern)");
  sub->add_option("--loads", o->s.loads, "offered loads of each saturation sweep, START:END:STEP or a list");
  sub->add_option("--warmup", o->s.warmup, "warm-up cycles per load point")->check(CLI::Range(0, 100000000));
  sub->add_option("--measure", o->s.measure, "measured cycles per load point")->check(CLI::Range(1, 100000000));
  sub->add_option("--drain", o->s.drain, "cycles allowed for measured packets to arrive")->check(CLI::Range(0, 100000000));
  sub->add_option("--packet-flits", o->s.packet_flits, "saturation packets: N, uniform:MIN:MAX or bimodal:A:B:P");
  sub->add_option("--pair-flits", o->s.pair_flits, "zero-load packets' flits")->check(CLI::Range(1, 64));
  sub->add_option("--pairs-sample", o->s.pairs_sample,
                  "zero-load: this many random pairs instead of all (default: all up to 256 nodes, 4096 above)")
      ->check(unsigned_integer());
  sub->add_flag("--no-area", o->no_area, "skip the area section (no Yosys)");
  sub->add_option("--area-timeout", o->s.area_timeout_s,
                  "seconds one Yosys run may take; a block that ran out of time or memory within these limits "
                  "before is reported from the cache, not tried again")
      ->check(CLI::Range(1, 7 * 24 * 3600));
  sub->add_flag("--area-retry", o->s.area_retry,
                "synthesize blocks that failed before within the same limits again (e.g. when the machine was busy)");
  o->s.area_max_memory_gib = app::default_max_memory_gib();
  sub->add_option("--area-max-memory", o->s.area_max_memory_gib, "GiB of address space one Yosys run may take (0: no limit)")
      ->check(finite_range(0, 1 << 20));
  add_harness_options(sub, o->harness);
  add_quiet_option(sub, o->quiet);
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
