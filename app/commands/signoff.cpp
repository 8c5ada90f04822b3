#include "app/commands/signoff.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include "app/commands/describe.h"
#include "sw/collectives/communicator.h"
#include "sw/training/placement.h"
#include "sw/workload/text_workload.h"
#include "sysc/system/area_model.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic_system.h"

namespace hxemu::app {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The routing modes a topology's routers take (router.routing), or, on a fat tree, which has no
// routers, its leaves' up-port choice (switch.up_select). Multidim routes are dimension-ordered only.
std::vector<std::pair<std::string, std::string>> routing_modes(const sysc::SystemConfig& c) {
  switch (c.topology) {
    case sysc::Topology::kFatTree:
      return {{"up ports adaptive", "switch.up_select=adaptive"}, {"up ports hashed", "switch.up_select=hash"}};
    case sysc::Topology::kMultidim:
      return {{"deterministic", "router.routing=deterministic"}};
    default:
      return {{"deterministic", "router.routing=deterministic"}, {"adaptive", "router.routing=adaptive"}};
  }
}

bool is_configured(const sysc::SystemConfig& c, const std::string& setting) {
  if (setting == "switch.up_select=adaptive") return !c.up_hash;
  if (setting == "switch.up_select=hash") return c.up_hash;
  if (setting == "router.routing=adaptive") return c.adaptive;
  return !c.adaptive;
}

sw::SessionConfig session_config(const SignoffPlan& plan, std::uint64_t max_bytes) {
  sw::SessionConfig sc;
  sc.group = "all";
  sc.type = sw::DataType::kInt32;
  sc.max_bytes = max_bytes;
  sc.seed = plan.opt.seed;
  sc.harness = plan.opt.harness;
  return sc;
}

// sw::SessionConfig::progress for `p` (as the collective commands hook theirs).
std::function<std::uint64_t(std::uint64_t)> progress_hook(tb::Progress* p) {
  if (!p || !p->enabled()) return {};
  return [p](std::uint64_t now) {
    p->cycles(now);
    return p->next_check();
  };
}

void begin(const SignoffHooks& h, tb::Progress* p, const std::string& what) {
  if (h.start) h.start(what);
  if (p && p->enabled()) {
    p->set_cycle_base(0);
    p->set_total_cycles(0);
    p->stage(what);
  }
}

void end(const SignoffHooks& h, tb::Progress* p, const std::string& what, const std::string& summary, double s) {
  if (p) p->clear();
  if (h.done) h.done(what, summary, s);
}

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

}  // namespace

SignoffPlan plan_signoff(const SignoffOptions& o) {
  SignoffPlan plan;
  plan.opt = o;
  plan.cfg = sysc::load_system_config(o.config, o.sets);
  const auto& cfg = plan.cfg;

  // Routing modes: each the configuration with the mode set; a mode the configuration cannot take
  // (a VC split sized for the other mode's classes) is reported, not refused.
  for (const auto& [name, setting] : routing_modes(cfg)) {
    SignoffPlan::Mode m;
    m.name = name;
    m.setting = setting;
    m.configured = is_configured(cfg, setting);
    std::vector<std::string> sets = o.sets;
    sets.push_back(setting);
    try {
      m.cfg = sysc::load_system_config(o.config, sets);
    } catch (const sysc::ConfigError& e) {
      m.applies = false;
      m.why_not = e.what();
    }
    plan.modes.push_back(std::move(m));
  }

  // Saturation: the loads, the packet sizes, and which patterns the system takes.
  plan.loads = tb::parse_loads(o.loads);
  if (plan.loads.empty()) throw std::invalid_argument("--loads '" + o.loads + "': no loads");
  if (o.patterns.empty()) throw std::invalid_argument("--patterns: no pattern named (e.g. uniform,transpose)");
  try {
    (void)tb::PacketSize(o.packet_flits, cfg.max_packet_flits);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--packet-flits '" + o.packet_flits + "': " + e.what());
  }
  if (o.pair_flits > cfg.max_packet_flits) {
    throw std::invalid_argument("--pair-flits " + std::to_string(o.pair_flits) + " exceeds the configuration's "
                                "max_packet_flits (" + std::to_string(cfg.max_packet_flits) + ")");
  }
  const tb::TrafficSystem ts(cfg);   // the system synthetic traffic runs on, for the checks below
  {
    const tb::LogicalGrid grid(ts.sys());
    for (const auto& p : o.patterns) {
      if (std::find(plan.patterns.begin(), plan.patterns.end(), p) != plan.patterns.end()) {
        throw std::invalid_argument("--patterns: '" + p + "' is named twice");
      }
      try {
        (void)tb::TrafficPattern(p, grid, o.seed);
        plan.patterns.push_back(p);
      } catch (const std::invalid_argument& e) {
        // A pattern the grid's shape does not allow (transpose on a non-square grid) is a fact of
        // this system, reported in the section; a name that is no pattern is bad input.
        const std::string name = p.substr(0, p.find(':'));
        const auto names = tb::TrafficPattern::names();
        const bool known = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
          return n.substr(0, n.find(':')) == name;
        });
        if (!known) throw std::invalid_argument(std::string("--patterns: ") + e.what());
        plan.patterns_skipped.emplace_back(p, e.what());
      }
    }
  }

  // Collectives: sizes, and the algorithm hxemu train would pick for the whole machine.
  if (o.sizes.empty()) throw std::invalid_argument("--sizes: no size named (e.g. 1M,16M)");
  {
    const auto comms = sw::make_groups(ts.sys(), "all");
    plan.allreduce_algo = sw::default_algorithm(cfg, sw::CollectiveOp::kAllreduce, comms);
    plan.alltoall_algo = sw::default_algorithm(cfg, sw::CollectiveOp::kAlltoall, comms);
    for (const auto& [op, algo] : {std::pair{sw::CollectiveOp::kAllreduce, plan.allreduce_algo},
                                   std::pair{sw::CollectiveOp::kAlltoall, plan.alltoall_algo}}) {
      for (const auto& c : comms) {
        if (const std::string why = sw::find_algorithm(op, algo).unsuitable(c); !why.empty()) {
          throw std::invalid_argument(std::string("--config: ") + sw::op_name(op) + " " + algo + " does not fit " +
                                      cfg.source + ": " + why);
        }
      }
    }
    const std::uint64_t biggest = *std::max_element(o.sizes.begin(), o.sizes.end());
    const auto need = sw::estimate_session_memory(cfg, session_config(plan, biggest));
    plan.memory_bytes = need.total();
    plan.memory_detail = need.detail();
  }

  // The workload: read, checked against the machine, its session's memory.
  if (!o.workload.empty()) {
    plan.workload = std::make_shared<sw::TrainingPlan>(sw::read_text_workload(o.workload));
    sw::check_plan_sizes(*plan.workload);
    try {
      const auto placement = sw::place(ts.sys(), plan.workload->par);
      sw::check_plan(cfg, *plan.workload, placement, {});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("--workload " + o.workload + " on " + cfg.source + ": " + e.what());
    }
    const auto need = sw::estimate_session_memory(cfg, session_config(plan, sw::plan_max_bytes(*plan.workload)));
    if (need.total() > plan.memory_bytes) {
      plan.memory_bytes = need.total();
      plan.memory_detail = need.detail();
    }
  }

  if (!o.thresholds.empty()) {
    MetricCatalog cat;
    cat.patterns = plan.patterns;
    cat.sizes = o.sizes;
    cat.workload = plan.workload != nullptr;
    cat.area = o.area;
    plan.thresholds = read_thresholds(o.thresholds, cat);
  }
  return plan;
}

bool DeadlockSection::deadlock_free() const {
  bool any = false;
  for (const auto& m : modes) {
    if (!m.mode.applies) continue;
    any = true;
    if (!m.report.ok || !m.report.acyclic) return false;
  }
  return any;
}

int SignoffResult::thresholds_failed() const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(), [](const auto& v) { return !v.passed; }));
}

int SignoffResult::exit_status() const { return thresholds_failed() > 0 || !problems.empty() ? 1 : 0; }

namespace {

void run_structure(const SignoffPlan& plan, SignoffResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  const tb::TrafficSystem ts(plan.cfg);
  const auto d = tb::describe_system(ts.sys());
  r.structure.describe = d.json;
  r.structure.text = d.text;
  r.structure.cost = sysc::network_cost(plan.cfg);
  r.structure.seconds = seconds_since(t0);
}

void run_deadlock(const SignoffPlan& plan, SignoffResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& m : plan.modes) {
    DeadlockSection::Mode dm;
    dm.mode = m;
    if (m.applies) {
      const tb::TrafficSystem ts(m.cfg);
      dm.report = sysc::check_deadlock(ts.sys(), {}, 0);   // every core
      for (const auto& c : dm.report.cycle) dm.cycle.push_back(sysc::channel_name(ts.sys(), c));
      if (!dm.report.ok) r.problems.push_back("deadlock check (" + m.name + "): routing error: " + dm.report.error);
      if (dm.report.ok && !dm.report.acyclic) {
        r.problems.push_back(fmt::format("deadlock check ({}): the channel-dependency graph has a cycle of {} channels",
                                         m.name, dm.report.cycle.size()));
      }
    }
    r.deadlock.modes.push_back(std::move(dm));
  }
  r.deadlock.seconds = seconds_since(t0);
}

void run_zero_load(const SignoffPlan& plan, SignoffResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  auto& z = r.zero_load;
  tb::TrafficSystem ts(plan.cfg, plan.opt.harness);
  // As hxemu pairs: every ordered pair up to 256 nodes, else 4096 random pairs.
  z.sample = plan.opt.pairs_sample == 0 && ts.nodes() > 256 ? 4096 : plan.opt.pairs_sample;
  z.flits = plan.opt.pair_flits;
  z.pairs = tb::run_pairs(ts, z.flits, z.sample, plan.opt.seed);
  std::map<int, ZeroLoadSection::Length> by;
  for (const auto& p : z.pairs.rows) {
    if (!p.delivered || !p.intact) {
      ++z.not_delivered;
      continue;
    }
    auto& l = by[p.links];
    l.links = p.links;
    ++l.pairs;
    l.head_mean += static_cast<double>(p.head);
    l.model_mean += p.model_head;
    l.head_max = std::max(l.head_max, p.head);
    l.model_max = std::max(l.model_max, p.model_head);
    l.mismatches += p.links != p.model_links || static_cast<int>(p.head) != p.model_head;
  }
  for (auto& [links, l] : by) {
    l.head_mean /= l.pairs;
    l.model_mean /= l.pairs;
    z.by_length.push_back(l);
  }
  if (z.not_delivered > 0) {
    r.problems.push_back(fmt::format("zero-load latency: {} of {} packets not delivered intact", z.not_delivered,
                                     z.pairs.rows.size()));
  }
  z.seconds = seconds_since(t0);
}

void run_saturation(const SignoffPlan& plan, SignoffResult& r, const SignoffHooks& hooks, tb::Progress* progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const tb::TrafficSystem bound_sys(plan.cfg);
  for (const auto& p : plan.patterns) {
    begin(hooks, progress, "saturation " + p);
    SaturationRow row;
    row.pattern = p;
    row.bound = tb::pattern_bound(bound_sys.sys(), p, plan.opt.seed);
    tb::SweepConfig sc;
    sc.base.pattern = p;
    sc.base.packet_flits = plan.opt.packet_flits;
    sc.base.seed = plan.opt.seed;
    sc.base.warmup = plan.opt.warmup;
    sc.base.measure = plan.opt.measure;
    sc.base.drain_limit = plan.opt.drain;
    sc.loads = plan.loads;
    row.sweep = tb::run_sweep(plan.cfg, sc, plan.opt.harness, {}, progress);
    if (!row.sweep.checks_passed) r.problems.push_back("saturation " + p + ": the traffic checkers found errors");
    const double sat = row.sweep.saturation_throughput;
    end(hooks, progress, "saturation " + p,
        fmt::format("{:.4f} flits/node/cycle{}{}", sat,
                    row.bound.known ? fmt::format(", {} of its bound {:.4f}", pct(sat / row.bound.throughput),
                                                  row.bound.throughput)
                                    : "",
                    row.sweep.reached_saturation ? "" : " (not saturated in the load range)"),
        row.sweep.wall_seconds);
    r.saturation.push_back(std::move(row));
  }
  r.saturation_seconds = seconds_since(t0);
}

void run_collectives(const SignoffPlan& plan, SignoffResult& r, const SignoffHooks& hooks, tb::Progress* progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& sizes = plan.opt.sizes;
  auto sc = session_config(plan, *std::max_element(sizes.begin(), sizes.end()));
  sc.progress = progress_hook(progress);
  for (const auto& [op, algo] : {std::pair{sw::CollectiveOp::kAllreduce, plan.allreduce_algo},
                                 std::pair{sw::CollectiveOp::kAlltoall, plan.alltoall_algo}}) {
    // A session per operation, its sizes in a row: the cycles of `hxemu collective --op OP --algo
    // ALGO --sizes ...` exactly (a collective leaves arbiter and scratch-bank state behind, so the
    // same one after another operation can take different cycles).
    sw::CollectiveSession session(plan.cfg, sc);
    for (const std::uint64_t bytes : sizes) {
      const std::string what = fmt::format("{} {} {}", sw::op_name(op), size_label(bytes), algo);
      begin(hooks, progress, what);
      CollectiveRow row;
      row.op = sw::op_name(op);
      row.r = session.run(op, algo, bytes);
      if (!row.r.ok) {
        r.problems.push_back(fmt::format("{}: {} of {} elements wrong{}", what, row.r.wrong, row.r.checked,
                                         row.r.errors.empty() ? "" : " (" + row.r.errors.front() + ")"));
      }
      end(hooks, progress, what,
          fmt::format("busbw {:.2f} GB/s, {} of its bound {:.2f} GB/s; {} wrong elements", row.r.busbw,
                      pct(row.r.bound_fraction), row.r.bound_busbw, row.r.wrong),
          row.r.wall_seconds);
      r.collectives.push_back(std::move(row));
    }
  }
  r.collectives_seconds = seconds_since(t0);
}

void run_workload(const SignoffPlan& plan, SignoffResult& r, tb::Progress* progress) {
  const auto t0 = std::chrono::steady_clock::now();
  auto& w = r.workload;
  auto sc = session_config(plan, sw::plan_max_bytes(*plan.workload));
  sc.progress = progress_hook(progress);
  sw::CollectiveSession session(plan.cfg, sc);
  const auto placement = sw::place(session.system(), plan.workload->par);
  w.ran = true;
  w.name = plan.workload->name;
  w.source = plan.workload->source;
  w.parallelism = plan.workload->par.kind;
  w.placement = placement.describe();
  w.r = sw::run_training(session, *plan.workload, placement, {});
  if (!w.r.ok) {
    r.problems.push_back(fmt::format("workload {}: {} of {} elements wrong", w.name, w.r.wrong, w.r.checked));
  }
  w.seconds = seconds_since(t0);
}

void run_area(const SignoffPlan& plan, SignoffResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  auto& a = r.area;
  a.timeout_s = plan.opt.area_timeout_s;
  a.max_memory_gib = plan.opt.area_max_memory_gib;
  // The plan (blocks and counts) is there even when nothing is synthesized.
  const sysc::AreaPlan area_plan = sysc::area_plan(plan.cfg, 4);
  if (!plan.opt.area) {
    a.not_run = "skipped (--no-area)";
    a.report = measure_area(area_plan, nullptr);
    return;
  }
  AreaOptions ao;
  ao.cache_dir = plan.opt.area_cache;
  ao.timeout_s = plan.opt.area_timeout_s;
  ao.max_memory = static_cast<std::uint64_t>(plan.opt.area_max_memory_gib * (1ull << 30));
  ao.timeout_option = "--area-timeout";
  ao.memory_option = "--area-max-memory";
  // A block that ran out of time or memory within these limits will again: report it from the
  // record instead of spending the limit once more (unless --area-retry: the machine was busy).
  ao.reuse_failures = !plan.opt.area_retry;
  std::unique_ptr<AreaSynthesizer> synth;
  try {
    synth = std::make_unique<AreaSynthesizer>(ao);
  } catch (const SynthToolMissing& e) {
    a.not_run = std::string("not run: ") + e.what();
    a.report = measure_area(area_plan, nullptr);
    return;
  }
  a.ran = true;
  a.yosys = synth->yosys_version();
  a.rtl_digest = synth->rtl_digest();
  a.cache_dir = synth->cache_dir();
  a.report = measure_area(area_plan, synth.get());
  a.seconds = seconds_since(t0);
}

std::string area_summary(const AreaSection& a) {
  if (!a.ran) return a.not_run;
  int failed = 0, cached = 0;
  for (const auto& b : a.report.blocks) {
    failed += !b.error.empty();
    cached += b.error.empty() && b.result.cached;
  }
  if (failed == 0) {
    return fmt::format("{} cells, {} flip-flops in all ({} of {} blocks from the cache)", a.report.total_cells,
                       a.report.total_flip_flops, cached, a.report.blocks.size());
  }
  return fmt::format("partial: {} of {} blocks failed (time or memory; see the report)", failed, a.report.blocks.size());
}

}  // namespace

SignoffResult run_signoff(const SignoffPlan& plan, const SignoffHooks& hooks, tb::Progress* progress) {
  const auto t0 = std::chrono::steady_clock::now();
  SignoffResult r;

  begin(hooks, progress, "structure");
  run_structure(plan, r);
  end(hooks, progress, "structure",
      fmt::format("{} accelerators, {} routers, {} switches; network cost ${:.0f}", plan.cfg.nodes(),
                  r.structure.describe.value("routers", 0), r.structure.describe.value("switches", 0),
                  r.structure.cost.total_usd),
      r.structure.seconds);

  begin(hooks, progress, "deadlock");
  run_deadlock(plan, r);
  {
    std::string s;
    for (const auto& m : r.deadlock.modes) {
      s += (s.empty() ? "" : "; ") + m.mode.name + ": " +
           (!m.mode.applies ? "not applicable" : !m.report.ok ? "routing error" : m.report.acyclic ? "acyclic" : "CYCLE");
    }
    end(hooks, progress, "deadlock", s, r.deadlock.seconds);
  }

  begin(hooks, progress, "zero-load");
  run_zero_load(plan, r);
  end(hooks, progress, "zero-load",
      fmt::format("{} pairs: head latency mean {:.2f}, max {} cycles; {} disagree with the model",
                  r.zero_load.pairs.rows.size(), r.zero_load.pairs.mean_head, r.zero_load.pairs.max_head,
                  r.zero_load.pairs.mismatches),
      r.zero_load.seconds);

  run_saturation(plan, r, hooks, progress);
  run_collectives(plan, r, hooks, progress);

  if (plan.workload) {
    begin(hooks, progress, "workload " + plan.workload->name);
    run_workload(plan, r, progress);
    end(hooks, progress, "workload " + plan.workload->name,
        fmt::format("iteration {:.1f} us, communication {} of it; {} wrong elements", r.workload.r.iteration_us,
                    pct(r.workload.r.exposed_comm_fraction), r.workload.r.wrong),
        r.workload.seconds);
  }

  begin(hooks, progress, "area");
  run_area(plan, r);
  end(hooks, progress, "area", area_summary(r.area), r.area.seconds);

  r.metrics = signoff_metrics(plan, r);
  r.verdicts = judge_thresholds(plan.thresholds, r.metrics);
  r.wall_seconds = seconds_since(t0);
  return r;
}

Metrics signoff_metrics(const SignoffPlan& plan, const SignoffResult& r) {
  Metrics m;
  auto value = [](const std::string& unit, double v) {
    Metric x;
    x.unit = unit;
    x.measured = true;
    x.value = v;
    return x;
  };
  {
    Metric x;
    x.boolean = true;
    x.measured = std::any_of(r.deadlock.modes.begin(), r.deadlock.modes.end(), [](const auto& d) { return d.mode.applies; });
    x.why_not = "no routing mode applies";
    x.value = r.deadlock.deadlock_free() ? 1 : 0;
    m["deadlock_free"] = x;
  }
  std::uint64_t wrong = 0;
  for (const auto& c : r.collectives) wrong += c.r.wrong;
  if (r.workload.ran) wrong += r.workload.r.wrong;
  m["wrong_elements"] = value("elements", static_cast<double>(wrong));
  m["zero_load_latency_max"] = value("cycles", static_cast<double>(r.zero_load.pairs.max_head));
  m["zero_load_latency_mean"] = value("cycles", r.zero_load.pairs.mean_head);
  m["zero_load_model_mismatches"] = value("pairs", static_cast<double>(r.zero_load.pairs.mismatches));
  m["network_cost"] = value("USD", r.structure.cost.total_usd);
  for (const auto& s : r.saturation) {
    Metric x = value("flits/node/cycle", s.sweep.saturation_throughput);
    x.bound = s.bound.known ? s.bound.throughput : 0;
    x.injection = 1.0;   // the traffic endpoint's one port
    m[saturation_metric(s.pattern)] = x;
  }
  for (const auto& c : r.collectives) {
    Metric x = value("GB/s", c.r.busbw);
    x.bound = c.r.bound_busbw;
    x.injection = c.r.injection;
    m[busbw_metric(c.op, c.r.bytes)] = x;
  }
  if (r.workload.ran) {
    m["iteration_time"] = value("us", r.workload.r.iteration_us);
    m["iteration_cycles"] = value("cycles", static_cast<double>(r.workload.r.iteration_cycles));
  }
  if (plan.opt.area) {
    Metric cells = value("cells", static_cast<double>(r.area.report.total_cells));
    Metric ffs = value("flip-flops", static_cast<double>(r.area.report.total_flip_flops));
    if (!r.area.ran || !r.area.report.complete()) {
      const std::string why = !r.area.ran ? r.area.not_run : "the area is partial (a block failed to synthesize)";
      for (Metric* x : {&cells, &ffs}) {
        x->measured = false;
        x->why_not = why;
      }
    }
    m["area_cells"] = cells;
    m["area_flip_flops"] = ffs;
  }
  return m;
}

}  // namespace hxemu::app
