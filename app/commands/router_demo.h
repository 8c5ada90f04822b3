// The single-router demonstration: one verilated board router with Bernoulli traffic on all five
// inputs toward random dimension-order-legal outputs, measured over a window after warm-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::tb {

struct RouterDemoConfig {
  int vcs = 2;
  int depth = 8;
  int link_latency = 1;
  int packet_flits = 4;
  double load = 0.4;             // offered flits per input per cycle
  std::uint64_t warmup = 2000;
  std::uint64_t measure = 20000;
  std::uint64_t seed = 1;
};

struct RouterDemoResult {
  std::vector<double> accepted_per_output;   // flits/cycle, port order N E S W L
  double accepted_total = 0;                 // flits/cycle over all outputs
  double offered_total = 0;
  std::uint64_t packets = 0;                 // measured packets (created in the window)
  double latency_mean = 0, latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  double zero_load_latency = 0;              // pipeline model for one packet, in cycles
  std::uint64_t cycles = 0;
  double wall_seconds = 0;
  bool clean = true;
  std::vector<std::string> errors;
};

RouterDemoResult run_router_demo(const RouterDemoConfig& cfg);

}  // namespace hxemu::tb
