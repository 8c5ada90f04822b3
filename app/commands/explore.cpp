#include "app/commands/explore.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "sw/collectives/session.h"
#include "sw/training/placement.h"
#include "tb/build_info.h"
#include "tb/report/svg_chart.h"

namespace hxemu::app {

namespace {

// Which points are emulated: the analytical top k, then `others` spread evenly over the rest
// (the last is the analytically slowest), so the comparison sees the whole range.
void choose(std::vector<ExplorePoint>& pts, int top, int others) {
  const int n = static_cast<int>(pts.size());
  for (int i = 0; i < std::min(top, n); ++i) pts[i].emulate = true;
  const int rest = n - std::min(top, n);
  for (int i = 1; i <= others && rest > 0; ++i) {
    const int idx = std::min(top, n) + static_cast<int>(std::lround(static_cast<double>(i) * (rest - 1) / std::max(1, others)));
    pts[std::min(idx, n - 1)].emulate = true;
  }
}

// Iterations per second per $1,000 of network (higher is better).
double perf_per_cost(const ExplorePoint& p, double clock_ghz) {
  if (!p.emulated_cycles || p.split.cost_usd <= 0) return 0;
  const double seconds = static_cast<double>(p.emulated_cycles) / (clock_ghz * 1e9);
  return 1.0 / seconds / (p.split.cost_usd / 1e3);
}

void finish_ranks(ExploreResult& r) {
  std::vector<std::size_t> idx;
  std::vector<double> analytic, emulated, neg_ppc, cost;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (!r.points[i].done) continue;
    idx.push_back(i);
    analytic.push_back(r.points[i].split.analytic_cycles);
    emulated.push_back(static_cast<double>(r.points[i].emulated_cycles));
    neg_ppc.push_back(-perf_per_cost(r.points[i], r.clock_ghz));
    cost.push_back(r.points[i].split.cost_usd);
  }
  const auto re = sw::ranks(emulated), rp = sw::ranks(neg_ppc);
  const auto front = sw::pareto_front(cost, emulated);
  for (std::size_t k = 0; k < idx.size(); ++k) {
    auto& p = r.points[idx[k]];
    p.emulated_rank = re[k];
    p.perf_per_cost_rank = rp[k];
    p.pareto = front[k];
  }
  r.spearman = idx.size() >= 2 ? sw::spearman(analytic, emulated) : 0;
}

}  // namespace

std::string explore_key(const ExploreOptions& opt, const sw::TrainingPlan& plan) {
  std::ostringstream os;
  os << plan.par.kind << ' ' << plan.par.tp << ' ' << plan.par.dp << ' ' << plan.par.pp << ' ' << plan.par.pp_bytes << '\n';
  for (const auto& s : plan.steps) os << sw::describe_step(s) << '\n';
  os << opt.config << '\n';
  for (const auto& s : opt.sets) os << s << '\n';
  os << opt.lanes << ' ' << opt.budget_usd << ' ' << opt.seed << ' ' << opt.train.reuse << ' ' << opt.train.chunk_bytes;
  os << ' ' << tb::kSourceRevision;   // another revision of the emulator may time things differently
  for (const auto& [op, a] : opt.train.algo) os << ' ' << sw::op_name(op) << '=' << a;
  // FNV-1a of the description: short, stable, and any change gives another key.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : os.str()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

ExploreResult run_explore(const ExploreOptions& opt, const sw::TrainingPlan& plan, const std::string& key,
                          const nlohmann::json& previous, const ExploreHook& hook, const ExploreSave& save) {
  auto space = sw::multidim_splits(opt.config, opt.sets, opt.lanes, opt.budget_usd, plan);
  ExploreResult r;
  r.workload = plan.name;
  r.clock_ghz = space.points.front().cfg.clock_ghz;
  r.refused = space.refused;
  for (auto& s : space.points) {
    ExplorePoint p;
    p.split = std::move(s);
    r.points.push_back(std::move(p));
  }
  choose(r.points, opt.top, opt.others);
  // Area of every split, not only the emulated ones: a split's blocks differ from another's only in
  // the NPU router's radix, so a few syntheses (cached across runs) cover them all.
  if (opt.area) {
    for (auto& p : r.points) p.area_cells = opt.area(p.split.cfg);
  }
  // Points an earlier run with the same key finished.
  if (previous.is_object() && previous.value("key", "") == key && previous.contains("points")) {
    for (const auto& j : previous.at("points")) {
      if (!j.value("done", false) || !j.value("ok", false)) continue;   // failed points run again
      for (auto& p : r.points) {
        if (p.split.label != j.value("split", "")) continue;
        p.done = p.from_file = true;
        p.emulate = true;
        p.emulated_cycles = j.value("emulated_cycles", std::uint64_t{0});
        p.ok = j.value("ok", false);
        p.wrong = j.value("wrong", std::uint64_t{0});
        p.wall_seconds = j.value("wall_seconds", 0.0);
        ++r.resumed;
      }
    }
  }
  int count = 0, index = 0;
  for (const auto& p : r.points) count += p.emulate && !p.done;
  for (auto& p : r.points) {
    if (!p.emulate || p.done) continue;
    if (hook) hook(p.split.label, index++, count);
    sw::SessionConfig sc;
    sc.max_bytes = sw::plan_max_bytes(plan);
    sc.seed = opt.seed;
    sc.harness = opt.harness;
    sw::CollectiveSession session(p.split.cfg, sc);
    const auto placement = sw::place(session.system(), plan.par);
    const auto t = sw::run_training(session, plan, placement, opt.train);
    p.done = true;
    p.emulated_cycles = t.iteration_cycles;
    p.ok = t.ok;
    p.wrong = t.wrong;
    p.wall_seconds = t.wall_seconds;
    p.errors = t.errors;
    ++r.emulated_now;
    finish_ranks(r);
    if (save) save(r);
  }
  finish_ranks(r);
  return r;
}

nlohmann::json ExploreResult::json(const std::string& key) const {
  nlohmann::json pts = nlohmann::json::array();
  for (const auto& p : points) {
    nlohmann::json j{{"split", p.split.label},
                     {"lanes", p.split.lanes},
                     {"sets", p.split.sets},
                     {"cost_usd", p.split.cost_usd},
                     {"analytic_cycles", p.split.analytic_cycles},
                     {"analytic_rank", p.split.analytic_rank},
                     {"emulate", p.emulate},
                     {"done", p.done}};
    if (p.done) {
      j["emulated_cycles"] = p.emulated_cycles;
      j["ok"] = p.ok;
      j["wrong"] = p.wrong;
      j["wall_seconds"] = p.wall_seconds;
      j["errors"] = p.errors;
      j["emulated_rank"] = p.emulated_rank;
      j["perf_per_cost_rank"] = p.perf_per_cost_rank;
      j["iteration_us"] = static_cast<double>(p.emulated_cycles) / (clock_ghz * 1e3);
      j["iterations_per_s_per_kusd"] = perf_per_cost(p, clock_ghz);
      j["pareto"] = p.pareto;
      j["emulated_over_analytic"] = p.split.analytic_cycles > 0 ? static_cast<double>(p.emulated_cycles) / p.split.analytic_cycles : 0;
    }
    if (p.area_cells >= 0) j["area_cells"] = p.area_cells;
    pts.push_back(j);
  }
  return {{"key", key},           {"workload", workload},  {"clock_ghz", clock_ghz},  {"points", pts},
          {"refused", refused},   {"spearman", spearman},  {"emulated_now", emulated_now},
          {"resumed", resumed}};
}

std::string explore_table(const ExploreResult& r) {
  const double us = 1e-3 / r.clock_ghz;
  std::string out = fmt::format("{:<10} {:>10} {:>10} {:>8} {:>11} {:>8} {:>8} {:>12} {:>9} {:>7}\n", "split",
                                "cost ($)", "cells", "LIBRA us", "rank(LIBRA)", "emul. us", "rank(em)",
                                "iter/s/k$", "rank(p/$)", "pareto");
  for (const auto& p : r.points) {
    // The network's cells (routers, switches, NICs x their counts) in millions.
    const std::string area = p.area_cells >= 0 ? fmt::format("{:.1f}M", static_cast<double>(p.area_cells) / 1e6) : "-";
    if (!p.done) {
      out += fmt::format("{:<10} {:>10.0f} {:>10} {:>8.1f} {:>11}\n", p.split.label, p.split.cost_usd, area,
                         p.split.analytic_cycles * us, p.split.analytic_rank);
      continue;
    }
    const double ppc = perf_per_cost(p, r.clock_ghz);
    out += fmt::format("{:<10} {:>10.0f} {:>10} {:>8.1f} {:>11} {:>8.1f} {:>8g} {:>12.2f} {:>9g} {:>7}{}{}\n",
                       p.split.label, p.split.cost_usd, area, p.split.analytic_cycles * us, p.split.analytic_rank,
                       static_cast<double>(p.emulated_cycles) * us, p.emulated_rank, ppc, p.perf_per_cost_rank,
                       p.pareto ? "*" : "", p.ok ? "" : "  FAILED", p.from_file ? "  (earlier run)" : "");
  }
  return out;
}

std::string explore_svg(const ExploreResult& r) {
  const double us = 1e-3 / r.clock_ghz;
  tb::LineChart c;
  c.title = "Iteration time against network cost: " + r.workload;
  c.x_label = "network cost ($)";
  c.y_label = "iteration time (us)";
  tb::Series emulated{"emulated", {}, {}, false}, analytic{"LIBRA estimate", {}, {}, false},
      front{"Pareto front (emulated)", {}, {}, true};
  std::vector<std::pair<double, double>> fr;
  for (const auto& p : r.points) {
    analytic.x.push_back(p.split.cost_usd);
    analytic.y.push_back(p.split.analytic_cycles * us);
    if (!p.done) continue;
    emulated.x.push_back(p.split.cost_usd);
    emulated.y.push_back(static_cast<double>(p.emulated_cycles) * us);
    if (p.pareto) fr.push_back({p.split.cost_usd, static_cast<double>(p.emulated_cycles) * us});
  }
  std::sort(fr.begin(), fr.end());
  for (const auto& [x, y] : fr) {
    front.x.push_back(x);
    front.y.push_back(y);
  }
  c.series = {emulated, front, analytic};
  return tb::render_line_chart(c);
}

}  // namespace hxemu::app
