// A latency-versus-offered-load curve: traffic runs at increasing loads, stopping past saturation.
// Each point is judged saturated by the rule of tb/traffic/traffic_run.h (SaturationRule, set in
// base.saturation). The saturation throughput is what the network accepts at the first saturated
// load (the largest accepted throughput when the load range never saturates).
//
// The zero-load latency is measured, not read off the curve: before the curve, a separate run at
// a near-zero load (zero_load_load, 0.01 flits/node/cycle by default) long enough for about
// zero_load_packets measured packets, reported beside the pipeline model of the same packets. The
// curve's lowest point is reported as what it is: the latency at the lowest swept load.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/traffic/traffic_run.h"

namespace hxemu::tb {

struct SweepConfig {
  TrafficRunConfig base;           // every point's settings; base.saturation judges each point
  std::vector<double> loads;
  int points_past_saturation = 1;  // keep going this many points after the first saturated one
  double zero_load_load = 0.01;    // flits/node/cycle of the zero-load run (0: no such run)
  std::uint64_t zero_load_packets = 1000;
};

struct ZeroLoadLatency {
  bool measured = false;
  double load = 0;                 // flits/node/cycle of the run
  double latency = 0;              // mean packet latency, cycles
  double model = 0;                // pipeline model for the same packets
  std::uint64_t packets = 0;       // delivered measured packets
  std::uint64_t cycles = 0;        // measurement window
  double wall_seconds = 0;
};

struct SweepResult {
  std::vector<TrafficRunResult> points;  // points[i].saturated: the rule's verdict
  ZeroLoadLatency zero_load;
  double lowest_load_latency = 0;      // mean packet latency at the lowest swept load
  double saturation_throughput = 0;    // flits/node/cycle
  double last_unsaturated_load = 0;
  bool reached_saturation = false;
  bool checks_passed = true;           // the checkers found no error at any point
  double wall_seconds = 0;             // the zero-load run and every point
  nlohmann::json json() const;
  std::string csv() const;
};

// The measurement window of the zero-load run (cycles): about `packets` measured packets at
// `load` on `nodes` nodes with packets of `mean_flits` on average, from 1,000 to 200,000 cycles.
std::uint64_t zero_load_window(std::uint64_t packets, double load, int nodes, double mean_flits);

// CSV of traffic points, one row each (the sweep's curve or a single run). The last column,
// accepted_not_judged, is 1 where the warm-up was too short to compare the accepted rate with the
// offered one (TrafficRunResult's saturation.accepted_not_judged): such a row's saturated column
// rests on the drain limit and the latency only.
std::string points_csv(const std::vector<TrafficRunResult>& points);

// "0.05:0.8:0.05" -> 0.05, 0.10, ..., 0.80; or a comma list "0.1,0.2,0.5". Throws
// std::invalid_argument naming the spec.
std::vector<double> parse_loads(const std::string& spec);

// on_point(i, r) after each point; progress (optional): the zero-load run and every point.
SweepResult run_sweep(const sysc::SystemConfig& sys_cfg, const SweepConfig& cfg,
                      sysc::HarnessFactory harness = sysc::make_plain_harness,
                      const std::function<void(std::size_t, const TrafficRunResult&)>& on_point = {},
                      Progress* progress = nullptr);

}  // namespace hxemu::tb
