// hxemu-bench (make bench): emulation speed in router-cycles per second (routers x simulated cycles /
// wall seconds, docs/targets.md) under uniform traffic, once with the verilated blocks stepped by
// a plain C++ loop and once composed through the SystemC board and tree modules, and the ratio
// (target: SystemC within 1.3x of plain C++).
//
// SystemC elaborates once per process, so every (configuration, harness, repetition) runs in a child
// process of its own: the bench re-executes itself (/proc/self/exe --child ...) and reads the child's
// figures from its stdout. Runs of one configuration alternate the harness order, and each figure is
// the median over the repetitions (the machine is shared). Both harnesses must produce bit-identical
// results; a difference is reported and the exit status is 1.
//
// Exit status: 0 measured (whether or not the target was met: this is a benchmark, not a test),
// 1 a run failed or the harnesses disagreed, 2 bad input.
#include <systemc>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sysc/system/system_config.h"
#include "app/bench/bench_measure.h"
#include "app/cli/option_checks.h"
#include "tb/report_io.h"

#ifndef HXEMU_SOURCE_DIR
#define HXEMU_SOURCE_DIR "."
#endif

namespace {

using hxemu::tb::bench::Measurement;

constexpr double kTargetRatio = 1.3;          // docs/targets.md
constexpr const char* kResultTag = "HXEMU-BENCH-RESULT ";

struct Options {
  std::vector<std::string> configs;
  std::vector<std::string> sets;
  std::string pattern = "uniform";
  std::string packet_flits = "4";
  double load = 0.3;
  std::uint64_t seed = 1;
  std::uint64_t warmup = 1000;
  std::uint64_t measure = 50000;
  int repeat = 3;
  std::string harness = "both";
  std::string json;
  std::string child;   // internal: run one measurement with this harness and print it
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A measurement process that failed; status 2 means it rejected its input.
struct ChildFailed : std::runtime_error {
  ChildFailed(const std::string& what, int status) : std::runtime_error(what), status(status) {}
  int status;
};

hxemu::tb::TrafficRunConfig run_config(const Options& o) {
  hxemu::tb::TrafficRunConfig rc;
  rc.pattern = o.pattern;
  rc.packet_flits = o.packet_flits;
  rc.load = o.load;
  rc.seed = o.seed;
  rc.warmup = o.warmup;
  rc.measure = o.measure;
  return rc;
}

// ---- child: one measurement ---------------------------------------------------------------------

int run_child(const Options& o) {
  if (o.configs.size() != 1) throw UsageError("--child takes exactly one --config");
  const auto cfg = hxemu::sysc::load_system_config(o.configs[0], o.sets);
  const auto kind =
      o.child == "plain" ? hxemu::sysc::HarnessKind::kPlain : hxemu::sysc::HarnessKind::kSystemC;
  const Measurement m = hxemu::tb::bench::measure(cfg, run_config(o), kind);
  fmt::print("{}{}\n", kResultTag, m.json().dump());
  std::fflush(stdout);
  return 0;
}

// ---- parent: spawning children ------------------------------------------------------------------

std::string fmt_double(double v) { return fmt::format("{}", v); }

std::vector<std::string> child_args(const Options& o, const std::string& config,
                                    const std::string& harness) {
  std::vector<std::string> a = {"hxemu-bench", "--child", harness, "--config", config,
                                "--pattern", o.pattern, "--packet-flits", o.packet_flits,
                                "--load", fmt_double(o.load), "--seed", std::to_string(o.seed),
                                "--warmup", std::to_string(o.warmup),
                                "--measure", std::to_string(o.measure)};
  for (const auto& s : o.sets) {
    a.push_back("--set");
    a.push_back(s);
  }
  return a;
}

// Runs this executable with `args`; returns the measurement it printed. Its stderr passes through.
Measurement spawn_measurement(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv;
    for (const auto& s : args) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    std::fprintf(stderr, "hxemu-bench: cannot run /proc/self/exe: %s\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw ChildFailed(
        WIFSIGNALED(status)
            ? fmt::format("measurement process died of signal {} ({})", WTERMSIG(status),
                          strsignal(WTERMSIG(status)))
            : fmt::format("measurement process exited with status {}", WEXITSTATUS(status)),
        WIFEXITED(status) ? WEXITSTATUS(status) : 1);
  }
  const auto at = out.find(kResultTag);
  if (at == std::string::npos) throw std::runtime_error("measurement process printed no result");
  const auto eol = out.find('\n', at);
  const std::string line = out.substr(at + std::strlen(kResultTag),
                                      eol == std::string::npos ? std::string::npos
                                                               : eol - at - std::strlen(kResultTag));
  return Measurement::from_json(nlohmann::json::parse(line));
}

// ---- parent: statistics and report --------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct HarnessRuns {
  std::string key;                  // "plain" or "systemc"
  std::vector<Measurement> runs;
  double wall() const { return med([](const Measurement& m) { return m.wall_seconds; }); }
  double step() const { return med([](const Measurement& m) { return m.step_seconds; }); }
  double step_cpu() const { return med([](const Measurement& m) { return m.step_cpu_seconds; }); }
  // (max - min) / median of the wall time: how much the shared machine disturbed the runs.
  double spread() const {
    double lo = 1e300, hi = 0;
    for (const auto& m : runs) {
      lo = std::min(lo, m.wall_seconds);
      hi = std::max(hi, m.wall_seconds);
    }
    return runs.size() > 1 ? (hi - lo) / wall() : 0.0;
  }
  template <typename F>
  double med(F f) const {
    std::vector<double> v;
    for (const auto& m : runs) v.push_back(f(m));
    return median(v);
  }
};

struct ConfigRuns {
  std::string path;
  hxemu::sysc::SystemConfig cfg;
  std::vector<HarnessRuns> harnesses;   // in the order of --harness
  bool identical = true;
  bool clean = true;
  std::vector<std::string> problems;

  const Measurement& any() const { return harnesses.front().runs.front(); }
  const HarnessRuns* find(const std::string& key) const {
    for (const auto& h : harnesses) {
      if (h.key == key) return &h;
    }
    return nullptr;
  }
};

// Checks that every run of a configuration, in both harnesses, produced the same figures.
void check_runs(ConfigRuns& c) {
  const Measurement& ref = c.any();
  for (const auto& h : c.harnesses) {
    for (std::size_t i = 0; i < h.runs.size(); ++i) {
      const Measurement& m = h.runs[i];
      if (!m.clean) {
        c.clean = false;
        c.problems.push_back(fmt::format("{} run {}: not clean: {}", m.harness, i + 1,
                                         m.errors.empty() ? "did not drain" : m.errors));
      }
      if (m.fingerprint != ref.fingerprint || m.cycles != ref.cycles ||
          m.accepted != ref.accepted || m.packet_latency_mean != ref.packet_latency_mean ||
          m.network_latency_mean != ref.network_latency_mean ||
          m.block_ticks != ref.block_ticks || m.block_ticks_skipped != ref.block_ticks_skipped) {
        c.identical = false;
        c.problems.push_back(fmt::format(
            "{} run {} differs from {} run 1: cycles {} vs {}, accepted {:.17g} vs {:.17g}, "
            "packet latency mean {:.17g} vs {:.17g}, network latency mean {:.17g} vs {:.17g}, "
            "block ticks {}+{} skipped vs {}+{}, result hash {} vs {}",
            m.harness, i + 1, ref.harness, m.cycles, ref.cycles, m.accepted, ref.accepted,
            m.packet_latency_mean, ref.packet_latency_mean, m.network_latency_mean,
            ref.network_latency_mean, m.block_ticks, m.block_ticks_skipped, ref.block_ticks,
            ref.block_ticks_skipped, m.fingerprint, ref.fingerprint));
      }
    }
  }
}

double per_second(double units, std::uint64_t cycles, double seconds) {
  return seconds > 0 ? units * static_cast<double>(cycles) / seconds : 0.0;
}

void print_table(const Options& o, const std::vector<ConfigRuns>& all) {
  fmt::print("\n{:<12} {:<9} {:>7} {:>8} {:>6} {:>7} {:>8} {:>6} {:>10} {:>10} {:>8} {:>7} {:>6}\n",
             "", "", "", "", "", "", "wall s", "", "M router-", "M block-", "ticks", "step s",
             "CPU");
  fmt::print("{:<12} {:<9} {:>7} {:>8} {:>6} {:>7} {:>8} {:>6} {:>10} {:>10} {:>8} {:>7} {:>6}\n",
             "config", "harness", "routers", "switches", "blocks", "cycles",
             o.repeat > 1 ? "(median)" : "", "spread", "cycles/s", "cycles/s", "skipped",
             "", "share");
  for (const auto& c : all) {
    for (const auto& h : c.harnesses) {
      const Measurement& m = h.runs.front();
      const double wall = h.wall();
      const double skipped = static_cast<double>(m.block_ticks_skipped) /
                             static_cast<double>(m.block_ticks + m.block_ticks_skipped);
      fmt::print("{:<12} {:<9} {:>7} {:>8} {:>6} {:>7} {:>8.2f} {:>5.1f}% {:>10.3f} {:>10.3f} "
                 "{:>7.1f}% {:>7.2f} {:>5.0f}%\n",
                 m.config, h.key == "plain" ? "plain C++" : "SystemC", m.routers, m.switches,
                 m.blocks, m.cycles, wall, 100.0 * h.spread(),
                 per_second(m.routers, m.cycles, wall) / 1e6,
                 per_second(m.blocks, m.cycles, wall) / 1e6, 100.0 * skipped, h.step(),
                 h.step() > 0 ? 100.0 * h.step_cpu() / h.step() : 0.0);
    }
  }
  fmt::print("\n  wall s    the traffic run as a whole: blocks stepped, traffic generated, scoreboard,\n"
             "            watchdog (cycles = warm-up + measured + drain, the same in both harnesses)\n"
             "  step s    the part of it spent inside the harness stepping the blocks\n"
             "  CPU share this process's CPU time over the stepping (below 100%: the machine ran others)\n"
             "  skipped   block ticks that idle skipping left out\n"
             "  M router-cycles/s counts routers only (docs/targets.md); M block-cycles/s counts every block\n");
  for (const auto& c : all) {
    const Measurement& m = c.any();
    if (m.switches > 0 || m.terminals > 0) {
      fmt::print("  {}: {} routers, {} switches and {} endpoints are stepped every cycle; only the "
                 "routers count\n",
                 m.config, m.routers, m.switches, m.terminals);
    }
  }
}

void print_ratios(const std::vector<ConfigRuns>& all, bool& target_met) {
  target_met = true;
  bool header = false;
  for (const auto& c : all) {
    const HarnessRuns* p = c.find("plain");
    const HarnessRuns* s = c.find("systemc");
    if (!p || !s) continue;
    if (!header) {
      fmt::print("\nSystemC / plain C++, time ratio of the medians (target <= {:.2f}x, docs/targets.md):\n",
                 kTargetRatio);
      fmt::print("  {:<12} {:>10} {:>10} {:>12}\n", "config", "whole run", "stepping",
                 "stepping CPU");
      header = true;
    }
    const double r = s->wall() / p->wall();
    const double rs = s->step() / p->step();
    const double rc = s->step_cpu() / p->step_cpu();
    target_met = target_met && r <= kTargetRatio;
    fmt::print("  {:<12} {:>9.3f}x {:>9.3f}x {:>11.3f}x  {}\n", c.any().config, r, rs, rc,
               r <= kTargetRatio ? "within target" : "TARGET MISSED");
  }
}

void print_results(const std::vector<ConfigRuns>& all) {
  fmt::print("\nResults (must be bit-identical across harnesses and runs):\n");
  for (const auto& c : all) {
    const Measurement& m = c.any();
    std::size_t runs = 0;
    for (const auto& h : c.harnesses) runs += h.runs.size();
    fmt::print("  {:<12} accepted {:.4f} flits/node/cycle, packet latency mean {:.2f} p99 {} "
               "cycles, {} packets measured: {}\n",
               m.config, m.accepted, m.packet_latency_mean, m.packet_latency_p99,
               m.measured_packets,
               c.identical && c.clean ? fmt::format("identical in all {} runs (hash {})", runs,
                                                    m.fingerprint)
                                      : std::string("MISMATCH OR FAILURE, see below"));
  }
}

nlohmann::json report_json(const Options& o, const std::vector<ConfigRuns>& all,
                           const std::string& command_line, bool target_met) {
  nlohmann::json j;
  j["benchmark"] = "hxemu-bench: emulation speed, router-cycles per second";
  j["definition"] = "router-cycles/s = routers x simulated cycles / wall seconds (docs/targets.md); "
                    "ratio = SystemC seconds / plain C++ seconds (medians)";
  j["settings"] = {{"pattern", o.pattern},   {"load", o.load},       {"packet_flits", o.packet_flits},
                   {"seed", o.seed},         {"warmup", o.warmup},   {"measure", o.measure},
                   {"repeat", o.repeat},     {"harness", o.harness}, {"target_ratio", kTargetRatio}};
  nlohmann::json cs = nlohmann::json::array();
  bool ok = true;
  for (const auto& c : all) {
    const Measurement& m = c.any();
    nlohmann::json e;
    e["config"] = m.config;
    e["stamp"] = hxemu::tb::reproducibility_stamp(c.cfg, o.seed, command_line);
    e["routers"] = m.routers;
    e["switches"] = m.switches;
    e["terminals"] = m.terminals;
    e["blocks"] = m.blocks;
    e["systemc_partitions"] = m.partitions;
    e["cycles"] = m.cycles;
    e["identical"] = c.identical;
    e["clean"] = c.clean;
    e["problems"] = c.problems;
    e["result"] = {{"accepted_flits_per_node_cycle", m.accepted},
                   {"packet_latency_mean", m.packet_latency_mean},
                   {"packet_latency_p99", m.packet_latency_p99},
                   {"network_latency_mean", m.network_latency_mean},
                   {"measured_packets", m.measured_packets},
                   {"hash", m.fingerprint}};
    e["block_ticks"] = m.block_ticks;
    e["block_ticks_skipped"] = m.block_ticks_skipped;
    nlohmann::json hs;
    for (const auto& h : c.harnesses) {
      nlohmann::json runs = nlohmann::json::array();
      for (const auto& r : h.runs) runs.push_back(r.json());
      const double wall = h.wall();
      hs[h.key] = {{"harness", h.runs.front().harness},
                   {"median",
                    {{"wall_seconds", wall},
                     {"step_seconds", h.step()},
                     {"step_cpu_seconds", h.step_cpu()},
                     {"router_cycles_per_second", per_second(m.routers, m.cycles, wall)},
                     {"block_cycles_per_second", per_second(m.blocks, m.cycles, wall)}}},
                   {"wall_spread", h.spread()},
                   {"runs", runs}};
    }
    e["harnesses"] = hs;
    const HarnessRuns* p = c.find("plain");
    const HarnessRuns* s = c.find("systemc");
    if (p && s) {
      const double r = s->wall() / p->wall();
      e["ratio_systemc_over_plain"] = {{"wall", r},
                                       {"stepping", s->step() / p->step()},
                                       {"stepping_cpu", s->step_cpu() / p->step_cpu()},
                                       {"within_target", r <= kTargetRatio}};
    }
    ok = ok && c.identical && c.clean;
    cs.push_back(e);
  }
  j["configurations"] = cs;
  j["all_identical_and_clean"] = ok;
  j["target_met"] = target_met;
  return j;
}

int run_parent(const Options& o, const std::string& command_line) {
  std::vector<ConfigRuns> all;
  for (const auto& path : o.configs) {
    ConfigRuns c;
    c.path = path;
    c.cfg = hxemu::sysc::load_system_config(path, o.sets);
    if (o.harness != "systemc") c.harnesses.push_back({"plain", {}});
    if (o.harness != "plain") c.harnesses.push_back({"systemc", {}});
    all.push_back(std::move(c));
  }
  hxemu::tb::OutputFiles files;   // checked now, written after the measurements
  files.add("--json", o.json);

  fmt::print("hxemu-bench: {} traffic at {:.2f} flits/node/cycle, {}-flit packets, seed {}; {} "
             "warm-up + {} measured cycles (+ drain);\n  {} run{} per configuration and harness, "
             "each in its own process; figures are medians\n",
             o.pattern, o.load, o.packet_flits, o.seed, o.warmup, o.measure, o.repeat,
             o.repeat == 1 ? "" : "s");
  for (int rep = 0; rep < o.repeat; ++rep) {
    for (auto& c : all) {
      // Alternate which harness goes first, so a drift in machine load hits both alike.
      std::vector<std::size_t> order(c.harnesses.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      if (rep % 2) std::reverse(order.begin(), order.end());
      for (std::size_t i : order) {
        HarnessRuns& h = c.harnesses[i];
        fmt::print("  run {}/{}  {:<12} {:<9} ", rep + 1, o.repeat, c.cfg.name,
                   h.key == "plain" ? "plain C++" : "SystemC");
        std::fflush(stdout);
        Measurement m;
        try {
          m = spawn_measurement(child_args(o, c.path, h.key));
        } catch (const ChildFailed& e) {
          fmt::print("FAILED\n");
          fmt::print(stderr, "hxemu-bench: error: {} {}: {}\n", c.cfg.name, h.key, e.what());
          return e.status == 2 ? 2 : 1;
        } catch (const std::exception& e) {
          fmt::print("FAILED\n");
          fmt::print(stderr, "hxemu-bench: error: {} {}: {}\n", c.cfg.name, h.key, e.what());
          return 1;
        }
        fmt::print("{:7.2f} s  ({:.2f} s stepping, {:.3f} M router-cycles/s)\n", m.wall_seconds,
                   m.step_seconds, per_second(m.routers, m.cycles, m.wall_seconds) / 1e6);
        h.runs.push_back(std::move(m));
      }
    }
  }

  bool ok = true;
  for (auto& c : all) {
    check_runs(c);
    ok = ok && c.identical && c.clean;
  }
  print_table(o, all);
  bool target_met = true;
  print_ratios(all, target_met);
  print_results(all);
  if (!o.json.empty()) {
    files.put(o.json, report_json(o, all, command_line, target_met).dump(1) + "\n");
    files.commit();
    fmt::print("\nwrote {}\n", o.json);
  }
  if (!ok) {
    fmt::print(stderr, "\nhxemu-bench: ERROR: the harnesses (or repeated runs) did not produce "
                       "identical, clean results:\n");
    for (const auto& c : all) {
      for (const auto& p : c.problems) fmt::print(stderr, "  {}: {}\n", c.cfg.name, p);
    }
    return 1;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  Options o;
  CLI::App app{"hxemu-bench: emulation speed (router-cycles per second) of the plain C++ and the "
               "SystemC harness"};
  app.add_option("--config", o.configs,
                 "system configuration (JSON), repeatable (default: configs/mesh-8x8.json and "
                 "configs/hx2mesh-64.json)");
  app.add_option("--set", o.sets, "override a configuration field, e.g. router.vcs_per_class=4");
  app.add_option("--pattern", o.pattern, "traffic pattern (as hxemu traffic)")
      ->capture_default_str();
  app.add_option("--load", o.load, "offered flits per node per cycle")
      ->capture_default_str()->check(hxemu::cli::finite_range(0.0, 1.0));
  app.add_option("--packet-flits", o.packet_flits, "N, uniform:MIN:MAX or bimodal:A:B:P")
      ->capture_default_str();
  hxemu::cli::add_seed_option(&app, o.seed, "random seed")->capture_default_str();
  app.add_option("--warmup", o.warmup, "warm-up cycles")
      ->capture_default_str()->check(CLI::Range(0, 100000000));
  app.add_option("--measure", o.measure, "measured cycles (the run then drains)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000000));
  app.add_option("--repeat", o.repeat, "runs per configuration and harness; the median counts")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  app.add_option("--harness", o.harness, "both, plain or systemc")
      ->capture_default_str()
      ->check(CLI::IsMember({"both", "plain", "systemc"}));
  app.add_option("--json", o.json, "write every figure and the reproducibility stamps to FILE");
  app.add_option("--child", o.child, "internal: one measurement in this process")
      ->check(CLI::IsMember({"plain", "systemc"}))
      ->group("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (o.configs.empty()) {
    o.configs = {std::string(HXEMU_SOURCE_DIR) + "/configs/mesh-8x8.json",
                 std::string(HXEMU_SOURCE_DIR) + "/configs/hx2mesh-64.json"};
  }
  try {
    return o.child.empty() ? run_parent(o, command_line) : run_child(o);
  } catch (const hxemu::sysc::ConfigError& e) {
    fmt::print(stderr, "hxemu-bench: error: {}\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    fmt::print(stderr, "hxemu-bench: error: {}\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "hxemu-bench: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "hxemu-bench: error: {}\n", e.what());
    return 1;
  }
}

// Our own main (it takes precedence over libsystemc's): silence SystemC's banner, then hand over.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
