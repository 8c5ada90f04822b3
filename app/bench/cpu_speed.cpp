#include "app/bench/cpu_speed.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>

namespace hxemu::bench {

double CpuSpeeds::spread() const {
  if (!measured()) return 0;
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  return *hi / *lo;
}

nlohmann::json CpuSpeeds::json() const {
  nlohmann::json j = {{"command", command}, {"failures", failures}};
  if (!measured()) return j;
  nlohmann::json per = nlohmann::json::object();
  for (std::size_t i = 0; i < cpus.size(); ++i) per[std::to_string(cpus[i])] = seconds[i];
  j["best_wall_seconds_by_cpu"] = per;
  j["slowest_over_fastest"] = spread();
  return j;
}

CpuSpeeds probe_cpu_speeds(const std::vector<std::string>& cmd, const std::string& tmp, int runs,
                           int max_cpus) {
  CpuSpeeds s;
  for (const auto& a : cmd) s.command += (s.command.empty() ? "" : " ") + a;
  s.cpus = allowed_cpus();
  if (static_cast<int>(s.cpus.size()) > max_cpus) s.cpus.resize(static_cast<std::size_t>(max_cpus));
  s.seconds.assign(s.cpus.size(), 0.0);
  const std::string log = tmp + "/cpu-speed.log";
  for (int r = 0; r < runs; ++r) {
    for (std::size_t i = 0; i < s.cpus.size(); ++i) {
      std::remove(log.c_str());
      const ProcessRun run = run_process(cmd, log, s.cpus[i]);
      if (!run.ok()) {
        ++s.failures;
        fmt::print(stderr, "hxemu-bench: the CPU speed probe failed on CPU {} (exit {}):\n{}", s.cpus[i],
                   run.exit_status, tail_of(log, 10));
        continue;
      }
      if (s.seconds[i] == 0.0 || run.wall_seconds < s.seconds[i]) s.seconds[i] = run.wall_seconds;
    }
  }
  std::remove(log.c_str());
  return s;
}

void print_cpu_speeds(const CpuSpeeds& s, const char* when) {
  if (!s.measured()) {
    fmt::print("CPU speed {}: not measured ({} probe runs failed)\n", when, s.failures);
    return;
  }
  std::string per;
  for (std::size_t i = 0; i < s.cpus.size(); ++i) {
    per += fmt::format("{}CPU {} {:.3f} s", i ? ", " : "", s.cpus[i], s.seconds[i]);
  }
  fmt::print("CPU speed {} (mesh-8x8, 5,000 cycles, 1 thread, pinned, best of its runs): {}: the slowest "
             "{:.2f}x the fastest\n",
             when, per, s.spread());
}

}  // namespace hxemu::bench
