// hxemu explore: a multidim platform's bandwidth splits ranked by LIBRA's model, the best and a
// few others emulated with a training workload (app/commands/explore.h, docs/explore.md).
#include <fmt/core.h>

#include <fstream>
#include <memory>
#include <set>
#include <sys/stat.h>

#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "app/cli/train_input.h"
#include "app/commands/area.h"
#include "app/commands/explore.h"
#include "sysc/system/system_config.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, json, plot;
  std::vector<std::string> sets;
  TrainInput input;
  HarnessOpts harness;
  int lanes = 0, top = 5, others = 3;
  double budget = 0;
  std::uint64_t seed = 1;
  bool quiet = false;
  bool area = false;
};

// The earlier run's JSON, when --json names a file that exists (a resumed exploration); a file
// that is not an exploration's JSON is refused rather than overwritten.
nlohmann::json previous_run(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return nlohmann::json();
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("explore")) {
    throw UsageError("--json " + path + ": the file exists and is not the JSON of an earlier `hxemu explore` run "
                     "(remove it or choose another path)");
  }
  return j.at("explore");
}

int run(const Opts& o) {
  const auto base = sysc::load_system_config(o.config, o.sets);
  tb::OutputFiles files;
  files.add("--json", o.json);
  files.add("--plot", o.plot);
  const sw::TrainingPlan plan = load_training_plan(o.input);
  sw::check_plan_sizes(plan);
  app::ExploreOptions eo;
  eo.config = o.config;
  eo.sets = o.sets;
  eo.lanes = o.lanes;
  eo.budget_usd = o.budget;
  eo.top = o.top;
  eo.others = o.others;
  eo.seed = o.seed;
  eo.train = train_options(o.input);
  eo.harness = harness_named(o.harness);
  // --area: each split's network blocks through `hxemu area`'s synthesizer (cached; a block Yosys
  // cannot synthesize leaves that split's cells unknown, "-", and is reported once).
  std::unique_ptr<app::AreaSynthesizer> synth;
  std::set<std::string> area_errors;
  if (o.area) {
    app::AreaOptions ao;
    ao.max_memory = static_cast<std::uint64_t>(app::default_max_memory_gib() * (1ULL << 30));
    ao.reuse_failures = true;
    ao.progress = [q = o.quiet](const std::string& line) {
      if (!q) fmt::print(stderr, "{}\n", line);
    };
    try {
      synth = std::make_unique<app::AreaSynthesizer>(ao);
    } catch (const app::SynthToolMissing& e) {
      throw UsageError(std::string("--area: ") + e.what());
    }
    eo.area = [&](const sysc::SystemConfig& c) -> long long {
      const app::AreaReport rep = app::measure_area(sysc::area_plan(c, 4), synth.get());
      for (const auto& b : rep.blocks) {
        if (!b.error.empty() && area_errors.insert(b.error).second) fmt::print(stderr, "hxemu: area: {}\n", b.error);
      }
      return rep.complete() ? rep.total_cells : -1;
    };
  }
  const std::string key = app::explore_key(eo, plan);
  const nlohmann::json previous = previous_run(o.json);
  if (!previous.is_null() && previous.value("key", "") != key) {
    fmt::print(stderr, "hxemu: --json {} holds another exploration (other workload, configuration or options); it "
                       "will be replaced\n", o.json);
  }
  const auto stamp = tb::reproducibility_stamp(base, o.seed, g_command_line);
  fmt::print("{}: explore lanes per dimension (at most {} per NPU{}), workload {} ({})\n", base.name, o.lanes,
             o.budget > 0 ? fmt::format(", at most ${:.0f}", o.budget) : "", plan.name, plan.par.kind);
  std::fflush(stdout);
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  auto save = [&](const app::ExploreResult& r) {
    if (o.json.empty()) return;
    nlohmann::json j{{"explore", r.json(key)}, {"stamp", stamp}};
    tb::write_file_atomic(o.json, j.dump(1) + "\n");
  };
  const auto r = app::run_explore(
      eo, plan, key, previous,
      [&](const std::string& label, int i, int n) {
        progress.set_work(i, n);
        progress.stage(fmt::format("emulating split {} ({}/{})", label, i + 1, n));
      },
      save);
  progress.clear();
  fmt::print("{} splits ({} refused), {} emulated ({} now, {} from the earlier run)\n\n", r.points.size(),
             r.refused.size(), r.emulated_now + r.resumed, r.emulated_now, r.resumed);
  fmt::print("{}", app::explore_table(r));
  fmt::print("\nsplit = lanes per dimension, innermost first; LIBRA = analytical iteration time; emul. = emulated; "
             "iter/s/k$ = iterations per second per $1,000 of network; * = on the Pareto front of emulated time "
             "against cost\n");
  fmt::print("Spearman rank correlation of LIBRA's and the emulated order over the emulated splits: {:.3f}\n",
             r.spearman);
  bool ok = true;
  for (const auto& p : r.points) {
    ok = ok && (!p.done || p.ok);
    for (std::size_t e = 0; e < p.errors.size() && e < 4; ++e) fmt::print(stderr, "  split {}: {}\n", p.split.label, p.errors[e]);
  }
  if (!o.json.empty()) {
    nlohmann::json j{{"explore", r.json(key)}, {"stamp", stamp}};
    files.put(o.json, j.dump(1) + "\n");
  }
  if (!o.plot.empty()) files.put(o.plot, app::explore_svg(r));
  files.commit();
  return ok ? 0 : 1;
}

}  // namespace

void add_explore(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("explore", "a multidim platform's lane splits: LIBRA's ranking checked by "
                                            "emulating a training workload");
  add_config_options(sub, o->config, o->sets);
  add_train_input_options(sub, o->input);
  sub->add_option("--lanes", o->lanes, "lanes per NPU over all dimensions, at most (each dimension at least 1)")
      ->required()
      ->check(CLI::Range(1, 64));
  sub->add_option("--budget", o->budget, "network cost limit in $ (default: none)")->check(CLI::Range(0.0, 1e15));
  sub->add_option("--top", o->top, "emulate the analytical top K (default 5)")->check(CLI::Range(0, 1000));
  sub->add_option("--others", o->others, "and this many more spread over the rest (default 3)")->check(CLI::Range(0, 1000));
  add_seed_option(sub, o->seed, "input data seed");
  add_harness_options(sub, o->harness);
  sub->add_option("--json", o->json, "the result, rewritten after every emulated split; a rerun resumes from it");
  sub->add_option("--plot", o->plot, "SVG: emulated iteration time against cost, Pareto front, LIBRA's estimate");
  sub->add_flag("--area", o->area,
                 "also the cells of every split's routers, switches and NICs (Yosys, as `hxemu area`; cached, so "
                 "only the first run for a radix synthesizes, minutes per block)");
  add_quiet_option(sub, o->quiet);
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
