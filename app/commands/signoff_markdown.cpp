// The Markdown form of the sign-off report: a reviewer reads it top to bottom -- the verdict, a
// summary of the headline figures each beside its bound, then one section per measurement with
// its tables, its figure and what was run, and the reproducibility stamp at the end.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "app/commands/signoff_report.h"
#include "sw/collectives/algorithms.h"
#include "tb/build_info.h"

namespace hxemu::app {

namespace {

// 1234567 -> "1,234,567"
std::string grouped(long long v) {
  std::string s = std::to_string(v < 0 ? -v : v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return (v < 0 ? "-" : "") + s;
}

std::string usd(double v) { return "$" + grouped(std::llround(v)); }
std::string pct(double f) { return std::isfinite(f) ? fmt::format("{:.1f}%", 100 * f) : "-"; }
std::string secs(double s) { return s >= 100 ? fmt::format("{:.0f} s", s) : fmt::format("{:.1f} s", s); }

// A Markdown table cell: pipes escaped, newlines as spaces.
std::string cell(std::string s) {
  for (std::size_t p = 0; (p = s.find_first_of("|\n", p)) != std::string::npos;) {
    if (s[p] == '|') {
      s.replace(p, 1, "\\|");
      p += 2;
    } else {
      s[p] = ' ';
    }
  }
  return s;
}

std::string row(const std::vector<std::string>& cells) {
  std::string s = "|";
  for (const auto& c : cells) s += " " + cell(c) + " |";
  return s + "\n";
}

// Header row and the alignment row; `right` columns are numbers.
std::string header(const std::vector<std::string>& cells, const std::vector<bool>& right) {
  std::string s = row(cells) + "|";
  for (std::size_t i = 0; i < cells.size(); ++i) s += i < right.size() && right[i] ? " ---: |" : " --- |";
  return s + "\n";
}

std::string code(const std::string& s) { return "`" + s + "`"; }

std::string deadlock_verdict(const DeadlockSection::Mode& m) {
  if (!m.mode.applies) return "not applicable";
  if (!m.report.ok) return "ROUTING ERROR";
  return m.report.acyclic ? "acyclic: deadlock-free" : "CYCLE";
}

std::string summary_table(const SignoffPlan& plan, const SignoffResult& r) {
  std::string s = "## Summary\n\n";
  s += header({"figure", "measured", "bound", "of bound", "section"}, {false, true, true, true, false});
  const auto& z = r.zero_load;
  int model_max = 0;
  for (const auto& l : z.by_length) model_max = std::max(model_max, l.model_max);
  s += row({"zero-load latency, max over pairs", fmt::format("{} cycles", z.pairs.max_head),
            fmt::format("{} cycles (pipeline model)", model_max),
            model_max > 0 ? pct(static_cast<double>(model_max) / static_cast<double>(z.pairs.max_head)) : "-", "4"});
  for (const auto& sat : r.saturation) {
    s += row({"saturation, " + sat.pattern, fmt::format("{:.4f} flits/node/cycle", sat.sweep.saturation_throughput),
              sat.bound.known ? fmt::format("{:.4f} (channel load)", sat.bound.throughput) : "-",
              sat.bound.known ? pct(sat.sweep.saturation_throughput / sat.bound.throughput) : "-", "5"});
  }
  for (const auto& c : r.collectives) {
    s += row({fmt::format("{} {} busbw ({})", c.op, size_label(c.r.bytes), c.r.algo),
              fmt::format("{:.2f} GB/s", c.r.busbw), fmt::format("{:.2f} GB/s", c.r.bound_busbw),
              pct(c.r.bound_fraction), "6"});
  }
  if (r.workload.ran) {
    const auto& w = r.workload.r;
    const double bound_us = static_cast<double>(w.bound_iteration_cycles) * 1e-3 / plan.cfg.clock_ghz;
    s += row({"iteration time, " + r.workload.name, fmt::format("{:.1f} us", w.iteration_us),
              fmt::format("{:.1f} us", bound_us), w.iteration_us > 0 ? pct(bound_us / w.iteration_us) : "-", "7"});
  }
  s += "\n";
  int applies = 0, free = 0;
  for (const auto& m : r.deadlock.modes) {
    applies += m.mode.applies;
    free += m.mode.applies && m.report.ok && m.report.acyclic;
  }
  std::uint64_t wrong = 0, checked = 0;
  for (const auto& c : r.collectives) {
    wrong += c.r.wrong;
    checked += c.r.checked;
  }
  if (r.workload.ran) {
    wrong += r.workload.r.wrong;
    checked += r.workload.r.checked;
  }
  s += fmt::format("Deadlock freedom: acyclic channel-dependency graph in {} of {} routing modes (section 3). "
                   "Data: {} wrong of {} result elements checked (sections 6, 7). Network cost {} (section 1). "
                   "Area: {} (section 2). \"Of bound\" is measured / bound for throughputs and bound / measured for "
                   "latencies and times; a saturation bound is the pattern's ideal throughput, which what a "
                   "permutation's network accepts past saturation can exceed (section 5).\n\n",
                   free, applies, grouped(static_cast<long long>(wrong)), grouped(static_cast<long long>(checked)),
                   usd(r.structure.cost.total_usd),
                   !r.area.ran ? r.area.not_run
                   : r.area.report.complete()
                       ? fmt::format("{} cells, {} flip-flops", grouped(r.area.report.total_cells),
                                     grouped(r.area.report.total_flip_flops))
                       : "partial, some blocks did not synthesize");
  return s;
}

std::string structure_section(const SignoffPlan& plan, const SignoffResult& r) {
  const auto& d = r.structure.describe;
  const auto& c = r.structure.cost;
  std::string s = "## 1. Structure and cost\n\nWhat `hxemu describe` reports (`tb::describe_system`), and the network's "
                  "cost (`sysc::network_cost`, docs/cost.md).\n\n";
  s += header({"", ""}, {false, false});
  s += row({"topology", fmt::format("{} ({})", d.value("topology", std::string()), plan.cfg.name)});
  s += row({"accelerators", std::to_string(d.value("nodes", 0))});
  s += row({"routers / switches / trees",
            fmt::format("{} / {} / {}", d.value("routers", 0), d.value("switches", 0), d.value("trees", 0))});
  if (d.contains("links")) {
    s += row({"links", fmt::format("{} on-board, {} cable, {} NIC", d["links"].value("board", 0),
                                   d["links"].value("cable", 0), d["links"].value("terminal", 0))});
  }
  if (d.contains("vcs")) {
    std::string counts;
    for (const auto& v : d["vcs"]["class_counts"]) counts += (counts.empty() ? "" : ", ") + std::to_string(v.get<int>());
    s += row({"VCs per port", fmt::format("{} in {} classes ({}), {} policy", d["vcs"].value("per_port", 0),
                                          d["vcs"].value("classes", 0), counts, d["vcs"].value("policy", std::string()))});
  }
  s += row({"buffers", fmt::format("{} flits/VC on board and NIC inputs, {} on cable inputs", plan.cfg.board_depth,
                                   plan.cfg.cable_depth)});
  s += row({"link bandwidth", fmt::format("{:.1f} GB/s per direction ({}-bit flits at {} GHz)",
                                          plan.cfg.link_gbps() / 8, plan.cfg.flit_bits, plan.cfg.clock_ghz)});
  s += row({"injection per accelerator", fmt::format("{:.1f} GB/s ({} network ports)", c.injection_gbs,
                                                     c.nics_per_accelerator)});
  if (d.contains("routes")) {
    s += row({"route length", fmt::format("mean {:.2f}, max {} links ({} pairs{})",
                                          d["routes"].value("mean_links", 0.0), d["routes"].value("max_links", 0),
                                          d["routes"].value("pairs_traced", 0),
                                          d["routes"].value("sampled", false) ? ", sampled" : "")});
  }
  s += row({"network cost", fmt::format("{} = {} per accelerator = {} per GB/s of injection ({})", usd(c.total_usd),
                                        usd(c.usd_per_accelerator), usd(c.usd_per_injection_gbs),
                                        c.model == "libra" ? "LIBRA's $ per GB/s model" : "counts x unit prices")});
  s += "\n";
  if (!c.items.empty()) {
    s += header({"cost item", "count", "unit price", "cost"}, {false, true, true, true});
    for (const auto& i : c.items) s += row({i.what, grouped(i.count), usd(i.unit_usd), usd(i.usd)});
    s += "\n";
  }
  if (!c.dims.empty()) {
    s += header({"dimension", "kind", "class", "GB/s per NPU", "cost"}, {false, false, false, true, true});
    for (const auto& dm : c.dims) {
      s += row({dm.name, dm.kind, dm.cost_class, fmt::format("{:.1f}", dm.bw_gbs), usd(dm.usd)});
    }
    s += "\n";
  }
  s += "<details><summary>hxemu describe</summary>\n\n```\n" + r.structure.text + "```\n\n</details>\n\n";
  return s;
}

std::string area_section(const SignoffResult& r) {
  const auto& a = r.area;
  std::string s = "## 2. Area\n\nYosys generic synthesis of each distinct block at the configuration's design point "
                  "(`hxemu area`, docs/area.md): cells are generic gates, multiplexers and flip-flops -- a size "
                  "estimate, not um^2. Blocks as the collectives build the system (4 NICs per accelerator).\n\n";
  if (!a.ran) s += "**Not synthesized**: " + a.not_run + ". The blocks and their counts:\n\n";
  s += header({"block", "top", "parameters", "count", "cells", "flip-flops", "cells x count", "flip-flops x count",
               "synthesis"},
              {false, false, false, true, true, true, true, true, false});
  for (const auto& b : a.report.blocks) {
    if (!a.ran) {
      s += row({b.block.role, code(b.block.top), b.block.param_text(), grouped(b.block.count), "-", "-", "-", "-",
                "not run"});
    } else if (!b.error.empty()) {
      s += row({b.block.role, code(b.block.top), b.block.param_text(), grouped(b.block.count), "-", "-", "-", "-",
                "**failed**"});
    } else {
      const auto& x = b.result;
      s += row({b.block.role, code(b.block.top), b.block.param_text(), grouped(b.block.count), grouped(x.cells),
                grouped(x.flip_flops), grouped(x.cells * b.block.count), grouped(x.flip_flops * b.block.count),
                x.cached ? fmt::format("cached ({} when run)", secs(x.seconds)) : secs(x.seconds)});
    }
  }
  if (a.ran) {
    s += row({"**system total**", "", "", grouped(a.report.total_blocks), "", "", grouped(a.report.total_cells),
              grouped(a.report.total_flip_flops), a.report.complete() ? "complete" : "**partial**"});
  }
  s += "\n";
  if (a.ran) {
    std::vector<std::string> seen;
    for (const auto& b : a.report.blocks) {
      if (b.error.empty() || std::find(seen.begin(), seen.end(), b.error) != seen.end()) continue;
      seen.push_back(b.error);
      s += "- " + b.block.role + " (" + b.block.param_text() + ") failed: " + b.error + "\n";
    }
    if (!a.report.complete()) {
      s += "- The total counts only the blocks that synthesized. A larger `--area-timeout` or a machine with "
           "more memory (`--area-max-memory`) may finish the others (docs/area.md, \"Limit\").\n";
    }
    s += fmt::format("\n{}; per Yosys run at most {} s and {}; cache {}; RTL digest {}; {} in this section.\n\n",
                     a.yosys, a.timeout_s,
                     a.max_memory_gib > 0 ? fmt::format("{:g} GiB", a.max_memory_gib) : "no memory limit",
                     code(a.cache_dir.empty() ? "none" : a.cache_dir), a.rtl_digest, secs(a.seconds));
  }
  return s;
}

std::string deadlock_section(const SignoffResult& r) {
  std::string s = "## 3. Deadlock freedom\n\nThe channel-dependency graph (channel = directed router/switch link x VC "
                  "class) of every route the routers may choose, checked for a cycle (`hxemu describe "
                  "--check-deadlock`, docs/deadlock-freedom.md), once per routing mode the topology's routers take "
                  "(a fat tree, which has no routers: its leaves' up-port choice).\n\n";
  s += header({"routing mode", "setting", "channels", "dependencies", "verdict", "time"},
              {false, false, true, true, false, true});
  for (const auto& m : r.deadlock.modes) {
    const std::string name = m.mode.name + (m.mode.configured ? " (configured)" : "");
    if (!m.mode.applies) {
      s += row({name, code(m.mode.setting), "-", "-", "not applicable", "-"});
      continue;
    }
    s += row({name, code(m.mode.setting), grouped(m.report.channels), grouped(m.report.dependencies),
              deadlock_verdict(m), fmt::format("{:.3f} s", m.report.seconds)});
  }
  s += "\n";
  for (const auto& m : r.deadlock.modes) {
    if (!m.mode.applies) s += "- " + m.mode.name + " does not apply: " + m.mode.why_not + "\n";
    if (m.mode.applies && !m.report.ok) s += "- " + m.mode.name + ": routing error: " + m.report.error + "\n";
    if (!m.cycle.empty()) {
      s += "- " + m.mode.name + ": cycle of " + std::to_string(m.cycle.size()) + " channels:\n\n```\n";
      for (const auto& c : m.cycle) s += c + "\n";
      s += "```\n";
    }
  }
  return s + "\n";
}

std::string zero_load_section(const SignoffResult& r) {
  const auto& z = r.zero_load;
  std::string s = "## 4. Zero-load latency\n\nOne packet at a time on an otherwise idle network (`hxemu pairs`): the "
                  "links it crossed and its latency from the head on the source's output to the head (and tail) on "
                  "the destination's input, beside the routing model and the pipeline model (2 cycles per router or "
                  "switch plus every link's latency).\n\n";
  int model_max = 0;
  double model_mean = 0;
  int n = 0;
  for (const auto& l : z.by_length) {
    model_max = std::max(model_max, l.model_max);
    model_mean += l.model_mean * l.pairs;
    n += l.pairs;
  }
  model_mean = n > 0 ? model_mean / n : 0;
  s += header({"pairs", "packet", "links mean / max", "head latency mean / max", "model mean / max",
               "tail latency mean", "disagree with the models", "not delivered"},
              {true, true, true, true, true, true, true, true});
  s += row({grouped(static_cast<long long>(z.pairs.rows.size())) + (z.sample ? " (random sample)" : " (every ordered pair)"),
            fmt::format("{} flits", z.flits), fmt::format("{:.2f} / {}", z.pairs.mean_links, z.pairs.max_links),
            fmt::format("{:.2f} / {} cycles", z.pairs.mean_head, z.pairs.max_head),
            fmt::format("{:.2f} / {} cycles", model_mean, model_max), fmt::format("{:.2f} cycles", z.pairs.mean_tail),
            grouped(static_cast<long long>(z.pairs.mismatches)), std::to_string(z.not_delivered)});
  s += "\nBy route length:\n\n";
  s += header({"links", "pairs", "head latency mean", "model mean", "head latency max", "model max", "disagree"},
              {true, true, true, true, true, true, true});
  for (const auto& l : z.by_length) {
    s += row({std::to_string(l.links), grouped(l.pairs), fmt::format("{:.2f}", l.head_mean),
              fmt::format("{:.2f}", l.model_mean), std::to_string(l.head_max), std::to_string(l.model_max),
              std::to_string(l.mismatches)});
  }
  s += "\n![zero-load latency by route length](zero-load.svg)\n\n";
  bool any = false;
  for (const auto& sat : r.saturation) {
    if (!sat.sweep.zero_load.measured) continue;
    if (!any) {
      s += "Packet latency at near-zero load (from its creation at the source, so serialization and the NIC "
           "attachment count), measured before each saturation curve (section 5):\n\n";
      s += header({"pattern", "load", "packets", "measured", "model", "measured / model"},
                  {false, true, true, true, true, true});
      any = true;
    }
    const auto& zl = sat.sweep.zero_load;
    s += row({sat.pattern, fmt::format("{:g}", zl.load), grouped(static_cast<long long>(zl.packets)),
              fmt::format("{:.2f} cycles", zl.latency), fmt::format("{:.2f} cycles", zl.model),
              zl.model > 0 ? fmt::format("{:.3f}", zl.latency / zl.model) : "-"});
  }
  s += fmt::format("\n{} in this section.\n\n", secs(z.seconds));
  return s;
}

std::string saturation_section(const SignoffPlan& plan, const SignoffResult& r) {
  std::string s = "## 5. Saturation throughput\n\nLatency against offered load up to saturation (`hxemu sweep`): a point "
                  "is saturated when the network accepts less than 98% of the offered load, measured packets are "
                  "still undelivered at the drain limit, or mean latency passes 5x the pipeline model; the "
                  "saturation throughput is what the network accepts at the first saturated load. Synthetic traffic "
                  "has one endpoint port per accelerator (1 flit/cycle = the injection). The bound is the pattern's "
                  "ideal throughput from its channel load: the offered load at which the busiest link of its routes "
                  "would be full (adaptive choices split evenly). Under deterministic routing the flows that cross the busiest "
                  "link cannot all get more; but the sweep judges the average over all nodes, and on a permutation "
                  "the other flows keep going, so both what the network accepts at saturation and the highest load "
                  "it sustains (98% of it accepted on average) can exceed the bound when few flows share that link "
                  "(randperm). What the bound holds for every node is the slowest node's accepted rate.\n\n";
  s += "Run lengths: " + saturation_run_lengths(plan) + "\n\n";
  s += header({"pattern", "saturation (flits/node/cycle)", "per node", "bound", "of bound", "of injection",
               "highest load sustained", "slowest node at saturation", "busiest link at the bound", "checks", "time"},
              {false, true, true, true, true, true, true, true, false, false, true});
  for (const auto& sat : r.saturation) {
    const double v = sat.sweep.saturation_throughput;
    // The slowest destination at the first saturated load: what the bound holds for every node.
    std::string slowest = "-";
    for (const auto& p : sat.sweep.points) {
      if (!p.saturated) continue;
      slowest = fmt::format("{:.4f}", p.accepted_min);
      break;
    }
    s += row({sat.pattern, fmt::format("{:.4f}{}", v, sat.sweep.reached_saturation ? "" : " (not saturated)"),
              fmt::format("{:.1f} Gb/s", v * plan.cfg.link_gbps()),
              sat.bound.known ? fmt::format("{:.4f}", sat.bound.throughput) : "-",
              sat.bound.known ? pct(v / sat.bound.throughput) : "-", pct(v),
              sat.sweep.last_unsaturated_load > 0 ? fmt::format("{:g}", sat.sweep.last_unsaturated_load) : "none",
              slowest, sat.bound.known ? code(sat.bound.busiest_link) : sat.bound.why,
              sat.sweep.checks_passed ? "passed" : "**FAILED**", secs(sat.sweep.wall_seconds)});
  }
  for (const auto& [p, why] : plan.patterns_skipped) {
    s += row({p, "-", "-", "-", "-", "-", "-", "-", "not run: " + why, "-", "-"});
  }
  s += "\n![accepted against offered load](saturation.svg)\n\n![latency against offered load](latency.svg)\n\n";
  s += fmt::format("{} in this section.\n\n", secs(r.saturation_seconds));
  return s;
}

std::string collectives_section(const SignoffPlan& plan, const SignoffResult& r) {
  std::string s = "## 6. Collectives\n\nEvery accelerator in one communicator, int32 data, every result element checked "
                  "against a C++ reference (as `hxemu collective --op OP --algo ALGO --sizes ...`: one session per "
                  "operation, its sizes in a row). The algorithm is the one `hxemu train` picks for the "
                  "whole machine (allreduce: " + code(plan.allreduce_algo) + ", alltoall: " + code(plan.alltoall_algo) +
                  "). busbw as nccl-tests (allreduce: algbw x 2(n-1)/n, alltoall: x (n-1)/n); the bound is the "
                  "algorithm's busbw if the busiest link of its schedule ran at full payload bandwidth.\n\n";
  s += header({"op", "size per accelerator", "algorithm", "cycles", "time", "busbw", "bound", "of bound", "injection",
               "of injection", "elements checked", "wrong", "time to emulate"},
              {false, true, false, true, true, true, true, true, true, true, true, true, true});
  for (const auto& c : r.collectives) {
    const auto& x = c.r;
    s += row({c.op, size_label(x.bytes), x.algo, grouped(static_cast<long long>(x.cycles)),
              fmt::format("{:.2f} us", x.microseconds), fmt::format("{:.2f} GB/s", x.busbw),
              fmt::format("{:.2f} GB/s", x.bound_busbw), pct(x.bound_fraction), fmt::format("{:.1f} GB/s", x.injection),
              pct(x.injection_fraction), grouped(static_cast<long long>(x.checked)),
              x.wrong ? "**" + grouped(static_cast<long long>(x.wrong)) + "**" : "0", secs(x.wall_seconds)});
  }
  s += "\n";
  for (const auto& c : r.collectives) {
    s += fmt::format("- {} {}: busiest link {}{}\n", c.op, size_label(c.r.bytes), code(c.r.busiest_link),
                     c.r.errors.empty() ? "" : "; errors: " + c.r.errors.front());
  }
  s += "\n![busbw against bound](collectives.svg)\n\n";
  s += fmt::format("{} in this section.\n\n", secs(r.collectives_seconds));
  return s;
}

std::string workload_section(const SignoffPlan& plan, const SignoffResult& r) {
  std::string s = "## 7. Workload\n\n";
  if (!r.workload.ran) return s + "No workload given (`--workload W` runs one training iteration).\n\n";
  const auto& w = r.workload.r;
  const double us_per_cycle = 1e-3 / plan.cfg.clock_ghz;
  s += "One training iteration in LIBRA's no-overlap loop (`hxemu train`, docs/training.md): compute from the "
       "workload, every communication step emulated with real data on its groups and checked.\n\n";
  s += header({"", ""}, {false, false});
  s += row({"workload", fmt::format("{} ({}), {}", r.workload.name, code(r.workload.source), r.workload.parallelism)});
  s += row({"placement", r.workload.placement});
  s += row({"iteration", fmt::format("{:.1f} us = {} cycles", w.iteration_us, grouped(static_cast<long long>(w.iteration_cycles)))});
  s += row({"compute / communication", fmt::format("{} / {} cycles; communication {} of the iteration (all exposed)",
                                                   grouped(static_cast<long long>(w.compute_cycles)),
                                                   grouped(static_cast<long long>(w.comm_cycles)),
                                                   pct(w.exposed_comm_fraction))});
  s += row({"bound (every step at its busiest link's full bandwidth)",
            fmt::format("{:.1f} us = {} cycles; bound / emulated {}", static_cast<double>(w.bound_iteration_cycles) * us_per_cycle,
                        grouped(static_cast<long long>(w.bound_iteration_cycles)),
                        w.iteration_cycles ? pct(static_cast<double>(w.bound_iteration_cycles) / static_cast<double>(w.iteration_cycles)) : "-")});
  if (w.has_libra) {
    s += row({"LIBRA's estimate", fmt::format("{:.1f} us; emulated / LIBRA {:.3f}", w.libra_iteration_cycles * us_per_cycle,
                                              w.libra_iteration_cycles > 0 ? static_cast<double>(w.iteration_cycles) / w.libra_iteration_cycles : 0.0)});
  }
  s += row({"data check", fmt::format("{} communication steps emulated, {} reused; {} elements checked, {} wrong",
                                      w.emulated, w.reused, grouped(static_cast<long long>(w.checked)),
                                      grouped(static_cast<long long>(w.wrong)))});
  s += "\nCommunication steps:\n\n";
  s += header({"step", "stage", "pass", "layer", "what", "bytes", "algorithm", "cycles", "of bound", "note"},
              {true, true, false, false, false, true, false, true, true, false});
  for (std::size_t i = 0; i < w.steps.size(); ++i) {
    const auto& f = w.steps[i];
    if (f.step.kind != sw::PlanStep::Kind::kCommunication) continue;
    const std::string what = f.step.group == sw::GroupKind::kPipeline ? "send" : sw::op_name(f.step.op);
    s += row({std::to_string(i), std::to_string(f.step.stage), f.step.pass, f.step.layer, what,
              grouped(static_cast<long long>(f.step.bytes)), f.skipped ? "-" : f.algo,
              f.skipped ? "-" : grouped(static_cast<long long>(f.cycles)), f.skipped ? "-" : pct(f.bound_fraction),
              f.skipped ? "skipped: groups of 1" : f.reused ? "reused (an equal step's time)" : ""});
  }
  s += fmt::format("\n{} in this section.\n\n", secs(r.workload.seconds));
  return s;
}

std::string thresholds_section(const SignoffPlan& plan, const SignoffResult& r) {
  std::string s = "## 8. Thresholds\n\n";
  if (plan.thresholds.empty()) {
    s += "No threshold file given (`--thresholds FILE`; `configs/signoff/default-thresholds.txt` is an example).\n\n";
  } else {
    s += "From " + code(plan.opt.thresholds) + ". A threshold whose metric could not be measured fails.\n\n";
    s += header({"line", "threshold", "measured", "verdict"}, {false, false, false, false});
    for (const auto& v : r.verdicts) {
      const auto& t = v.threshold;
      const std::string line = t.source.substr(t.source.rfind(':') + 1);
      s += row({line, code(t.text), v.measured_text, v.passed ? "pass" : (v.measured ? "**FAIL**" : "**FAIL** (not measured)")});
    }
    s += "\n";
  }
  if (!r.problems.empty()) {
    s += "Problems the runs found (each makes the exit status 1 whatever the thresholds):\n\n";
    for (const auto& p : r.problems) s += "- " + p + "\n";
    s += "\n";
  }
  s += fmt::format("Exit status {}: {}.\n\n", r.exit_status(),
                   r.exit_status() == 0 ? "every threshold met and no problem found"
                                        : "a threshold failed or a run found a problem");
  return s;
}

std::string stamp_section(const SignoffPlan& plan) {
  std::string s = "## Reproducibility\n\nThe configuration as read (with `--set` applied, canonical form); run again "
                  "with the command above at the same source revision for the same figures (results do not depend on "
                  "the harness or thread count).\n\n```json\n";
  s += nlohmann::json::parse(plan.cfg.json).dump(2) + "\n```\n";
  return s;
}

}  // namespace

std::string saturation_run_lengths(const SignoffPlan& plan) {
  const auto& o = plan.opt;
  return fmt::format("{}-flit packets; offered loads {} flits/node/cycle, stopping one point past the first saturated "
                     "load; each point {} warm-up + {} measured cycles and a drain of up to {} cycles; before each "
                     "curve a near-zero-load run (0.01 flits/node/cycle, about 1,000 packets). (`hxemu sweep` defaults "
                     "to 2,000 + 10,000 cycles per point: what the network accepts at saturation moves little with the "
                     "window, the highest load sustained is only as fine as the load step.)",
                     o.packet_flits, o.loads, grouped(static_cast<long long>(o.warmup)),
                     grouped(static_cast<long long>(o.measure)), grouped(static_cast<long long>(o.drain)));
}

std::string signoff_markdown(const SignoffPlan& plan, const SignoffResult& r) {
  const auto& o = plan.opt;
  std::string s = "# Sign-off report: " + plan.cfg.name + "\n\n";
  const int failed = r.thresholds_failed();
  const int total = static_cast<int>(r.verdicts.size());
  std::string verdict = r.exit_status() == 0 ? "**PASS**" : "**FAIL**";
  verdict += plan.thresholds.empty() ? " -- no thresholds given"
                                     : fmt::format(" -- {} of {} thresholds met", total - failed, total);
  verdict += r.problems.empty() ? "; the runs found no problem." : fmt::format("; {} problem{} found (section 8).",
                                                                               r.problems.size(), r.problems.size() > 1 ? "s" : "");
  s += verdict + "\n\n";
  std::string sets;
  for (const auto& x : o.sets) sets += (sets.empty() ? "" : ", ") + code(x);
  s += header({"", ""}, {false, false});
  s += row({"configuration", code(plan.cfg.source) + " (" + plan.cfg.name + "; in full under Reproducibility)"});
  s += row({"overrides (--set)", sets.empty() ? "none" : sets});
  s += row({"workload", o.workload.empty() ? "none" : code(o.workload)});
  s += row({"thresholds", o.thresholds.empty() ? "none" : code(o.thresholds)});
  s += row({"seed", std::to_string(o.seed)});
  s += row({"source revision", tb::kSourceRevision});
  s += row({"tool versions", tb::tool_versions()});
  s += row({"command", code(o.command_line)});
  s += row({"harness", o.harness_label});
  s += row({"wall time", fmt::format("{} (structure {}, deadlock {}, zero-load {}, saturation {}, collectives {}{}, area {})",
                                     secs(r.wall_seconds), secs(r.structure.seconds), secs(r.deadlock.seconds),
                                     secs(r.zero_load.seconds), secs(r.saturation_seconds), secs(r.collectives_seconds),
                                     r.workload.ran ? ", workload " + secs(r.workload.seconds) : "", secs(r.area.seconds))});
  s += "\n";
  s += summary_table(plan, r);
  s += structure_section(plan, r);
  s += area_section(r);
  s += deadlock_section(r);
  s += zero_load_section(r);
  s += saturation_section(plan, r);
  s += collectives_section(plan, r);
  s += workload_section(plan, r);
  s += thresholds_section(plan, r);
  s += stamp_section(plan);
  return s;
}

}  // namespace hxemu::app
