#include "tb/traffic/sweep.h"

#include "sysc/util/parse_number.h"
#include "tb/traffic/packet_size.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hxemu::tb {

std::vector<double> parse_loads(const std::string& spec) {
  if (spec.empty() || spec.back() == ',' || spec.back() == ':' || spec.front() == ',' || spec.front() == ':') {
    throw std::invalid_argument("--loads '" + spec + "': an empty field (forms: START:END:STEP or a comma list)");
  }
  auto number = [&](const std::string& s) {
    const double v = sysc::parse_double(s).value_or(-1);
    if (!(v > 0) || v > 1) {
      throw std::invalid_argument("--loads '" + spec + "': '" + s +
                                  "' is not a load in (0, 1] flits/node/cycle (forms: START:END:STEP "
                                  "or a comma list)");
    }
    return v;
  };
  std::vector<std::string> parts;
  std::vector<double> out;
  if (spec.find(':') != std::string::npos) {
    std::istringstream in(spec);
    std::string p;
    while (std::getline(in, p, ':')) parts.push_back(p);
    if (parts.size() != 3) throw std::invalid_argument("--loads '" + spec + "': expected START:END:STEP");
    const double a = number(parts[0]), b = number(parts[1]), step = number(parts[2]);
    if (b < a) throw std::invalid_argument("--loads '" + spec + "': END is below START");
    for (int i = 0;; ++i) {
      const double v = a + i * step;
      if (v > b + 1e-9) break;
      out.push_back(std::round(v * 1e6) / 1e6);
      if (out.size() > 1000) throw std::invalid_argument("--loads '" + spec + "': more than 1000 points");
    }
  } else {
    std::istringstream in(spec);
    std::string p;
    while (std::getline(in, p, ',')) out.push_back(number(p));
  }
  if (out.empty()) throw std::invalid_argument("--loads '" + spec + "': no loads");
  return out;
}

std::uint64_t zero_load_window(std::uint64_t packets, double load, int nodes, double mean_flits) {
  if (!(load > 0) || nodes <= 0) return 1000;
  const double cycles = static_cast<double>(packets) * mean_flits / (load * nodes);
  return static_cast<std::uint64_t>(std::ceil(std::clamp(cycles, 1000.0, 200000.0)));
}

namespace {

ZeroLoadLatency measure_zero_load(const sysc::SystemConfig& sys_cfg, const SweepConfig& cfg,
                                  const sysc::HarnessFactory& harness, Progress* progress) {
  TrafficRunConfig rc = cfg.base;
  rc.load = cfg.zero_load_load;
  // At 1% load the network reaches its steady state within a few packet latencies.
  rc.warmup = std::min<std::uint64_t>(cfg.base.warmup, 1000);
  const PacketSize sizes(cfg.base.packet_flits, sys_cfg.max_packet_flits);
  rc.measure = zero_load_window(cfg.zero_load_packets, rc.load, sys_cfg.nodes(), sizes.mean());
  if (progress) progress->stage(fmt::format("zero load ({:g})", rc.load));
  const TrafficRunResult r = run_traffic(sys_cfg, rc, harness, progress);
  if (!r.checks_passed) {
    throw std::runtime_error("the zero-load run at load " + fmt::format("{:g}", rc.load) +
                             " failed its checks: " + (r.errors.empty() ? "" : r.errors.front()));
  }
  ZeroLoadLatency z;
  z.measured = true;
  z.load = rc.load;
  z.latency = r.packet_latency.mean();
  z.model = r.zero_load_packet_latency;
  z.packets = r.packet_latency.count();
  z.cycles = rc.measure;
  z.wall_seconds = r.wall_seconds;
  if (progress) progress->set_cycle_base(progress->cycle_base() + r.cycles);
  return z;
}

}  // namespace

SweepResult run_sweep(const sysc::SystemConfig& sys_cfg, const SweepConfig& cfg,
                      sysc::HarnessFactory harness,
                      const std::function<void(std::size_t, const TrafficRunResult&)>& on_point,
                      Progress* progress) {
  SweepResult res;
  if (progress) {
    // Expected: the zero-load run and every point's warm-up and window (drains add to it).
    std::uint64_t total = cfg.loads.size() * (cfg.base.warmup + cfg.base.measure);
    if (cfg.zero_load_load > 0) {
      const PacketSize sizes(cfg.base.packet_flits, sys_cfg.max_packet_flits);
      total += std::min<std::uint64_t>(cfg.base.warmup, 1000) +
               zero_load_window(cfg.zero_load_packets, cfg.zero_load_load, sys_cfg.nodes(), sizes.mean());
    }
    progress->set_total_cycles(progress->cycle_base() + total);
  }
  if (cfg.zero_load_load > 0) {
    res.zero_load = measure_zero_load(sys_cfg, cfg, harness, progress);
    res.wall_seconds += res.zero_load.wall_seconds;
  }
  int past = -1;
  for (std::size_t i = 0; i < cfg.loads.size(); ++i) {
    TrafficRunConfig rc = cfg.base;
    rc.load = cfg.loads[i];
    if (progress) progress->stage(fmt::format("load {:.3f} ({}/{})", rc.load, i + 1, cfg.loads.size()));
    TrafficRunResult r = run_traffic(sys_cfg, rc, harness, progress);
    if (progress) progress->set_cycle_base(progress->cycle_base() + r.cycles);
    res.wall_seconds += r.wall_seconds;
    if (i == 0) res.lowest_load_latency = r.packet_latency.mean();
    const bool sat = r.saturated;
    res.checks_passed = res.checks_passed && r.checks_passed;
    if (!sat && past < 0) {
      res.last_unsaturated_load = rc.load;
      res.saturation_throughput = std::max(res.saturation_throughput, r.accepted);
    }
    // The throughput at saturation: what the network accepts at the first saturated load (past it,
    // flows that avoid the bottleneck can still grow, so the curve's maximum overstates it).
    if (sat && past < 0) res.saturation_throughput = r.accepted;
    if (on_point) on_point(i, r);
    res.points.push_back(std::move(r));
    if (sat) {
      res.reached_saturation = true;
      if (past < 0) past = 0;
      else ++past;
      if (past >= cfg.points_past_saturation) break;
    }
    if (!res.points.back().checks_passed) break;   // a broken point ends the curve: report it
  }
  return res;
}

nlohmann::json SweepResult::json() const {
  nlohmann::json pts = nlohmann::json::array();
  for (const auto& p : points) pts.push_back(p.json(false));
  nlohmann::json zero = nullptr;
  if (zero_load.measured) {
    zero = {{"load", zero_load.load},
            {"packet_latency_mean", zero_load.latency},
            {"packet_latency_model", zero_load.model},
            {"packets", zero_load.packets},
            {"window_cycles", zero_load.cycles}};
  }
  return {{"zero_load", zero},
          {"lowest_load_packet_latency", lowest_load_latency},
          {"saturation_throughput", saturation_throughput},
          {"last_unsaturated_load", last_unsaturated_load},
          {"reached_saturation", reached_saturation},
          {"checks_passed", checks_passed},
          {"wall_seconds", wall_seconds},
          {"points", pts}};
}

std::string SweepResult::csv() const { return points_csv(points); }

std::string points_csv(const std::vector<TrafficRunResult>& points) {
  std::string s =
      "offered_load,offered,accepted,accepted_min,accepted_max,accepted_gbps_per_node,"
      "packet_latency_mean,packet_latency_p50,packet_latency_p99,packet_latency_p99_9,"
      "packet_latency_max,network_latency_mean,hops_mean,measured_packets,delivered_packets,"
      "withdrawn_packets,saturated,checks_passed,clean,accepted_not_judged\n";
  for (const auto& r : points) {
    s += fmt::format("{:.4f},{:.6f},{:.6f},{:.6f},{:.6f},{:.3f},{:.3f},{},{},{},{},{:.3f},{:.4f},{},{},{},{},{},{},{}\n",
                     r.cfg.load, r.offered, r.accepted, r.accepted_min, r.accepted_max,
                     r.accepted * r.link_gbps, r.packet_latency.mean(),
                     r.packet_latency.percentile(0.5), r.packet_latency.percentile(0.99),
                     r.packet_latency.percentile(0.999), r.packet_latency.max(),
                     r.network_latency.mean(), r.hops_mean, r.measured_packets, r.delivered_packets,
                     r.withdrawn_packets, r.saturated ? 1 : 0, r.checks_passed ? 1 : 0,
                     r.clean() ? 1 : 0, r.saturation.accepted_not_judged ? 1 : 0);
  }
  return s;
}

}  // namespace hxemu::tb
