#include "app/commands/compare.h"

#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>

#include "app/cli/commands.h"
#include "app/cli/run_progress.h"
#include "sw/collectives/communicator.h"
#include "sw/collectives/session.h"
#include "sw/training/placement.h"
#include "sw/training/trainer.h"
#include "sw/workload/text_workload.h"
#include "sysc/system/network_cost.h"
#include "sysc/system/tree_builder.h"
#include "sysc/util/parse_number.h"
#include "tb/build_info.h"
#include "tb/report/svg_chart.h"
#include "tb/report_io.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic/sweep.h"
#include "tb/traffic_system.h"

namespace hxemu::app {

namespace {

std::string allowed_experiments() {
  return "OP:SIZE with OP one of " + sw::op_names() +
         " and SIZE in bytes per accelerator (a multiple of 4 from 4 to 1G; K, M, G suffixes), e.g. alltoall:1M; "
         "or traffic:PATTERN:sat, e.g. traffic:uniform:sat; or train:WORKLOAD, e.g. "
         "train:configs/workloads/gpt3-like.txt";
}

[[noreturn]] void bad_experiment(const std::string& spec, const std::string& why) {
  throw std::invalid_argument("--experiment '" + spec + "': " + why + " (allowed: " + allowed_experiments() + ")");
}

// "hxmesh 2x2/4x4" (boards / grid), "torus 8x8", "fattree 8 down/4 up".
std::string topology_label(const sysc::SystemConfig& c) {
  switch (c.topology) {
    case sysc::Topology::kHammingMesh:
      if (c.grid_rows == 1 && c.grid_cols == 1) return fmt::format("mesh {}x{}", c.board_rows, c.board_cols);
      return fmt::format("hxmesh {}x{}/{}x{}", c.board_rows, c.board_cols, c.grid_rows, c.grid_cols);
    case sysc::Topology::kTorus:
      return fmt::format("torus {}x{}", c.board_rows * c.grid_rows, c.board_cols * c.grid_cols);
    case sysc::Topology::kFatTree: {
      const auto s = sysc::tree_shape(c.fat_tree_nodes, c.radix, c.up_ports);
      if (s.single) return "fattree 1 switch";
      return fmt::format("fattree {}dn/{}up", s.down, s.up);
    }
    case sysc::Topology::kDragonfly:
      return fmt::format("dragonfly {}g/{}a/{}p/{}h", c.df_groups, c.df_routers, c.df_terminals, c.df_globals);
    case sysc::Topology::kMultidim: {
      std::string label = "multidim";
      for (const auto& d : c.md_dims) label += fmt::format(" {}{}x{}", sysc::dim_kind_name(d.kind), d.size, d.lanes);
      return label;
    }
  }
  return sysc::topology_name(c.topology);
}

bool is_collective(const ComparePlan& p) { return p.opt.experiment.kind == Experiment::Kind::kCollective; }
bool is_train(const ComparePlan& p) { return p.opt.experiment.kind == Experiment::Kind::kTrain; }

sw::SessionConfig session_config(const ComparePlan& plan) {
  sw::SessionConfig sc;
  sc.group = "all";
  sc.type = sw::DataType::kInt32;
  sc.max_bytes = is_train(plan) ? sw::plan_max_bytes(*plan.workload) : plan.opt.experiment.bytes;
  sc.seed = plan.opt.seed;
  sc.harness = plan.opt.harness;
  return sc;
}

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

}  // namespace

Experiment parse_experiment(const std::string& spec) {
  Experiment e;
  e.spec = spec;
  if (spec.empty()) bad_experiment(spec, "empty");
  const auto colon = spec.find(':');
  if (colon == std::string::npos) bad_experiment(spec, "expected KIND:...");
  const std::string kind = spec.substr(0, colon), rest = spec.substr(colon + 1);
  if (kind == "train") {
    if (rest.empty()) bad_experiment(spec, "a training experiment is train:WORKLOAD (a text workload file)");
    e.kind = Experiment::Kind::kTrain;
    e.workload = rest;
    return e;
  }
  if (kind == "traffic") {
    const std::string suffix = ":sat";
    if (rest.size() <= suffix.size() || rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) != 0) {
      bad_experiment(spec, "a traffic experiment is traffic:PATTERN:sat (the saturation throughput of PATTERN)");
    }
    e.kind = Experiment::Kind::kTrafficSaturation;
    e.pattern = rest.substr(0, rest.size() - suffix.size());
    return e;
  }
  try {
    e.op = sw::parse_op(kind);
  } catch (const std::invalid_argument&) {
    bad_experiment(spec, "'" + kind + "' is not an experiment kind");
  }
  e.kind = Experiment::Kind::kCollective;
  const auto bytes = sysc::parse_bytes(rest);
  if (!bytes || *bytes < 4 || *bytes > (1ull << 30) || *bytes % 4 != 0) {
    bad_experiment(spec, "'" + rest + "' is not a size in bytes");
  }
  e.bytes = *bytes;
  return e;
}

ComparePlan plan_comparison(const std::vector<std::string>& paths, const std::vector<std::string>& sets,
                            const CompareOptions& opt) {
  ComparePlan plan;
  plan.opt = opt;
  if (paths.empty()) {
    throw std::invalid_argument("--configs: no configuration named (allowed: a comma list of configuration files, "
                                "e.g. configs/hx2mesh-64.json,configs/torus-64.json)");
  }
  std::set<std::string> seen;
  for (const auto& p : paths) {
    if (!seen.insert(p).second) throw std::invalid_argument("--configs: '" + p + "' is named twice");
    try {
      plan.configs.push_back(sysc::load_system_config(p, sets));
    } catch (const sysc::ConfigError& e) {
      throw sysc::ConfigError(std::string("--configs: ") + e.what());
    } catch (const std::invalid_argument& e) {   // unreadable file (sysc::InputFileError)
      throw std::invalid_argument(std::string("--configs: ") + e.what());
    }
  }
  const Experiment& e = opt.experiment;
  if (e.kind == Experiment::Kind::kCollective) {
    const std::string algo = opt.algo.empty() ? sw::algorithm_table(e.op).front().name : opt.algo;
    plan.algo = sw::find_algorithm(e.op, algo, "--algo").name;
  } else if (e.kind == Experiment::Kind::kTrain) {
    if (!opt.algo.empty()) {
      throw std::invalid_argument("--algo: a training experiment chooses each step's algorithm (hxemu train --algo "
                                  "OP=NAME picks one)");
    }
    plan.workload = std::make_shared<sw::TrainingPlan>(sw::read_text_workload(e.workload));
    sw::check_plan_sizes(*plan.workload);
  } else {
    if (!opt.algo.empty()) throw std::invalid_argument("--algo names a collective algorithm; --experiment " + e.spec + " runs none");
    if (tb::parse_loads(opt.loads).empty()) throw std::invalid_argument("--loads '" + opt.loads + "': no loads");
  }
  // Per system: the algorithm fits its communicator, or the pattern and packet sizes fit it.
  for (const auto& cfg : plan.configs) {
    const tb::TrafficSystem ts(cfg);
    if (e.kind == Experiment::Kind::kTrain) {
      try {
        const auto placement = sw::place(ts.sys(), plan.workload->par);
        sw::check_plan(cfg, *plan.workload, placement, {});
      } catch (const std::invalid_argument& ex) {
        throw std::invalid_argument("--experiment '" + e.spec + "' on " + cfg.source + ": " + ex.what());
      }
    } else if (e.kind == Experiment::Kind::kCollective) {
      for (const auto& c : sw::make_groups(ts.sys(), "all")) {
        const auto& a = sw::find_algorithm(e.op, plan.algo);
        if (const std::string why = a.unsuitable(c); !why.empty()) {
          throw std::invalid_argument("--algo " + plan.algo + " does not fit " + cfg.source + ": " + why +
                                      " (allowed for " + sw::op_name(e.op) + ": " + sw::algorithm_names(e.op) + ")");
        }
      }
    } else {
      try {
        (void)tb::TrafficPattern(e.pattern, tb::LogicalGrid(ts.sys()), opt.seed);
      } catch (const std::invalid_argument& ex) {
        throw std::invalid_argument("--experiment '" + e.spec + "' on " + cfg.source + ": " + ex.what());
      }
      try {
        (void)tb::PacketSize(opt.packet_flits, cfg.max_packet_flits);
      } catch (const std::invalid_argument& ex) {
        throw std::invalid_argument("--packet-flits '" + opt.packet_flits + "' on " + cfg.source + ": " + ex.what());
      }
    }
  }
  return plan;
}

PlanMemory plan_memory(const ComparePlan& plan) {
  PlanMemory m;
  if (!is_collective(plan) && !is_train(plan)) return m;
  const auto sc = session_config(plan);
  for (const auto& cfg : plan.configs) {
    const auto need = sw::estimate_session_memory(cfg, sc);
    if (need.total() > m.bytes) {
      m.bytes = need.total();
      m.detail = cfg.name + ": " + need.detail();
    }
  }
  return m;
}

CompareRow run_row(const ComparePlan& plan, std::size_t i, tb::Progress* progress) {
  const auto& cfg = plan.configs.at(i);
  const Experiment& e = plan.opt.experiment;
  CompareRow r;
  r.config_file = cfg.source;
  r.name = cfg.name;
  r.topology = topology_label(cfg);
  r.accelerators = cfg.nodes();
  r.stamp = tb::reproducibility_stamp(cfg, plan.opt.seed, "");
  r.cost_usd = sysc::network_cost(cfg).total_usd;
  if (e.kind == Experiment::Kind::kTrain) {
    auto sc = session_config(plan);
    if (progress) sc.progress = cli::progress_hook(*progress);
    sw::CollectiveSession session(cfg, sc);
    const auto placement = sw::place(session.system(), plan.workload->par);
    const auto res = sw::run_training(session, *plan.workload, placement, {});
    r.nics = session.rails();
    r.placement = placement.describe();
    r.iteration_cycles = res.iteration_cycles;
    r.iteration_us = res.iteration_us;
    r.exposed_fraction = res.exposed_comm_fraction;
    r.cost_time = r.cost_usd * res.iteration_us * 1e-6;
    r.wrong = res.wrong;
    r.checked = res.checked;
    r.ok = res.ok;
    r.wall_seconds = res.wall_seconds;
    r.detail = res.json();
  } else if (e.kind == Experiment::Kind::kCollective) {
    auto sc = session_config(plan);
    if (progress) sc.progress = cli::progress_hook(*progress);
    sw::CollectiveSession session(cfg, sc);
    const auto res = session.run(e.op, plan.algo, e.bytes);
    r.nics = session.rails();
    r.algo = res.algo;
    r.cycles = res.cycles;
    r.wrong = res.wrong;
    r.checked = res.checked;
    r.busbw = res.busbw;
    r.bound_busbw = res.bound_busbw;
    r.bound_fraction = res.bound_fraction;
    r.injection = res.injection;
    r.injection_fraction = res.injection_fraction;
    r.ok = res.ok;
    r.wall_seconds = res.wall_seconds;
    r.detail = res.json();
  } else {
    tb::SweepConfig sc;
    sc.base.pattern = e.pattern;
    sc.base.packet_flits = plan.opt.packet_flits;
    sc.base.seed = plan.opt.seed;
    sc.base.warmup = plan.opt.warmup;
    sc.base.measure = plan.opt.measure;
    sc.base.drain_limit = plan.opt.drain;
    sc.loads = tb::parse_loads(plan.opt.loads);
    const auto res = tb::run_sweep(cfg, sc, plan.opt.harness, {}, progress);
    r.nics = 1;   // the testbench's packet endpoint: one port, 1 flit/cycle
    r.saturation = res.saturation_throughput;
    r.saturation_gbps = res.saturation_throughput * cfg.link_gbps();
    r.injection = cfg.link_gbps();   // Gb/s of the endpoint's one port
    r.injection_fraction = res.saturation_throughput / 1.0;
    r.reached_saturation = res.reached_saturation;
    r.ok = res.checks_passed;
    r.wall_seconds = res.wall_seconds;
    r.detail = res.json();
  }
  return r;
}

std::string table_header(const ComparePlan& plan) {
  const auto& e = plan.opt.experiment;
  std::string s;
  if (is_train(plan)) {
    s += fmt::format("compare: one training iteration of {} ({}), every collective with real data, seed {}\n",
                     plan.workload->name, plan.workload->par.kind, plan.opt.seed);
    s += fmt::format("{:<22} {:<18} {:>5} {:>4} {:>11} {:>6} {:>11} {:>10} {:>7} {:>7}\n", "config", "topology",
                     "accel", "NICs", "iteration", "comm", "cost", "cost x t", "#wrong", "wall");
    s += fmt::format("{:<22} {:<18} {:>5} {:>4} {:>11} {:>6} {:>11} {:>10} {:>7} {:>7}\n", "", "", "", "", "(us)",
                     "", "($)", "($ x ms)", "", "(s)");
    return s;
  }
  if (is_collective(plan)) {
    s += fmt::format("compare: {} of {} per accelerator, algorithm {}, int32, seed {}\n", sw::op_name(e.op),
                     cli::format_bytes(e.bytes), plan.algo, plan.opt.seed);
    s += fmt::format("{:<22} {:<18} {:>5} {:>4} {:>9} {:>8} {:>8} {:>6} {:>8} {:>7} {:>7} {:>7}\n", "config",
                     "topology", "accel", "NICs", "cycles", "busbw", "inject", "%inj", "bound", "%bound",
                     "#wrong", "wall");
    s += fmt::format("{:<22} {:<18} {:>5} {:>4} {:>9} {:>8} {:>8} {:>6} {:>8} {:>7} {:>7} {:>7}\n", "", "", "",
                     "", "", "(GB/s)", "(GB/s)", "", "(GB/s)", "", "", "(s)");
  } else {
    s += fmt::format("compare: saturation throughput of {} traffic, {}-flit packets, loads {}, {} warm-up + {} "
                     "measured cycles per point, seed {}\n",
                     e.pattern, plan.opt.packet_flits, plan.opt.loads, plan.opt.warmup, plan.opt.measure,
                     plan.opt.seed);
    s += fmt::format("{:<22} {:<18} {:>5} {:>10} {:>9} {:>6} {:<10} {:>7}\n", "config", "topology", "accel",
                     "saturation", "per node", "%inj", "checks", "wall");
    s += fmt::format("{:<22} {:<18} {:>5} {:>10} {:>9} {:>6} {:<10} {:>7}\n", "", "", "", "flit/n/c", "(Gb/s)",
                     "", "", "(s)");
  }
  return s;
}

std::string table_row(const ComparePlan& plan, const CompareRow& r) {
  if (is_train(plan)) {
    return fmt::format("{:<22} {:<18} {:>5} {:>4} {:>11.1f} {:>6} {:>11.0f} {:>10.2f} {:>7} {:>7.1f}{}\n", r.name,
                       r.topology, r.accelerators, r.nics, r.iteration_us, pct(r.exposed_fraction), r.cost_usd,
                       r.cost_time * 1e3, r.wrong, r.wall_seconds, r.ok ? "" : "  FAILED");
  }
  if (is_collective(plan)) {
    return fmt::format("{:<22} {:<18} {:>5} {:>4} {:>9} {:>8.2f} {:>8.1f} {:>6} {:>8.2f} {:>7} {:>7} {:>7.1f}{}\n",
                       r.name, r.topology, r.accelerators, r.nics, r.cycles, r.busbw, r.injection,
                       pct(r.injection_fraction), r.bound_busbw, pct(r.bound_fraction), r.wrong, r.wall_seconds,
                       r.ok ? "" : "  FAILED");
  }
  return fmt::format("{:<22} {:<18} {:>5} {:>10.4f} {:>9.1f} {:>6} {:<10} {:>7.1f}\n", r.name, r.topology,
                     r.accelerators, r.saturation, r.saturation_gbps, pct(r.injection_fraction),
                     r.ok ? (r.reached_saturation ? "passed" : "passed, not saturated") : "FAILED",
                     r.wall_seconds);
}

std::string table_footer(const ComparePlan& plan, const std::vector<CompareRow>& rows) {
  std::string s;
  double wall = 0;
  std::uint64_t wrong = 0;
  bool ok = true;
  for (const auto& r : rows) {
    wall += r.wall_seconds;
    wrong += r.wrong;
    ok = ok && r.ok;
  }
  if (is_train(plan)) {
    s += fmt::format("# {} configurations, {} wrong elements in all; iteration = compute + communication (LIBRA's "
                     "no-overlap loop), comm = its share; cost = the network (describe); cost x t = cost x iteration "
                     "time; {:.1f} s\n",
                     rows.size(), wrong, wall);
    if (!rows.empty() && rows.front().cost_time > 0) {
      s += "# cost x time relative to " + rows.front().name + ":";
      for (const auto& r : rows) s += fmt::format(" {} {:.2f}", r.name, r.cost_time / rows.front().cost_time);
      s += "\n";
    }
    bool one_nic = false;
    for (const auto& r : rows) one_nic = one_nic || r.nics == 1;
    if (one_nic) {
      s += "# caveat: a configuration with one NIC per accelerator injects at a quarter of the four-NIC ones' rate\n";
    }
  } else if (is_collective(plan)) {
    s += fmt::format("# {} configurations, {} wrong elements in all; busbw as nccl-tests; inject = the "
                     "accelerator's network ports (NICs) at full payload rate, %inj = busbw / inject; bound = the "
                     "schedule's busiest link at full payload rate; {:.1f} s\n",
                     rows.size(), wrong, wall);
    bool one_nic = false;
    for (const auto& r : rows) one_nic = one_nic || r.nics == 1;
    if (one_nic) {
      s += "# caveat: the fat tree has one NIC per accelerator (one network port), the HammingMesh, HyperX and "
           "torus four: equal link rates, not equal injection\n";
    }
  } else {
    s += fmt::format("# {} configurations; saturation = accepted throughput at the first saturated load (as hxemu "
                     "sweep); %inj = of the traffic endpoint's one port (1 flit/node/cycle); {:.1f} s\n",
                     rows.size(), wall);
  }
  if (!ok) s += "# FAILED: see the errors above\n";
  return s;
}

nlohmann::json compare_json(const ComparePlan& plan, const std::vector<CompareRow>& rows,
                            const std::string& command_line) {
  const auto& e = plan.opt.experiment;
  nlohmann::json configs = nlohmann::json::array(), files = nlohmann::json::array(), out = nlohmann::json::array();
  for (const auto& cfg : plan.configs) {
    configs.push_back(nlohmann::json::parse(cfg.json));
    files.push_back(cfg.source);
  }
  for (const auto& r : rows) {
    nlohmann::json j = {{"config", r.name},
                        {"config_file", r.config_file},
                        {"topology", r.topology},
                        {"accelerators", r.accelerators},
                        {"nics_per_accelerator", r.nics},
                        {"network_cost_usd", r.cost_usd},
                        {"ok", r.ok},
                        {"wall_seconds", r.wall_seconds},
                        {"detail", r.detail}};
    if (is_train(plan)) {
      j["placement"] = r.placement;
      j["iteration_cycles"] = r.iteration_cycles;
      j["iteration_us"] = r.iteration_us;
      j["exposed_communication_fraction"] = r.exposed_fraction;
      j["cost_x_iteration_usd_s"] = r.cost_time;
      j["checked"] = r.checked;
      j["wrong"] = r.wrong;
    } else if (is_collective(plan)) {
      j["algo"] = r.algo;
      j["cycles"] = r.cycles;
      j["busbw_GBps"] = r.busbw;
      j["injection_GBps"] = r.injection;
      j["injection_fraction"] = r.injection_fraction;
      j["bound_busbw_GBps"] = r.bound_busbw;
      j["bound_fraction"] = r.bound_fraction;
      j["checked"] = r.checked;
      j["wrong"] = r.wrong;
    } else {
      j["saturation_throughput"] = r.saturation;
      j["saturation_gbps_per_node"] = r.saturation_gbps;
      j["injection_fraction"] = r.injection_fraction;
      j["reached_saturation"] = r.reached_saturation;
    }
    out.push_back(j);
  }
  // The stamp of `hxemu collective` and the others (tb::reproducibility_stamp), with every
  // configuration instead of one.
  nlohmann::json stamp = tb::reproducibility_stamp(plan.configs.front(), plan.opt.seed, command_line);
  stamp.erase("config");
  stamp.erase("config_file");
  stamp.erase("cost");   // the first configuration's: each row carries its own (network_cost_usd)
  stamp["configs"] = configs;
  stamp["config_files"] = files;
  nlohmann::json j = {{"experiment", e.spec}, {"rows", out}, {"stamp", stamp}};
  if (is_train(plan)) {
    j["workload"] = e.workload;
  } else if (is_collective(plan)) {
    j["op"] = sw::op_name(e.op);
    j["bytes"] = e.bytes;
    j["algo"] = plan.algo;
  } else {
    j["pattern"] = e.pattern;
    j["packet_flits"] = plan.opt.packet_flits;
    j["loads"] = plan.opt.loads;
  }
  return j;
}

std::string compare_csv(const ComparePlan& plan, const std::vector<CompareRow>& rows) {
  std::string s;
  if (is_train(plan)) {
    s = "config,config_file,topology,accelerators,nics,workload,iteration_cycles,iteration_us,"
        "exposed_communication_fraction,cost_usd,cost_x_iteration_usd_s,wrong,ok\n";
    for (const auto& r : rows) {
      s += fmt::format("{},{},{},{},{},{},{},{:.3f},{:.5f},{:.2f},{:.6f},{},{}\n", r.name, r.config_file, r.topology,
                       r.accelerators, r.nics, plan.workload->name, r.iteration_cycles, r.iteration_us,
                       r.exposed_fraction, r.cost_usd, r.cost_time, r.wrong, r.ok ? 1 : 0);
    }
  } else if (is_collective(plan)) {
    s = "config,config_file,topology,accelerators,nics,algo,bytes,cycles,busbw_GBps,injection_GBps,"
        "injection_fraction,bound_busbw_GBps,bound_fraction,wrong,ok\n";
    for (const auto& r : rows) {
      s += fmt::format("{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.5f},{:.4f},{:.5f},{},{}\n", r.name, r.config_file,
                       r.topology, r.accelerators, r.nics, r.algo, plan.opt.experiment.bytes, r.cycles, r.busbw,
                       r.injection, r.injection_fraction, r.bound_busbw, r.bound_fraction, r.wrong, r.ok ? 1 : 0);
    }
  } else {
    s = "config,config_file,topology,accelerators,pattern,saturation_flits_per_node_cycle,saturation_gbps_per_node,"
        "injection_fraction,reached_saturation,ok\n";
    for (const auto& r : rows) {
      s += fmt::format("{},{},{},{},{},{:.6f},{:.3f},{:.5f},{},{}\n", r.name, r.config_file, r.topology,
                       r.accelerators, plan.opt.experiment.pattern, r.saturation, r.saturation_gbps,
                       r.injection_fraction, r.reached_saturation ? 1 : 0, r.ok ? 1 : 0);
    }
  }
  return s;
}

std::string compare_svg(const ComparePlan& plan, const std::vector<CompareRow>& rows) {
  tb::BarChart c;
  const auto& e = plan.opt.experiment;
  if (is_train(plan)) {
    c.title = "One training iteration of " + plan.workload->name + ": network cost x iteration time (lower is better)";
    c.y_label = "cost x iteration time ($ x ms)";
    for (const auto& r : rows) {
      c.bars.push_back({r.name, r.cost_time * 1e3, fmt::format("{:.0f} us, ${:.0f}k", r.iteration_us, r.cost_usd / 1e3)});
    }
  } else if (is_collective(plan)) {
    c.title = fmt::format("{} of {} per accelerator ({}): bus bandwidth", sw::op_name(e.op),
                          cli::format_bytes(e.bytes), plan.algo);
    c.y_label = "busbw (GB/s)";
    for (const auto& r : rows) {
      c.bars.push_back({r.name, r.busbw, fmt::format("{:.0f}% inj, {:.0f}% bound", 100 * r.injection_fraction,
                                                     100 * r.bound_fraction)});
    }
  } else {
    c.title = fmt::format("{} traffic, {}-flit packets: saturation throughput", e.pattern, plan.opt.packet_flits);
    c.y_label = "saturation throughput (flits/node/cycle)";
    for (const auto& r : rows) {
      c.bars.push_back({r.name, r.saturation, fmt::format("{:.0f} Gb/s", r.saturation_gbps)});
    }
  }
  return tb::render_bar_chart(c);
}

}  // namespace hxemu::app
