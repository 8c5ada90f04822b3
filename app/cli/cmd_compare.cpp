// hxemu compare: one experiment (a collective of one size, or the saturation throughput of a traffic
// pattern) over a list of configurations, one row per configuration (app/commands/compare.h).
#include <fmt/core.h>

#include <memory>

#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "app/commands/compare.h"
#include "tb/progress.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string configs, experiment, algo, json, csv, plot;
  std::string packet_flits = "4", loads = "0.05:1:0.05";
  std::uint64_t warmup = 2000, measure = 10000, drain = 40000;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  HarnessOpts harness;
  bool quiet = false;
  bool traffic_option_given = false;
};

// Everything is checked before the first row runs: a bad option never leaves half a table.
int run(const Opts& o) {
  app::CompareOptions co;
  co.experiment = app::parse_experiment(o.experiment);
  const bool traffic = co.experiment.kind == app::Experiment::Kind::kTrafficSaturation;
  if (!traffic && o.traffic_option_given) {
    throw UsageError("--packet-flits, --loads, --warmup, --measure and --drain set the sweep of a traffic:PATTERN:sat "
                     "experiment; --experiment " + o.experiment + " runs none");
  }
  co.algo = o.algo;
  co.seed = o.seed;
  co.harness = harness_named(o.harness);
  co.packet_flits = o.packet_flits;
  co.loads = o.loads;
  co.warmup = o.warmup;
  co.measure = o.measure;
  co.drain = o.drain;
  tb::OutputFiles out;
  out.add("--json", o.json);
  out.add("--csv", o.csv);
  out.add("--plot", o.plot);
  const auto plan = app::plan_comparison(split_list(o.configs), o.sets, co);
  if (const auto need = app::plan_memory(plan); need.bytes > 0) {
    check_memory("--experiment " + o.experiment, need.bytes, need.detail);
  }

  fmt::print("{}", app::table_header(plan));
  std::fflush(stdout);
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  std::vector<app::CompareRow> rows;
  bool ok = true;
  // Time left: by configurations done (each run's cycle counter starts at 0).
  ItemProgress items(progress, static_cast<double>(plan.configs.size()), static_cast<int>(plan.configs.size()));
  for (std::size_t i = 0; i < plan.configs.size(); ++i) {
    progress.set_cycle_base(0);
    items.next(plan.configs[i].name, 1);
    rows.push_back(app::run_row(plan, i, &progress));
    progress.clear();
    fmt::print("{}", app::table_row(plan, rows.back()));
    std::fflush(stdout);
    ok = ok && rows.back().ok;
  }
  fmt::print("{}", app::table_footer(plan, rows));
  if (!o.json.empty()) out.put(o.json, app::compare_json(plan, rows, g_command_line).dump(1) + "\n");
  if (!o.csv.empty()) out.put(o.csv, app::compare_csv(plan, rows));
  if (!o.plot.empty()) out.put(o.plot, app::compare_svg(plan, rows));
  out.commit();
  return ok ? 0 : 1;
}

}  // namespace

void add_compare(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("compare", "one experiment over several configurations, one row each");
  sub->add_option("--configs", o->configs, "configuration files, a comma list (configs/hx2mesh-64.json,configs/torus-64.json)")
      ->required();
  sub->add_option("--experiment", o->experiment,
                  "OP:SIZE (a collective of SIZE bytes per accelerator: alltoall:1M, allreduce:4M; OP one of " +
                      sw::op_names() + "), traffic:PATTERN:sat (saturation throughput: traffic:uniform:sat) or train:WORKLOAD "
                      "(one training iteration of a text workload, beside the network's cost)")
      ->required();
  sub->add_option("--algo", o->algo, "collective algorithm (default: the op's first, as listed below)");
  sub->add_option("--set", o->sets,
                  "override a field of every configuration, e.g. --set router.vcs_per_class=4 (repeatable)");
  add_seed_option(sub, o->seed, "input data / traffic seed");
  auto* pf = sub->add_option("--packet-flits", o->packet_flits, "traffic: N, uniform:MIN:MAX or bimodal:A:B:P");
  auto* loads = sub->add_option("--loads", o->loads, "traffic: the sweep's loads, START:END:STEP or a comma list");
  auto* warm = sub->add_option("--warmup", o->warmup, "traffic: warm-up cycles per point")->check(CLI::Range(0, 100000000));
  auto* meas = sub->add_option("--measure", o->measure, "traffic: measured cycles per point")->check(CLI::Range(1, 100000000));
  auto* drain = sub->add_option("--drain", o->drain, "traffic: cycles allowed for measured packets to arrive")
                    ->check(CLI::Range(0, 100000000));
  add_harness_options(sub, o->harness);
  sub->add_option("--json", o->json, "write every row and the reproducibility stamp to FILE");
  sub->add_option("--csv", o->csv, "write the table as CSV to FILE");
  sub->add_option("--plot", o->plot, "write a bar chart (one bar per configuration) as SVG to FILE");
  add_quiet_option(sub, o->quiet);
  sub->footer("Algorithms of each op (reports use the first name):\n" + sw::algorithms_help());
  sub->callback([o, pf, loads, warm, meas, drain, &action] {
    o->traffic_option_given = pf->count() + loads->count() + warm->count() + meas->count() + drain->count() > 0;
    action = [o] { return run(*o); };
  });
}

}  // namespace hxemu::cli
