// hxemu collective: DNN collectives with real data on the emulated machine, nccl-tests style.
#include <fmt/core.h>

#include <algorithm>
#include <memory>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"
#include "app/cli/collective_report.h"
#include "app/cli/commands.h"
#include "app/cli/network_picture.h"
#include "app/cli/run_progress.h"
#include "app/cli/waveform_options.h"
#include "tb/progress.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, op = "allreduce", algo = "all", sizes = "64K:1M", group = "all";
  std::string type = "int32", json, csv, plot;
  HarnessOpts harness;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  double reduce_cost = 0;
  double memory_bandwidth = 2048;
  std::uint32_t chunk = 0;
  int root = 0, micro_batches = 4;
  bool root_given = false, micro_batches_given = false;
  bool quiet = false;
  NetworkPictureOpts picture;   // --topology-svg, --link-json: over every collective of the command
  WaveformOpts waveform;        // --trace: over the whole command's cycles
};

// The algorithms --algo names, in order, each once ("all": the whole table of the op).
std::vector<const sw::Algorithm*> chosen_algorithms(sw::CollectiveOp op, const std::string& spec) {
  std::vector<const sw::Algorithm*> out;
  if (spec == "all") {
    for (const auto& a : sw::algorithm_table(op)) out.push_back(&a);
    return out;
  }
  for (const auto& name : split_list(spec)) {
    const sw::Algorithm* a = &sw::find_algorithm(op, name, "--algo", "; or all");
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
  if (out.empty()) throw UsageError("--algo '" + spec + "': no algorithm named (allowed: " + sw::algorithm_names(op) + "; or all)");
  return out;
}

// Why `a` cannot run on one of the communicators ("" when it runs on all of them).
std::string unsuitable(const sw::Algorithm& a, const std::vector<sw::Communicator>& comms) {
  for (const auto& c : comms) {
    const std::string why = a.unsuitable(c);
    if (!why.empty()) return why;
  }
  return "";
}

// Everything is checked before the first line is printed: a bad option never leaves half a table.
int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  const auto op = sw::parse_op(o.op);
  const auto algos = chosen_algorithms(op, o.algo);
  const auto sizes = parse_sizes(o.sizes);
  if (o.root_given && op != sw::CollectiveOp::kBroadcast) {
    throw UsageError("--root is the root rank of a broadcast; --op " + o.op + " has none");
  }
  if (o.micro_batches_given && op != sw::CollectiveOp::kSendRecv) {
    throw UsageError("--micro-batches is the pipeline depth of sendrecv; --op " + o.op + " has none");
  }
  tb::OutputFiles out;
  out.add("--json", o.json);
  out.add("--csv", o.csv);
  out.add("--plot", o.plot);
  check_network_picture(o.picture, 64, out);
  sw::SessionConfig sc;
  sc.group = o.group;
  sc.type = o.type == "float32" ? sw::DataType::kFloat32 : sw::DataType::kInt32;
  sc.reduce_cycles_per_byte = o.reduce_cost;
  sc.memory_bytes_per_cycle = o.memory_bandwidth;
  sc.max_bytes = sizes.back();
  sc.seed = o.seed;
  sc.harness = sysc::with_waveform(harness_named(o.harness), check_waveform(o.waveform, cfg, sc.rails, out));
  const auto need = sw::estimate_session_memory(cfg, sc, o.chunk);
  check_memory("--sizes " + o.sizes + (o.chunk ? " with --chunk " + std::to_string(o.chunk) : ""), need.total(),
               need.detail());
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  sc.progress = progress_hook(progress);
  const auto windows = make_link_windows(o.picture);
  hook_session(windows.get(), sc);
  sw::CollectiveSession session(cfg, sc);
  if (windows) windows->attach(session.system());
  const auto& comms = session.communicators();
  if (op == sw::CollectiveOp::kBroadcast) {
    const auto smallest = std::min_element(comms.begin(), comms.end(), [](const auto& a, const auto& b) {
      return a.size() < b.size();
    });
    if (o.root >= smallest->size()) {
      throw UsageError("--root " + std::to_string(o.root) + ": the root must be a rank of every communicator, 0.." +
                       std::to_string(smallest->size() - 1) + " (--group " + o.group + ": " + smallest->name +
                       " has " + std::to_string(smallest->size()) + " ranks)");
    }
  }
  std::vector<std::string> skip(algos.size());
  for (std::size_t i = 0; i < algos.size(); ++i) {
    skip[i] = unsuitable(*algos[i], comms);
    if (!skip[i].empty() && o.algo != "all") {
      throw UsageError("--algo " + algos[i]->name + " does not fit --group " + o.group + ": " + skip[i]);
    }
  }

  fmt::print("{}: {} on {} ({} communicator{} of {} ranks), {} elements, {} harness, seed {}\n", cfg.name,
             o.op, o.group, comms.size(), comms.size() > 1 ? "s" : "", comms.front().size(), o.type,
             harness_label(o.harness), o.seed);
  CollectiveTable table(cfg, o.op);
  table.print_header();
  bool ok = true;
  // Time left: by the bytes of the collectives still to run.
  ItemProgress plan(progress, static_cast<double>(algos.size()) * sum_of(sizes),
                    static_cast<int>(algos.size() * sizes.size()));
  for (std::size_t i = 0; i < algos.size(); ++i) {
    if (!skip[i].empty()) {   // --algo all: an algorithm that does not apply to this communicator
      progress.clear();
      fmt::print("  {:<17} skipped: {}\n", algos[i]->name, skip[i]);
      continue;
    }
    for (std::uint64_t bytes : sizes) {
      plan.next(fmt::format("{} {} {}", o.op, algos[i]->name, format_bytes(bytes)), static_cast<double>(bytes));
      sw::BuildOptions bo;
      bo.chunk_bytes = o.chunk;
      bo.root = o.root;
      bo.micro_batches = o.micro_batches;
      const auto r = session.run(op, algos[i]->name, bytes, bo);
      progress.clear();
      table.add(r);
      ok = ok && r.ok;
    }
  }
  progress.clear();
  table.print_summary();
  if (!o.json.empty()) {
    nlohmann::json j = table.json();
    j["stamp"] = tb::reproducibility_stamp(cfg, o.seed, g_command_line);
    j["group"] = o.group;
    j["memory_bytes_per_cycle"] = o.memory_bandwidth;
    out.put(o.json, j.dump(1) + "\n");
  }
  if (!o.csv.empty()) out.put(o.csv, table.csv());
  if (!o.plot.empty()) out.put(o.plot, table.svg());
  put_session_picture(o.picture, windows.get(), session,
                      fmt::format("{}: {} {} on {}, sizes {}", cfg.name, o.op, o.algo, o.group, o.sizes), out);
  out.commit();
  return ok ? 0 : 1;
}

}  // namespace

void add_collective(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("collective", "DNN collectives with real data: time, algbw, busbw vs bound");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--op", o->op, sw::op_names());
  sub->add_option("--algo", o->algo, "an algorithm of the op (listed below), a comma list, or all (default)");
  sub->add_option("--sizes", o->sizes, "bytes per node: MIN:MAX (x2 steps), MIN:MAX:xF, or a list; K/M/G suffixes");
  sub->add_option("--group", o->group, "communicator: all, rows, cols, subgrid:R0,C0,H,W (boards)");
  sub->add_option("--type", o->type, "element type")->check(CLI::IsMember({"int32", "float32"}));
  sub->add_option("--reduce-cost", o->reduce_cost,
                  "host reduction cost in cycles per byte (default: the memory port, 8/flit_bits)")
      ->check(finite_range(0.0, 1000.0));
  sub->add_option("--memory-bandwidth", o->memory_bandwidth,
                  "host-memory bytes per cycle per accelerator, shared by its NICs' DMA and its reduction "
                  "engines (default 2048 = 3.2 TB/s at 1.5625 GHz, HBM-class; 0: unlimited)")
      ->check(zero_or_range(1.0, 1000000.0));
  sub->add_option("--chunk", o->chunk, "pipelining chunk in bytes (default: automatic)")
      ->check(CLI::Range(4u, 1u << 30));
  auto* root = sub->add_option("--root", o->root, "broadcast root rank")->check(CLI::Range(0, 65535));
  auto* micro = sub->add_option("--micro-batches", o->micro_batches, "sendrecv pipeline depth")->check(CLI::Range(1, 1024));
  add_seed_option(sub, o->seed, "input data seed");
  add_harness_options(sub, o->harness);
  sub->add_option("--json", o->json, "write every figure and the reproducibility stamp to FILE");
  sub->add_option("--csv", o->csv, "write the table as CSV to FILE");
  sub->add_option("--plot", o->plot,
                  "write busbw against size per algorithm as SVG to FILE (multidim: time against size, "
                  "emulated beside LIBRA's estimate)");
  sub->footer("Algorithms of each --op (reports use the first name):\n" + sw::algorithms_help());
  add_quiet_option(sub, o->quiet);
  auto* windows = add_network_picture_options(sub, o->picture, "its utilisation over every collective run");
  add_waveform_options(sub, o->waveform);
  sub->callback([o, root, micro, windows, &action] {
    o->picture.window_given = windows->count() > 0;
    o->root_given = root->count() > 0;
    o->micro_batches_given = micro->count() > 0;
    action = [o] { return run(*o); };
  });
}

}  // namespace hxemu::cli
