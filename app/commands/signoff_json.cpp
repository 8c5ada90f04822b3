// The JSON form of the sign-off report: every figure of every section, the metrics thresholds are
// judged on, the verdicts, and the reproducibility stamp. Sections reuse the JSON of the command
// that measures them (describe, area, pairs, sweep, collective, train) where it has one.
#include "app/commands/signoff_report.h"

#include "tb/report_io.h"

namespace hxemu::app {

namespace {

using nlohmann::json;

json area_json(const AreaSection& a) {
  json j = a.report.json();
  j["ran"] = a.ran;
  if (!a.ran) j["not_run"] = a.not_run;
  j["complete"] = a.ran && a.report.complete();
  j["yosys"] = a.yosys;
  j["rtl_digest"] = a.rtl_digest;
  j["cache_dir"] = a.cache_dir;
  j["timeout_s"] = a.timeout_s;
  j["max_memory_gib"] = a.max_memory_gib;
  j["seconds"] = a.seconds;
  return j;
}

json deadlock_json(const DeadlockSection& d) {
  json modes = json::array();
  for (const auto& m : d.modes) {
    json j = {{"mode", m.mode.name}, {"setting", m.mode.setting}, {"configured", m.mode.configured},
              {"applies", m.mode.applies}};
    if (!m.mode.applies) {
      j["why_not"] = m.mode.why_not;
    } else {
      j["routing_ok"] = m.report.ok;
      j["acyclic"] = m.report.ok && m.report.acyclic;
      j["channels"] = m.report.channels;
      j["dependencies"] = m.report.dependencies;
      j["seconds"] = m.report.seconds;
      if (!m.report.ok) j["error"] = m.report.error;
      if (!m.cycle.empty()) j["cycle"] = m.cycle;
    }
    modes.push_back(j);
  }
  return {{"deadlock_free", d.deadlock_free()}, {"modes", modes}, {"seconds", d.seconds}};
}

json zero_load_json(const ZeroLoadSection& z) {
  json j = tb::pairs_json(z.pairs);
  j.erase("rows");   // one per pair: the by-length table carries what the report shows
  json by = json::array();
  for (const auto& l : z.by_length) {
    by.push_back({{"links", l.links}, {"pairs", l.pairs}, {"head_latency_mean", l.head_mean},
                  {"model_head_latency_mean", l.model_mean}, {"head_latency_max", l.head_max},
                  {"model_head_latency_max", l.model_max}, {"mismatches", l.mismatches}});
  }
  j["by_length"] = by;
  j["sample"] = z.sample;
  j["not_delivered"] = z.not_delivered;
  j["seconds"] = z.seconds;
  return j;
}

json saturation_json(const SignoffPlan& plan, const SignoffResult& r) {
  json rows = json::array();
  for (const auto& s : r.saturation) {
    json bound = {{"known", s.bound.known}};
    if (s.bound.known) {
      bound["throughput"] = s.bound.throughput;
      bound["max_link_load"] = s.bound.max_link_load;
      bound["busiest_link"] = s.bound.busiest_link;
    } else {
      bound["why"] = s.bound.why;
    }
    json j = s.sweep.json();
    j["pattern"] = s.pattern;
    j["bound"] = bound;
    j["bound_fraction"] = s.bound.known ? s.sweep.saturation_throughput / s.bound.throughput : 0.0;
    j["saturation_gbps_per_node"] = s.sweep.saturation_throughput * plan.cfg.link_gbps();
    rows.push_back(j);
  }
  json skipped = json::array();
  for (const auto& [p, why] : plan.patterns_skipped) skipped.push_back({{"pattern", p}, {"why", why}});
  const auto& o = plan.opt;
  return {{"patterns", rows},
          {"skipped", skipped},
          {"run_lengths", {{"packet_flits", o.packet_flits}, {"loads", o.loads}, {"warmup", o.warmup},
                           {"measure", o.measure}, {"drain", o.drain}, {"text", saturation_run_lengths(plan)}}},
          {"seconds", r.saturation_seconds}};
}

json metrics_json(const Metrics& metrics) {
  json j = json::object();
  for (const auto& [name, m] : metrics) {
    json x = {{"unit", m.unit}, {"measured", m.measured}};
    if (m.boolean) {
      x["value"] = m.value != 0;
    } else {
      x["value"] = m.value;
    }
    if (!m.measured) x["why_not"] = m.why_not;
    if (m.bound > 0) x["bound"] = m.bound;
    if (m.injection > 0) x["injection"] = m.injection;
    j[name] = x;
  }
  return j;
}

}  // namespace

nlohmann::json signoff_json(const SignoffPlan& plan, const SignoffResult& r) {
  json j;
  j["stamp"] = tb::reproducibility_stamp(plan.cfg, plan.opt.seed, plan.opt.command_line);
  j["stamp"]["harness"] = plan.opt.harness_label;
  j["workload_file"] = plan.opt.workload;
  j["thresholds_file"] = plan.opt.thresholds;
  j["exit_status"] = r.exit_status();
  j["problems"] = r.problems;
  j["wall_seconds"] = r.wall_seconds;

  json s;
  s["structure"] = r.structure.describe;
  s["structure"]["seconds"] = r.structure.seconds;
  s["area"] = area_json(r.area);
  s["deadlock"] = deadlock_json(r.deadlock);
  s["zero_load"] = zero_load_json(r.zero_load);
  s["saturation"] = saturation_json(plan, r);
  json coll = json::array();
  for (const auto& c : r.collectives) coll.push_back(c.r.json());
  s["collectives"] = {{"allreduce_algo", plan.allreduce_algo}, {"alltoall_algo", plan.alltoall_algo},
                      {"sizes", plan.opt.sizes}, {"runs", coll}, {"seconds", r.collectives_seconds}};
  if (r.workload.ran) {
    json w = r.workload.r.json();
    w["name"] = r.workload.name;
    w["source"] = r.workload.source;
    w["parallelism"] = r.workload.parallelism;
    w["placement"] = r.workload.placement;
    w["seconds"] = r.workload.seconds;
    s["workload"] = w;
  } else {
    s["workload"] = nullptr;
  }
  j["sections"] = s;
  j["metrics"] = metrics_json(r.metrics);
  json th = json::array();
  for (const auto& v : r.verdicts) {
    th.push_back({{"source", v.threshold.source}, {"text", v.threshold.text}, {"metric", v.threshold.metric},
                  {"measured", v.measured}, {"passed", v.passed}, {"measured_text", v.measured_text},
                  {"compared", v.compared}});
  }
  j["thresholds"] = th;
  j["thresholds_failed"] = r.thresholds_failed();
  j["figures"] = signoff_figure_names();
  return j;
}

}  // namespace hxemu::app
