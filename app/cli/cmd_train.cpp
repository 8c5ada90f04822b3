// hxemu train: one training iteration of a workload (LIBRA's no-overlap loop) with every
// communication step emulated with real data (sw/training/trainer.h, docs/training.md).
#include <fmt/core.h>

#include <memory>

#include "sw/training/placement.h"
#include "sw/training/trainer.h"
#include "sw/workload/text_workload.h"
#include "sysc/system/network_cost.h"
#include "sysc/system/system.h"
#include "sysc/system/system_config.h"
#include "app/cli/commands.h"
#include "app/cli/network_picture.h"
#include "app/cli/waveform_options.h"
#include "app/cli/run_progress.h"
#include "app/cli/train_input.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, json;
  TrainInput input;
  HarnessOpts harness;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  bool quiet = false;
  NetworkPictureOpts picture;   // --topology-svg, --link-json: over every emulated step
  WaveformOpts waveform;        // --trace: over the iteration's cycles
};

std::string group_text(const sw::StepFigure& f) {
  if (f.step.group == sw::GroupKind::kPipeline) {
    return fmt::format("{} pairs -> stage {}", f.groups, f.step.backward ? f.step.stage - 1 : f.step.stage + 1);
  }
  return fmt::format("{} {} x {}", sw::group_kind_name(f.step.group), f.groups, f.group_size);
}

void print_table(const sw::TrainResult& r, bool libra) {
  fmt::print("\n{:>4} {:>5} {:<15} {:<14} {:<14} {:>9} {:<22} {:<12} {:>10} {:>7}{}\n", "step", "stage", "pass",
             "layer", "what", "bytes", "groups", "algorithm", "cycles", "bound", libra ? "      LIBRA" : "");
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const auto& f = r.steps[i];
    const auto& s = f.step;
    if (s.kind == sw::PlanStep::Kind::kCompute) {
      fmt::print("{:>4} {:>5} {:<15} {:<14} {:<14} {:>9} {:<22} {:<12} {:>10}\n", i, s.stage, s.pass, s.layer,
                 "compute", "", "", "", f.cycles);
      continue;
    }
    const std::string what = s.group == sw::GroupKind::kPipeline ? "send" : sw::op_name(s.op);
    if (f.skipped) {
      fmt::print("{:>4} {:>5} {:<15} {:<14} {:<14} {:>9} {:<22} {}\n", i, s.stage, s.pass, s.layer, what, s.bytes,
                 group_text(f), "skipped: groups of 1");
      continue;
    }
    fmt::print("{:>4} {:>5} {:<15} {:<14} {:<14} {:>9} {:<22} {:<12} {:>10} {:>6.1f}%{}{}\n", i, s.stage, s.pass,
               s.layer, what, s.bytes, group_text(f), f.algo, f.cycles, 100 * f.bound_fraction,
               f.has_libra ? fmt::format(" {:>10.0f}", f.libra_cycles) : (libra ? std::string(11, ' ') : ""),
               f.reused ? "  (reused)" : "");
  }
}

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  tb::OutputFiles files;
  files.add("--json", o.json);
  check_network_picture(o.picture, 64, files);
  const sw::TrainingPlan plan = load_training_plan(o.input);
  sw::check_plan_sizes(plan);
  sw::SessionConfig sc;
  sc.max_bytes = sw::plan_max_bytes(plan);
  sc.harness = sysc::with_waveform(harness_named(o.harness), check_waveform(o.waveform, cfg, sc.rails, files));
  sc.seed = o.seed;
  const auto need = sw::estimate_session_memory(cfg, sc);
  check_memory("--workload (its largest collective, " + format_bytes(sc.max_bytes) + ")", need.total(), need.detail());
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  sc.progress = progress_hook(progress);
  const auto windows = make_link_windows(o.picture);
  hook_session(windows.get(), sc);
  sw::CollectiveSession session(cfg, sc);
  if (windows) windows->attach(session.system());
  const sw::Placement placement = sw::place(session.system(), plan.par);
  const sw::TrainOptions topt = train_options(o.input);
  sw::check_plan(cfg, plan, placement, topt);

  std::size_t comm_steps = 0;
  for (const auto& s : plan.steps) comm_steps += s.kind == sw::PlanStep::Kind::kCommunication;
  fmt::print("{}: workload {} ({}), {} steps ({} communication), {}, {} harness, seed {}\n", cfg.name, plan.name,
             plan.par.kind, plan.steps.size(), comm_steps, placement.describe(), harness_label(o.harness), o.seed);
  std::fflush(stdout);
  ItemProgress items(progress, static_cast<double>(comm_steps), static_cast<int>(comm_steps));
  const auto r = sw::run_training(session, plan, placement, topt, [&](std::size_t i, const std::string& what) {
    items.next(fmt::format("step {}: {}", i, what), 1.0);
  });
  progress.clear();
  const bool libra = r.has_libra;
  print_table(r, libra);
  const double us_per_cycle = 1e-3 / cfg.clock_ghz;
  fmt::print("\niteration {} cycles = {:.1f} us: compute {} cycles, communication {} cycles (exposed: {:.1f}% of the "
             "iteration)\n",
             r.iteration_cycles, r.iteration_us, r.compute_cycles, r.comm_cycles, 100 * r.exposed_comm_fraction);
  fmt::print("bound (every step at its busiest link's full bandwidth): {} cycles = {:.1f} us; emulated / bound {:.3f}\n",
             r.bound_iteration_cycles, static_cast<double>(r.bound_iteration_cycles) * us_per_cycle,
             r.bound_iteration_cycles ? static_cast<double>(r.iteration_cycles) / r.bound_iteration_cycles : 0.0);
  if (libra) {
    fmt::print("LIBRA's estimate (compute + every collective's max over dimensions): {:.0f} cycles = {:.1f} us; "
               "emulated / LIBRA {:.3f}\n",
               r.libra_iteration_cycles, r.libra_iteration_cycles * us_per_cycle,
               r.libra_iteration_cycles > 0 ? static_cast<double>(r.iteration_cycles) / r.libra_iteration_cycles : 0.0);
  }
  const auto cost = sysc::network_cost(cfg);
  fmt::print("network cost ${:.0f} (${:.0f} per accelerator; docs/cost.md); cost x iteration time ${:.4f} x s\n",
             cost.total_usd, cost.usd_per_accelerator, cost.total_usd * r.iteration_us * 1e-6);
  fmt::print("{} communication steps emulated, {} reused; {} elements checked, {} wrong{}\n", r.emulated, r.reused,
             r.checked, r.wrong, r.ok ? "" : "  FAILED");
  for (const auto& e : r.errors) fmt::print(stderr, "  error: {}\n", e);
  if (!o.json.empty()) {
    nlohmann::json j = r.json();
    j["source"] = plan.source;
    j["parallelism"] = {{"kind", plan.par.kind}, {"tp", placement.par.tp}, {"dp", placement.par.dp},
                        {"pp", placement.par.pp}, {"pp_bytes", placement.par.pp_bytes}};
    j["stamp"] = tb::reproducibility_stamp(cfg, o.seed, g_command_line);
    files.put(o.json, j.dump(1) + "\n");
  }
  put_session_picture(o.picture, windows.get(), session, fmt::format("{}: one iteration of {}", cfg.name, plan.name),
                      files);
  files.commit();
  return r.ok ? 0 : 1;
}

}  // namespace

void add_train(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("train", "one training iteration of a workload: compute from the workload, "
                                          "every collective emulated with real data");
  add_config_options(sub, o->config, o->sets);
  add_train_input_options(sub, o->input);
  add_seed_option(sub, o->seed, "input data seed");
  add_harness_options(sub, o->harness);
  sub->add_option("--json", o->json, "write every step's figures and the reproducibility stamp to FILE");
  add_quiet_option(sub, o->quiet);
  auto* windows = add_network_picture_options(sub, o->picture, "its utilisation over every emulated step");
  add_waveform_options(sub, o->waveform);
  sub->callback([o, windows, &action] {
    o->picture.window_given = windows->count() > 0;
    action = [o] { return run(*o); };
  });
}

}  // namespace hxemu::cli
