#include "tb/traffic/sweep.h"

#include "sysc/util/parse_number.h"

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

bool point_saturated(const TrafficRunResult& r, double zero_load, const SweepConfig& cfg) {
  return r.saturated || r.accepted < (1.0 - cfg.tolerance) * r.offered ||
         (zero_load > 0 && r.packet_latency.mean() > cfg.latency_limit * zero_load);
}

SweepResult run_sweep(const sysc::SystemConfig& sys_cfg, const SweepConfig& cfg,
                      sysc::HarnessFactory harness,
                      const std::function<void(std::size_t, const TrafficRunResult&)>& on_point) {
  SweepResult res;
  int past = -1;
  for (std::size_t i = 0; i < cfg.loads.size(); ++i) {
    TrafficRunConfig rc = cfg.base;
    rc.load = cfg.loads[i];
    TrafficRunResult r = run_traffic(sys_cfg, rc, harness);
    res.wall_seconds += r.wall_seconds;
    if (i == 0) {
      res.zero_load_latency = r.packet_latency.mean();
      res.zero_load_model = r.zero_load_packet_latency;
    }
    const double zero = res.zero_load_model > 0 ? res.zero_load_model : r.zero_load_packet_latency;
    // Against the load actually generated in the window (Bernoulli noise makes it differ from the
    // configured one at low loads).
    const bool sat = point_saturated(r, zero, cfg);
    res.clean = res.clean && r.clean;
    if (!sat && past < 0) {
      res.last_unsaturated_load = rc.load;
      res.saturation_throughput = std::max(res.saturation_throughput, r.accepted);
    }
    // The throughput at saturation: what the network accepts at the first saturated load (past it,
    // flows that avoid the bottleneck can still grow, so the curve's maximum overstates it).
    if (sat && past < 0) res.saturation_throughput = r.accepted;
    if (on_point) on_point(i, r);
    res.points.push_back(std::move(r));
    res.point_saturated.push_back(sat);
    if (sat) {
      res.reached_saturation = true;
      if (past < 0) past = 0;
      else ++past;
      if (past >= cfg.points_past_saturation) break;
    }
    if (!res.points.back().clean) break;   // a broken point ends the curve: report it
  }
  return res;
}

nlohmann::json SweepResult::json() const {
  nlohmann::json pts = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    nlohmann::json p = points[i].json(false);
    p["saturated_point"] = static_cast<bool>(point_saturated[i]);
    pts.push_back(p);
  }
  return {{"zero_load_packet_latency", zero_load_latency},
          {"zero_load_packet_latency_model", zero_load_model},
          {"saturation_throughput", saturation_throughput},
          {"last_unsaturated_load", last_unsaturated_load},
          {"reached_saturation", reached_saturation},
          {"clean", clean},
          {"wall_seconds", wall_seconds},
          {"points", pts}};
}

std::string SweepResult::csv() const {
  std::string s =
      "offered_load,offered,accepted,accepted_min,accepted_max,accepted_gbps_per_node,"
      "packet_latency_mean,packet_latency_p50,packet_latency_p99,packet_latency_p99_9,"
      "packet_latency_max,network_latency_mean,hops_mean,measured_packets,saturated,clean\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& r = points[i];
    s += fmt::format("{:.4f},{:.6f},{:.6f},{:.6f},{:.6f},{:.3f},{:.3f},{},{},{},{},{:.3f},{:.4f},{},{},{}\n",
                     r.cfg.load, r.offered, r.accepted, r.accepted_min, r.accepted_max,
                     r.accepted * r.link_gbps, r.packet_latency.mean(),
                     r.packet_latency.percentile(0.5), r.packet_latency.percentile(0.99),
                     r.packet_latency.percentile(0.999), r.packet_latency.max(),
                     r.network_latency.mean(), r.hops_mean, r.measured_packets,
                     point_saturated[i] ? 1 : 0, r.clean ? 1 : 0);
  }
  return s;
}

}  // namespace hxemu::tb
