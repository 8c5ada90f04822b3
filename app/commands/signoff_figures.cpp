// The sign-off report's SVG figures (tb/report/svg_chart.h), each with the bound it is judged
// against drawn in: saturation curves with each pattern's channel-load bound, collectives' busbw
// with each one's bound in its note, zero-load latency beside the pipeline model, the area per block.
#include <fmt/core.h>

#include <algorithm>

#include "app/commands/signoff_report.h"
#include "tb/report/svg_chart.h"

namespace hxemu::app {

namespace {

std::string saturation_svg(const SignoffPlan& plan, const SignoffResult& r) {
  tb::LineChart c;
  c.title = fmt::format("{}: accepted against offered load, {}-flit packets (dashed: channel-load bounds)",
                        plan.cfg.name, plan.opt.packet_flits);
  c.x_label = "offered load (flits/node/cycle)";
  c.y_label = "accepted (flits/node/cycle)";
  for (const auto& sat : r.saturation) {
    tb::Series s{sat.pattern, {}, {}};
    for (const auto& p : sat.sweep.points) {
      s.x.push_back(p.cfg.load);
      s.y.push_back(p.accepted);
    }
    c.series.push_back(s);
    if (sat.bound.known) c.h_lines.push_back({sat.bound.throughput, sat.pattern + " bound"});
  }
  if (c.series.empty()) c.title += " -- no pattern ran";
  return tb::render_line_chart(c);
}

std::string latency_svg(const SignoffPlan& plan, const SignoffResult& r) {
  tb::LineChart c;
  c.title = fmt::format("{}: mean packet latency against offered load", plan.cfg.name);
  c.x_label = "offered load (flits/node/cycle)";
  c.y_label = "mean packet latency (cycles)";
  double model = 0;
  for (const auto& sat : r.saturation) {
    tb::Series s{sat.pattern, {}, {}};
    for (const auto& p : sat.sweep.points) {
      s.x.push_back(p.cfg.load);
      s.y.push_back(p.packet_latency.mean());
    }
    c.series.push_back(s);
    model = std::max(model, sat.sweep.zero_load.model);
  }
  // Past saturation latency grows without bound: cap the axis as hxemu sweep's plot does.
  if (model > 0) {
    c.y_max = std::max(10.0, 8 * model);
    c.h_lines.push_back({model, "zero-load model"});
  }
  return tb::render_line_chart(c);
}

std::string collectives_svg(const SignoffPlan& plan, const SignoffResult& r) {
  tb::BarChart c;
  c.title = fmt::format("{}: collectives' busbw (each bar's note: its bound and the share of it reached)", plan.cfg.name);
  c.y_label = "busbw (GB/s)";
  double injection = 0;
  for (const auto& x : r.collectives) {
    c.bars.push_back({fmt::format("{} {} {}", x.op, size_label(x.r.bytes), x.r.algo), x.r.busbw,
                      fmt::format("bound {:.0f}, {:.0f}%", x.r.bound_busbw, 100 * x.r.bound_fraction)});
    injection = std::max(injection, x.r.injection);
  }
  if (injection > 0) c.h_lines.push_back({injection, "injection"});
  return tb::render_bar_chart(c);
}

std::string zero_load_svg(const SignoffPlan& plan, const SignoffResult& r) {
  tb::LineChart c;
  c.title = fmt::format("{}: zero-load head latency by route length, measured and pipeline model", plan.cfg.name);
  c.x_label = "route length (links)";
  c.y_label = "head latency (cycles)";
  tb::Series mean{"measured mean", {}, {}}, max{"measured max", {}, {}}, model{"model mean", {}, {}};
  for (const auto& l : r.zero_load.by_length) {
    mean.x.push_back(l.links);
    mean.y.push_back(l.head_mean);
    max.x.push_back(l.links);
    max.y.push_back(static_cast<double>(l.head_max));
    model.x.push_back(l.links);
    model.y.push_back(l.model_mean);
  }
  c.series = {mean, max, model};
  return tb::render_line_chart(c);
}

std::string area_svg(const SignoffPlan& plan, const SignoffResult& r) {
  tb::BarChart c;
  c.title = fmt::format("{}: cells x count per block (Yosys generic synthesis)", plan.cfg.name);
  c.y_label = "cells x count";
  const auto& a = r.area;
  for (const auto& b : a.report.blocks) {
    if (!a.ran || !b.error.empty()) continue;
    c.bars.push_back({b.block.role, static_cast<double>(b.result.cells * b.block.count),
                      fmt::format("{} x {} cells", b.block.count, b.result.cells)});
  }
  if (!a.ran) {
    c.title += " -- not synthesized: " + a.not_run;
  } else if (!a.report.complete()) {
    c.title += " -- partial: failed blocks are missing";
  }
  return tb::render_bar_chart(c);
}

}  // namespace

const std::vector<std::string>& signoff_figure_names() {
  static const std::vector<std::string> names = {"saturation.svg", "latency.svg", "collectives.svg", "zero-load.svg",
                                                 "area.svg"};
  return names;
}

std::vector<std::pair<std::string, std::string>> signoff_figures(const SignoffPlan& plan, const SignoffResult& r) {
  return {{"saturation.svg", saturation_svg(plan, r)},
          {"latency.svg", latency_svg(plan, r)},
          {"collectives.svg", collectives_svg(plan, r)},
          {"zero-load.svg", zero_load_svg(plan, r)},
          {"area.svg", area_svg(plan, r)}};
}

}  // namespace hxemu::app
