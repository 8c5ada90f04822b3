// A latency-versus-offered-load curve: traffic runs at increasing loads, stopping past saturation.
// A point is saturated when the network accepts less than it is offered (accepted below
// (1 - tolerance) x offered load, or measured packets still undelivered after the drain limit) or
// its mean packet latency exceeds latency_limit x the zero-load latency. The saturation throughput
// is what the network accepts at the first saturated load (the largest accepted throughput when
// the load range never saturates).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/traffic/traffic_run.h"

namespace hxemu::tb {

struct SweepConfig {
  TrafficRunConfig base;
  std::vector<double> loads;
  double tolerance = 0.02;         // accepted may trail offered by this fraction
  double latency_limit = 5.0;      // x zero-load packet latency
  int points_past_saturation = 1;  // keep going this many points after the first saturated one
};

struct SweepResult {
  std::vector<TrafficRunResult> points;
  std::vector<bool> point_saturated;
  double zero_load_latency = 0;        // mean packet latency of the lowest load
  double zero_load_model = 0;          // pipeline model for the same packets
  double saturation_throughput = 0;    // flits/node/cycle
  double last_unsaturated_load = 0;
  bool reached_saturation = false;
  bool clean = true;
  double wall_seconds = 0;
  nlohmann::json json() const;
  std::string csv() const;
};

// The saturation test above for one point (zero_load: the curve's zero-load packet latency).
bool point_saturated(const TrafficRunResult& r, double zero_load, const SweepConfig& cfg);

// "0.05:0.8:0.05" -> 0.05, 0.10, ..., 0.80; or a comma list "0.1,0.2,0.5". Throws
// std::invalid_argument naming the spec.
std::vector<double> parse_loads(const std::string& spec);

SweepResult run_sweep(const sysc::SystemConfig& sys_cfg, const SweepConfig& cfg,
                      sysc::HarnessFactory harness = sysc::make_plain_harness,
                      const std::function<void(std::size_t, const TrafficRunResult&)>& on_point = {});

}  // namespace hxemu::tb
