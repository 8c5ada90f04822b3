// hxemu collective: DNN collectives with real data on the emulated machine, nccl-tests style.
#include <fmt/core.h>

#include <unistd.h>

#include <cmath>
#include <memory>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"
#include "app/cli/collective_report.h"
#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "tb/progress.h"
#include "tb/report_io.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, op = "allreduce", algo = "all", sizes = "64K:1M", group = "all";
  std::string type = "int32", harness = "parallel", json, csv, plot;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  double reduce_cost = 0;
  std::uint32_t chunk = 0;
  int root = 0, micro_batches = 4;
  bool quiet = false;
};

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  check_writable({o.json, o.csv, o.plot});
  const auto op = sw::parse_op(o.op);
  const auto sizes = parse_sizes(o.sizes);
  std::vector<std::string> algos;
  if (o.algo == "all") {
    algos = sw::algorithms(op);
  } else {
    for (const auto& a : split_list(o.algo)) algos.push_back(a == "rings" ? "ring" : a);
  }
  sw::SessionConfig sc;
  sc.group = o.group;
  sc.type = o.type == "float32" ? sw::DataType::kFloat32 : sw::DataType::kInt32;
  sc.reduce_cycles_per_byte = o.reduce_cost;
  sc.max_bytes = sizes.back();
  sc.seed = o.seed;
  sc.harness = harness_named(o.harness);
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  sc.progress = progress_hook(progress);
  sw::CollectiveSession session(cfg, sc);
  fmt::print("{}: {} on {} ({} communicator{} of {} ranks), {} elements, {} harness, seed {}\n", cfg.name,
             o.op, o.group, session.communicators().size(),
             session.communicators().size() > 1 ? "s" : "", session.communicators().front().size(),
             o.type, harness_label(o.harness),
             o.seed);
  CollectiveTable table(cfg, o.op);
  table.print_header();
  bool ok = true;
  // Time left: by the bytes of the collectives still to run.
  ItemProgress plan(progress, static_cast<double>(algos.size()) * sum_of(sizes),
                    static_cast<int>(algos.size() * sizes.size()));
  for (const auto& algo : algos) {
    for (std::uint64_t bytes : sizes) {
      plan.next(fmt::format("{} {} {}", o.op, algo, format_bytes(bytes)), static_cast<double>(bytes));
      sw::BuildOptions bo;
      bo.chunk_bytes = o.chunk;
      bo.root = o.root;
      bo.micro_batches = o.micro_batches;
      sw::CollectiveResult r;
      try {
        r = session.run(op, algo, bytes, bo);
      } catch (const std::invalid_argument& e) {
        progress.clear();
        if (o.algo == "all") {   // an algorithm that does not apply to this communicator
          fmt::print("  {:<17} skipped: {}\n", algo, e.what());
          break;
        }
        throw;
      }
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
    tb::write_file_atomic(o.json, j.dump(1) + "\n");
  }
  if (!o.csv.empty()) tb::write_file_atomic(o.csv, table.csv());
  if (!o.plot.empty()) tb::write_file_atomic(o.plot, table.svg());
  return ok ? 0 : 1;
}

}  // namespace

void add_collective(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("collective", "DNN collectives with real data: time, algbw, busbw vs bound");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--op", o->op, "allreduce, reduce-scatter, allgather, alltoall, broadcast, sendrecv");
  sub->add_option("--algo", o->algo, "an algorithm of the op, a comma list, or all (default)");
  sub->add_option("--sizes", o->sizes, "bytes per node: MIN:MAX (x2 steps), MIN:MAX:xF, or a list; K/M/G suffixes");
  sub->add_option("--group", o->group, "communicator: all, rows, cols, subgrid:R0,C0,H,W (boards)");
  sub->add_option("--type", o->type, "element type")->check(CLI::IsMember({"int32", "float32"}));
  sub->add_option("--reduce-cost", o->reduce_cost,
                  "host reduction cost in cycles per byte (default: the memory port, 8/flit_bits)")
      ->check(CLI::Range(0.0, 1000.0));
  sub->add_option("--chunk", o->chunk, "pipelining chunk in bytes (default: automatic)")
      ->check(CLI::Range(4u, 1u << 30));
  sub->add_option("--root", o->root, "broadcast root rank")->check(CLI::Range(0, 65535));
  sub->add_option("--micro-batches", o->micro_batches, "sendrecv pipeline depth")->check(CLI::Range(1, 1024));
  sub->add_option("--seed", o->seed, "input data seed");
  sub->add_option("--harness", o->harness,
                  "parallel (C++, all cores; the default, as for run and jobs), systemc (board and "
                  "tree modules) or plain (C++ loop); bit-identical results")
      ->check(CLI::IsMember({"systemc", "plain", "parallel"}));
  sub->add_option("--json", o->json, "write every figure and the reproducibility stamp to FILE");
  sub->add_option("--csv", o->csv, "write the table as CSV to FILE");
  sub->add_option("--plot", o->plot, "write busbw against size per algorithm as SVG to FILE");
  add_quiet_option(sub, o->quiet);
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
