#include "app/bench/bench_measure.h"

#include <time.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "sysc/harness/sc_harness.h"
#include "tb/traffic_system.h"

namespace hxemu::tb::bench {

namespace {

// Time spent stepping, summed over every Harness::run call of the run. run_traffic takes the
// harness as a plain factory function, so the sums live here; one measurement per process.
struct StepClock {
  double wall = 0;
  double cpu = 0;
};
StepClock g_step;

double thread_cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Wraps a harness and times its run() calls (a few hundred cycles of blocks at a time, so the two
// clock reads per call cost well under 0.1%).
class TimedHarness final : public sysc::Harness {
 public:
  explicit TimedHarness(std::unique_ptr<sysc::Harness> inner) : inner_(std::move(inner)) {}
  void run(std::uint64_t cycles) override {
    const auto w0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_now();
    inner_->run(cycles);
    g_step.cpu += thread_cpu_now() - c0;
    g_step.wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  }
  const char* name() const override { return inner_->name(); }

 private:
  std::unique_ptr<sysc::Harness> inner_;
};

std::unique_ptr<sysc::Harness> timed_plain(sysc::System& sys) {
  return std::make_unique<TimedHarness>(sysc::make_plain_harness(sys));
}
std::unique_ptr<sysc::Harness> timed_systemc(sysc::System& sys) {
  return std::make_unique<TimedHarness>(sysc::make_systemc_harness(sys));
}

std::string fnv1a_hex(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

Measurement measure(const sysc::SystemConfig& cfg, const TrafficRunConfig& rc, sysc::HarnessKind kind) {
  g_step = {};
  const TrafficRunResult r =
      run_traffic(cfg, rc, kind == sysc::HarnessKind::kPlain ? timed_plain : timed_systemc);

  Measurement m;
  m.config = cfg.name;
  m.harness = r.harness;
  m.cycles = r.cycles;
  m.wall_seconds = r.wall_seconds;
  m.step_seconds = g_step.wall;
  m.step_cpu_seconds = g_step.cpu;
  m.block_ticks = r.block_ticks;
  m.block_ticks_skipped = r.block_ticks_skipped;
  m.accepted = r.accepted;
  m.packet_latency_mean = r.packet_latency.mean();
  m.packet_latency_p99 = r.packet_latency.percentile(0.99);
  m.network_latency_mean = r.network_latency.mean();
  m.measured_packets = r.measured_packets;
  m.clean = r.checks_passed;
  for (const auto& e : r.errors) m.errors += (m.errors.empty() ? "" : "; ") + e;

  // Every figure of the report (throughput, latency distributions, per-link utilisation, stalls,
  // block ticks) except the wall time and the harness's name.
  nlohmann::json j = r.json(true);
  j["emulation"].erase("wall_seconds");
  j["emulation"].erase("harness");
  m.fingerprint = fnv1a_hex(j.dump());

  // The system's shape, from a fresh build of the same configuration (cheap next to the run).
  TrafficSystem shape(cfg);
  const sysc::System& sys = shape.sys();
  m.routers = sys.routers();
  m.switches = sys.switches();
  m.blocks = sys.net().blocks();
  m.terminals = m.blocks - m.routers - m.switches;
  m.partitions = static_cast<int>(sys.partitions().size());
  return m;
}

nlohmann::json Measurement::json() const {
  return {{"config", config},
          {"harness", harness},
          {"routers", routers},
          {"switches", switches},
          {"terminals", terminals},
          {"blocks", blocks},
          {"partitions", partitions},
          {"cycles", cycles},
          {"wall_seconds", wall_seconds},
          {"step_seconds", step_seconds},
          {"step_cpu_seconds", step_cpu_seconds},
          {"block_ticks", block_ticks},
          {"block_ticks_skipped", block_ticks_skipped},
          {"accepted", accepted},
          {"packet_latency_mean", packet_latency_mean},
          {"packet_latency_p99", packet_latency_p99},
          {"network_latency_mean", network_latency_mean},
          {"measured_packets", measured_packets},
          {"clean", clean},
          {"errors", errors},
          {"fingerprint", fingerprint}};
}

Measurement Measurement::from_json(const nlohmann::json& j) {
  Measurement m;
  j.at("config").get_to(m.config);
  j.at("harness").get_to(m.harness);
  j.at("routers").get_to(m.routers);
  j.at("switches").get_to(m.switches);
  j.at("terminals").get_to(m.terminals);
  j.at("blocks").get_to(m.blocks);
  j.at("partitions").get_to(m.partitions);
  j.at("cycles").get_to(m.cycles);
  j.at("wall_seconds").get_to(m.wall_seconds);
  j.at("step_seconds").get_to(m.step_seconds);
  j.at("step_cpu_seconds").get_to(m.step_cpu_seconds);
  j.at("block_ticks").get_to(m.block_ticks);
  j.at("block_ticks_skipped").get_to(m.block_ticks_skipped);
  j.at("accepted").get_to(m.accepted);
  j.at("packet_latency_mean").get_to(m.packet_latency_mean);
  j.at("packet_latency_p99").get_to(m.packet_latency_p99);
  j.at("network_latency_mean").get_to(m.network_latency_mean);
  j.at("measured_packets").get_to(m.measured_packets);
  j.at("clean").get_to(m.clean);
  j.at("errors").get_to(m.errors);
  j.at("fingerprint").get_to(m.fingerprint);
  return m;
}

}  // namespace hxemu::tb::bench
