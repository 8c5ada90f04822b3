// hxemu pairs --config F: one packet between every ordered pair of nodes, one at a time; measured
// route length and zero-load latency beside the routing and pipeline models.
#include <fmt/core.h>

#include "sysc/system/system_config.h"
#include "app/cli/commands.h"
#include "app/commands/pairs.h"
#include "tb/report_io.h"

namespace hxemu::cli {

void add_pairs(CLI::App& app, Action& action) {
  struct Opts {
    std::string config, json;
    std::vector<std::string> sets;
    int flits = 4;
    std::size_t sample = 0;
    std::uint64_t seed = 1;
    bool quiet = false;
    HarnessOpts harness;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("pairs", "zero-load hops and latency between every pair of nodes");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--packet-flits", o->flits, "flits per packet")->check(CLI::Range(1, 64));
  sub->add_option("--sample", o->sample,
                  "measure this many random pairs instead of all (default: all pairs up to 256 "
                  "nodes, 4096 random pairs above)")
      ->check(unsigned_integer());
  add_seed_option(sub, o->seed, "random seed for --sample");
  add_harness_options(sub, o->harness);
  sub->add_option("--json", o->json, "write every pair and the summary as JSON to FILE");
  sub->add_flag("--summary", o->quiet, "print only the summary, not the per-pair table");
  sub->callback([o, &action] {
    action = [o] {
      const auto cfg = sysc::load_system_config(o->config, o->sets);
      tb::OutputFiles files;
      files.add("--json", o->json);
      if (o->flits > cfg.max_packet_flits) {
        throw UsageError("--packet-flits " + std::to_string(o->flits) + " exceeds the configuration's "
                         "max_packet_flits (" + std::to_string(cfg.max_packet_flits) + ")");
      }
      tb::TrafficSystem ts(cfg, harness_named(o->harness));
      std::size_t sample = o->sample;
      if (sample == 0 && ts.nodes() > 256) {
        sample = 4096;
        fmt::print(stderr, "hxemu pairs: {} nodes: measuring 4096 random pairs (use --sample N)\n",
                   ts.nodes());
      }
      const auto r = tb::run_pairs(ts, o->flits, sample, o->seed);
      if (!o->quiet) {
        fmt::print("{:>6} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8}\n", "src", "dst", "links", "model",
                   "head", "tail", "model");
        for (const auto& p : r.rows) {
          fmt::print("{:>6} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8}{}\n", p.src, p.dst, p.links,
                     p.model_links, p.head, p.tail, p.model_head,
                     (p.delivered && p.intact) ? "" : "  NOT DELIVERED INTACT");
        }
      }
      fmt::print("{}: {} pairs, {}-flit packets: links mean {:.3f} max {}; zero-load latency "
                 "(cycles, source output to destination input) head mean {:.2f} max {}, tail mean "
                 "{:.2f}; {} disagree with the models\n",
                 cfg.name, r.rows.size(), o->flits, r.mean_links, r.max_links, r.mean_head,
                 r.max_head, r.mean_tail, r.mismatches);
      if (!o->json.empty()) {
        nlohmann::json j = tb::pairs_json(r);
        j["stamp"] = tb::reproducibility_stamp(cfg, o->seed, g_command_line);
        files.put(o->json, j.dump(1) + "\n");
      }
      files.commit();
      return r.mismatches == 0 ? 0 : 1;
    };
  });
}

}  // namespace hxemu::cli
