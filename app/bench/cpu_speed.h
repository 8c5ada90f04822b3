// How fast each CPU of this machine runs hxemu at the moment: the same short mesh-8x8 run pinned to
// one CPU at a time (sched_setaffinity in the child), before the cases and after them. On a shared
// virtual machine the vCPUs' speeds drift apart for minutes at a time (docs/speed.md, Ranks against
// threads); a 2-thread or 2-rank speed-up is then held back by the slower one, and a 1-thread time
// depends on the CPU it happened to run on. The probe puts that state in the same report as the
// ratios it explains.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/bench/bench_measure.h"

namespace hxemu::bench {

struct CpuSpeeds {
  std::string command;            // the probe's command line (without the pinning)
  std::vector<int> cpus;          // the CPUs probed
  std::vector<double> seconds;    // per CPU: the best whole-process wall time of its runs
  int failures = 0;
  bool measured() const { return failures == 0 && !seconds.empty(); }
  // The slowest CPU's time over the fastest's (1.0: alike).
  double spread() const;
  nlohmann::json json() const;
};

// The command line `cmd` (hxemu-bench's mesh-8x8 probe run), `runs` runs per CPU, the CPUs taken
// in turn (0, 1, 0, 1, ...); at most `max_cpus` CPUs, the first ones this process may use. `tmp`:
// a scratch folder for the runs' log (left as it was).
CpuSpeeds probe_cpu_speeds(const std::vector<std::string>& cmd, const std::string& tmp, int runs = 2,
                           int max_cpus = 8);

// One line: "CPU speed <when> (...): CPU 0 0.27 s, CPU 1 0.38 s: the slowest 1.41x the fastest".
void print_cpu_speeds(const CpuSpeeds& s, const char* when);

}  // namespace hxemu::bench
