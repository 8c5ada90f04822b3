// hxemu jobs: several training jobs on disjoint sub-grids of boards, each against itself alone.
#include <fmt/core.h>

#include <algorithm>
#include <memory>

#include "sw/jobs/training_job.h"
#include "sysc/system/system_config.h"
#include "app/cli/collective_report.h"
#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "app/cli/waveform_options.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, jobs, json;
  HarnessOpts harness;
  std::vector<std::string> sets;
  bool quiet = false;
  WaveformOpts waveform;
};

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  tb::OutputFiles files;
  files.add("--json", o.json);
  const auto jobs = sw::load_jobs(o.jobs, cfg);
  sw::SessionConfig sc;
  sc.max_bytes = sw::jobs_max_bytes(jobs);
  sc.harness = sysc::with_waveform(harness_named(o.harness), check_waveform(o.waveform, cfg, sc.rails, files));
  int most_steps = 1;
  for (const auto& j : jobs) most_steps = std::max(most_steps, j.steps);
  // All jobs' schedules run together: each job's steps of two collectives, every node in one job.
  const auto need = sw::estimate_session_memory(cfg, sc, 0, 2 * most_steps);
  check_memory("--jobs " + o.jobs + " (its largest tp_bytes/dp_bytes, " + format_bytes(sc.max_bytes) + ")",
               need.total(), need.detail());
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  sc.progress = progress_hook(progress);
  sw::CollectiveSession session(cfg, sc);
  fmt::print("{}: {} training jobs (per step: tensor-parallel allreduce along rows, data-parallel "
             "along columns of each job's accelerators)\n", cfg.name, jobs.size());
  for (const auto& j : jobs) {
    fmt::print("  {}: boards ({},{}) + {}x{}, {} step(s), TP {} ({}), DP {} ({})\n", j.name, j.board_row,
               j.board_col, j.board_rows, j.board_cols, j.steps, format_bytes(j.tp_bytes), j.tp_algo,
               format_bytes(j.dp_bytes), j.dp_algo);
  }
  std::fflush(stdout);
  // Time left by runs done: each job alone weighs 1; all together about as much as all alone
  // (every job's blocks tick at once for about as many cycles as the longest job alone).
  const auto res = sw::run_jobs(session, jobs, [&](const std::string& what, std::size_t i, std::size_t runs) {
    const double alone = static_cast<double>(runs - 1);
    progress.set_work(std::min(static_cast<double>(i), alone), 2 * alone);
    progress.stage(fmt::format("{} ({}/{})", what, i + 1, runs));
  });
  progress.clear();
  fmt::print("\n{:<10} {:>6} {:>14} {:>14} {:>10} {:>8}\n", "job", "nodes", "alone (cycles)",
             "together", "slowdown", "#wrong");
  bool ok = true;
  for (const auto& r : res) {
    fmt::print("{:<10} {:>6} {:>14} {:>14} {:>9.2f}% {:>8}{}\n", r.name, r.nodes, r.cycles_alone,
               r.cycles_together, 100 * r.slowdown, r.wrong, r.ok ? "" : "  FAILED");
    for (const auto& e : r.errors) fmt::print(stderr, "  error: {}\n", e);
    ok = ok && r.ok;
  }
  if (!o.json.empty()) {
    nlohmann::json j;
    j["jobs"] = nlohmann::json::array();
    for (const auto& r : res) j["jobs"].push_back(r.json());
    j["stamp"] = tb::reproducibility_stamp(cfg, 0, g_command_line);
    files.put(o.json, j.dump(1) + "\n");
  }
  files.commit();
  return ok ? 0 : 1;
}

}  // namespace

void add_jobs(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("jobs", "training jobs on disjoint sub-grids, each against itself alone");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--jobs", o->jobs, "job file (JSON), e.g. configs/jobs-two-halves.json")->required();
  add_harness_options(sub, o->harness);
  add_waveform_options(sub, o->waveform);
  sub->add_option("--json", o->json, "write the results and the reproducibility stamp to FILE");
  add_quiet_option(sub, o->quiet);
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
