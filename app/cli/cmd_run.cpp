// hxemu run: the main job. On the built-in configuration (configs/hx2mesh-64.json: 64 accelerators,
// 2x2 boards in a 4x4 grid), an allreduce sweep from 64 KiB to 1 MiB comparing the ring, 2D torus
// and Hamiltonian-cycle algorithms, and an alltoall, every result checked element by element, each
// figure beside its bound.
#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <thread>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"
#include "app/cli/collective_report.h"
#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "app/cli/waveform_options.h"
#include "app/commands/describe.h"
#include "tb/report_io.h"

namespace hxemu::cli {

extern const char* const kDefaultConfigJson;
extern const char* const kDefaultConfigSource;

namespace {

struct Opts {
  HarnessOpts harness;
  std::string config, json, sizes = "64K:1M", alltoall_sizes = "256K,1M";
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  bool quiet = false;
  WaveformOpts waveform;
};

int run(const Opts& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto cfg = o.config.empty()
                       ? sysc::parse_system_config(kDefaultConfigJson, kDefaultConfigSource, o.sets)
                       : sysc::load_system_config(o.config, o.sets);
  tb::OutputFiles files;
  files.add("--json", o.json);
  const auto sizes = parse_sizes(o.sizes);
  const auto a2a_sizes = parse_sizes(o.alltoall_sizes);
  sw::SessionConfig sc;
  sc.max_bytes = std::max(sizes.back(), a2a_sizes.back());
  sc.seed = o.seed;
  sc.harness = sysc::with_waveform(harness_named(o.harness), check_waveform(o.waveform, cfg, sc.rails, files));
  const auto need = sw::estimate_session_memory(cfg, sc);
  check_memory(sizes.back() >= a2a_sizes.back() ? "--sizes " + o.sizes : "--alltoall-sizes " + o.alltoall_sizes,
               need.total(), need.detail());
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  sc.progress = progress_hook(progress);
  sw::CollectiveSession session(cfg, sc);
  // The algorithms compared, minus those whose shape the configuration's grid does not have.
  std::vector<std::pair<std::string, std::string>> algos;   // name, why it is skipped ("": runs)
  for (const char* name : {"ring", "torus2d", "hamiltonian"}) {
    const auto& a = sw::find_algorithm(sw::CollectiveOp::kAllreduce, name);
    algos.emplace_back(a.name, a.unsuitable(session.communicators().front()));
  }
  ItemProgress plan(progress, 3 * sum_of(sizes) + sum_of(a2a_sizes),
                    static_cast<int>(3 * sizes.size() + a2a_sizes.size()));
  const auto d = tb::describe_system(session.system());
  fmt::print("hxemu main job: DNN collectives with real data on a cycle-accurate HammingMesh\n\n{}\n",
             d.text);
  fmt::print("harness: {} ({} hardware threads); results are the same with every harness and "
             "thread count\n\n",
             harness_label(o.harness), std::thread::hardware_concurrency());

  bool ok = true;
  nlohmann::json out;
  CollectiveTable ar(cfg, "allreduce");
  fmt::print("allreduce, int32 sum, all {} accelerators:\n", session.system().nodes());
  ar.print_header();
  for (const auto& [algo, skip] : algos) {
    if (!skip.empty()) {
      progress.clear();
      fmt::print("  {:<17} skipped: {}\n", algo, skip);
      continue;
    }
    for (std::uint64_t bytes : sizes) {
      plan.next(fmt::format("allreduce {} {}", algo, format_bytes(bytes)), static_cast<double>(bytes));
      const auto r = session.run(sw::CollectiveOp::kAllreduce, algo, bytes);
      progress.clear();
      ar.add(r);
      ok = ok && r.ok;
    }
  }
  progress.clear();
  ar.print_summary();
  fmt::print("\nalltoall, int32, all {} accelerators (bound: the busiest link of the pattern under "
             "the system's routing):\n", session.system().nodes());
  CollectiveTable a2a(cfg, "alltoall");
  a2a.print_header();
  for (std::uint64_t bytes : a2a_sizes) {
    plan.next(fmt::format("alltoall {}", format_bytes(bytes)), static_cast<double>(bytes));
    const auto r = session.run(sw::CollectiveOp::kAlltoall, "all-at-once", bytes);
    progress.clear();
    a2a.add(r);
    ok = ok && r.ok;
  }
  progress.clear();
  a2a.print_summary();

  // The largest size: how each algorithm did against its own bound and the injection bandwidth.
  fmt::print("\nat {}: ", format_bytes(sizes.back()));
  for (const auto& r : ar.rows()) {
    if (r.bytes == sizes.back()) {
      fmt::print("{} {:.1f} GB/s busbw ({:.0f}% of its bound, {:.0f}% of injection)  ", r.algo, r.busbw,
                 100 * r.bound_fraction, 100 * r.injection_fraction);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t wrong = 0;
  for (const auto& r : ar.rows()) wrong += r.wrong;
  for (const auto& r : a2a.rows()) wrong += r.wrong;
  fmt::print("\ndata check: {} wrong elements in {} collectives; {} cycles emulated in {:.1f} s\n", wrong,
             ar.rows().size() + a2a.rows().size(), session.now(), secs);
  if (!o.json.empty()) {
    out["allreduce"] = ar.json();
    out["alltoall"] = a2a.json();
    out["system"] = d.json;
    out["stamp"] = tb::reproducibility_stamp(cfg, o.seed, g_command_line);
    files.put(o.json, out.dump(1) + "\n");
  }
  files.commit();
  return ok ? 0 : 1;
}

}  // namespace

void add_run(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("run", "the main job: allreduce and alltoall on the built-in HammingMesh");
  sub->add_option("--config", o->config, "system configuration (default: built-in hx2mesh-64)");
  sub->add_option("--set", o->sets, "override a configuration field (repeatable)");
  sub->add_option("--sizes", o->sizes, "allreduce sizes per node");
  sub->add_option("--alltoall-sizes", o->alltoall_sizes, "alltoall sizes per node");
  add_seed_option(sub, o->seed, "input data seed");
  add_harness_options(sub, o->harness);
  add_waveform_options(sub, o->waveform);
  sub->add_option("--json", o->json, "write every figure and the reproducibility stamp to FILE");
  add_quiet_option(sub, o->quiet);
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
