// The cost of a waveform (hxemu-bench case trace-hx2mesh-16): synthetic traffic on hx2mesh-16 on one
// thread, run untraced and with board 0's four routers traced for cycles 1000-2000 (docs/waveforms.md),
// alternately, --repeat times each: the median wall times of the emulation (the run's own
// emulation.wall_seconds: building the system and the run) and of the whole process, and their ratios.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "app/bench/bench_measure.h"

namespace hxemu::bench {

struct TraceBench {
  bool runnable = false;        // the binary takes --trace
  std::string command;          // the traced command line
  double untraced_s = 0, traced_s = 0;                   // medians, emulation
  double untraced_process_s = 0, traced_process_s = 0;   // medians, whole process
  std::uint64_t cycles = 0;     // simulated cycles of one run
  std::uint64_t window = 0;     // traced cycles
  std::uint64_t fst_bytes = 0;  // size of the waveform
  bool same_result = true;      // every run's arrival_digest agrees
  int failures = 0;
  bool measured() const { return runnable && failures == 0 && untraced_s > 0 && traced_s > 0; }
  double ratio() const { return traced_s / untraced_s; }
  double process_ratio() const { return traced_process_s / untraced_process_s; }
  // The traced cycles' own slow-down, if every untraced cycle cost the same:
  // (traced - untraced) / (untraced x window / cycles) + 1.
  double window_ratio() const;
  nlohmann::json json() const;
};

// `configs`: the folder of the shipped configurations; `tmp`: a scratch folder (emptied again).
TraceBench run_trace_bench(const Capabilities& caps, const std::string& configs, int repeat,
                           const std::string& tmp);
void print_trace_bench(const TraceBench& t);

}  // namespace hxemu::bench
