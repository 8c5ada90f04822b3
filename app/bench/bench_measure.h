// One emulation-speed measurement (make bench): a BookSim-style traffic run (tb/traffic/traffic_run.h)
// on one configuration through one harness, timed. SystemC elaborates once per process, so the bench
// runs every measurement in a child process of its own (bench_main.cpp) and reads back the JSON
// this produces.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sysc/system/system_config.h"
#include "sysc/harness/harness.h"
#include "tb/traffic/traffic_run.h"

namespace hxemu::tb::bench {

struct Measurement {
  std::string config;             // configuration name
  std::string harness;            // "plain C++" or "SystemC"
  int routers = 0, switches = 0, terminals = 0, blocks = 0, partitions = 0;
  std::uint64_t cycles = 0;       // simulated cycles: warm-up + measure + drain
  double wall_seconds = 0;        // the whole run as run_traffic times it (stepping + testbench)
  double step_seconds = 0;        // wall time inside Harness::run (stepping the blocks only)
  double step_cpu_seconds = 0;    // this thread's CPU time inside Harness::run (wall minus what
                                  // other processes on a shared machine took)
  std::uint64_t block_ticks = 0, block_ticks_skipped = 0;
  // What both harnesses must agree on, bit for bit.
  double accepted = 0;            // flits/node/cycle
  double packet_latency_mean = 0, network_latency_mean = 0;
  std::uint64_t packet_latency_p99 = 0;
  std::uint64_t measured_packets = 0;
  bool clean = false;
  std::string errors;             // joined, when not clean
  std::string fingerprint;        // hash of every figure of the result except time and harness name

  nlohmann::json json() const;
  static Measurement from_json(const nlohmann::json& j);
};

// Runs one measurement in this process (plain C++ loop or the SystemC modules).
Measurement measure(const sysc::SystemConfig& cfg, const TrafficRunConfig& rc, sysc::HarnessKind kind);

}  // namespace hxemu::tb::bench
