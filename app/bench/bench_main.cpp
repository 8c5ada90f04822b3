// hxemu-bench (make bench): emulation speed of the hxemu binary, measured from outside. Every run is
// the hxemu binary next to this one (or --hxemu PATH) started as a child process (fork/exec): the
// wall time is the whole process (start-up, build of the system, run, report), the peak memory is
// the child's ru_maxrss (wait4), and the simulated cycles come from the child's own --json report.
//
// Cases: synthetic uniform traffic on mesh-8x8, hx2mesh-64 and hx4mesh-1024, and an allreduce
// (collective) on hx2mesh-64 and on hx4mesh-1024; the hx2mesh-64 cases use
// configs/bench/hx2mesh-64-6vc.json (2 VCs per class, the shipped config before its 12-VC split).
// Columns: cycles/s and router-cycles/s (routers x cycles / wall seconds, docs/targets.md) on 1
// thread, on all threads (--threads 0), on 2 MPI ranks, the speed-ups over 1 thread, and peak
// memory. A binary without --threads runs single core with --harness plain,
// and its all-threads column is n/a; the MPI column needs mpirun on PATH and a binary whose
// --version mentions MPI.
//
// --baseline PATH runs the same command lines, single core, with another hxemu binary (another
// revision: scripts/build-revision.sh builds one) in the same bench run, alternating which binary
// goes first, and prints the ratio of the two speeds. Every figure is the median of --repeat runs.
// The single-core runs of one repetition, this binary's and the baseline's, are pinned to the same
// CPU, the next repetition's to the next CPU (--no-pin: not pinned); runs on all threads and on
// MPI ranks are never pinned.
//
// Case trace-hx2mesh-16 (app/bench/bench_trace.h): the same traffic run untraced and with one board
// traced for 1,000 cycles (docs/waveforms.md), both times and their ratio, printed below the table.
//
// Before the cases and after them, a short mesh-8x8 run pinned to each CPU in turn (app/bench/cpu_speed.h)
// reports how fast each CPU ran then: the state of a shared machine that a ratio depends on.
//
// Exit status: 0 measured (this is a benchmark: no speed is asserted), 1 a run failed, 2 bad input.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app/bench/bench_measure.h"
#include "app/bench/bench_trace.h"
#include "app/bench/cpu_speed.h"

#ifndef HXEMU_SOURCE_DIR
#define HXEMU_SOURCE_DIR "."
#endif

namespace {

using hxemu::bench::Capabilities;
using hxemu::bench::ProcessRun;
using nlohmann::json;

struct Options {
  std::string hxemu;
  std::string baseline;
  std::string configs = std::string(HXEMU_SOURCE_DIR) + "/configs";
  std::vector<std::string> cases;
  int repeat = 3;
  std::string json;
  bool no_mpi = false;
  bool no_threads = false;
  bool no_cpu_speed = false;
  bool no_pin = false;
};

struct Case {
  std::string name;
  std::string config;              // file name under --configs
  std::vector<std::string> args;   // after the subcommand and --config
  bool collective = false;
};

// The traffic cases' arguments: uniform, 4-flit packets, load 0.3, then `extra`.
std::vector<std::string> traffic(std::vector<std::string> extra) {
  std::vector<std::string> a = {"--pattern", "uniform", "--packet-flits", "4", "--load", "0.3"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// The CPU speed probe's run (app/bench/cpu_speed.h): the mesh-8x8 case's traffic for 5,000 cycles,
// about a quarter of a second here, long enough to be mostly emulation.
Case cpu_probe_case() {
  return {"cpu-speed", "mesh-8x8.json", traffic({"--warmup", "0", "--measure", "5000"}), false};
}

std::vector<Case> all_cases() {
  return {
      {"mesh-8x8", "mesh-8x8.json", traffic({"--warmup", "10000", "--measure", "50000"}), false},
      // hx2mesh-64 as it was before its 12-VC split (configs/bench/): the same system for every
      // revision and baseline (older binaries do not know router.class_vcs).
      {"hx2mesh-64", "bench/hx2mesh-64-6vc.json", traffic({"--warmup", "2000", "--measure", "10000"}), false},
      {"hx4mesh-1024", "hx4mesh-1024.json", {"--load", "0.3", "--warmup", "500", "--measure", "2000"}, false},
      {"allreduce-hx2mesh-64", "bench/hx2mesh-64-6vc.json",
       {"--op", "allreduce", "--algo", "hamiltonian", "--sizes", "256K"}, true},
      // A collective on the 1,024-node machine: NICs, host memories and programs on every node.
      // Halving-doubling at 8 KiB takes about 1,700 cycles; the hamiltonian allreduce's 2 x 1,023
      // ring steps take 67,000-68,000 cycles at any size (minutes per run), timed in the README (Scale and memory).
      {"allreduce-hx4mesh-1024", "hx4mesh-1024.json",
       {"--op", "allreduce", "--algo", "halving-doubling", "--sizes", "8K"}, true},
  };
}

// How a run is parallelised.
enum class Mode { kOne, kAll, kMpi };
const char* mode_key(Mode m) { return m == Mode::kOne ? "one_thread" : m == Mode::kAll ? "all_threads" : "mpi2"; }

// The command line of one run, or nothing if `caps` cannot run it in this mode.
std::optional<std::vector<std::string>> command(const Case& c, const Options& o, const Capabilities& caps,
                                                Mode mode, const std::string& json_out,
                                                const std::optional<std::string>& mpirun) {
  std::vector<std::string> cmd;
  if (mode == Mode::kMpi) {
    if (o.no_mpi || !mpirun || !caps.mpi) return std::nullopt;
    cmd = {*mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2"};
  }
  if (mode == Mode::kAll && (o.no_threads || !caps.threads)) return std::nullopt;
  cmd.push_back(caps.path);
  cmd.push_back(c.collective ? "collective" : "traffic");
  cmd.push_back("--config");
  cmd.push_back(o.configs + "/" + c.config);
  cmd.insert(cmd.end(), c.args.begin(), c.args.end());
  if (caps.threads) {
    cmd.push_back("--threads");
    cmd.push_back(mode == Mode::kAll ? "0" : "1");
  } else {
    cmd.push_back("--harness");
    cmd.push_back("plain");
  }
  cmd.push_back("--json");
  cmd.push_back(json_out);
  return cmd;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

// Simulated cycles in a run's --json report: traffic's emulation.cycles, or the sum over a
// collective's results.
std::optional<std::uint64_t> cycles_of(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const json j = json::parse(in);
    if (j.contains("emulation") && j["emulation"].contains("cycles")) {
      return j["emulation"]["cycles"].get<std::uint64_t>();
    }
    if (j.contains("results")) {
      std::uint64_t sum = 0;
      for (const auto& r : j["results"]) sum += r.at("cycles").get<std::uint64_t>();
      return sum;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The runs of one binary in one mode on one case.
struct Series {
  bool runnable = false;
  std::string command;
  std::vector<double> walls;
  std::vector<long> rss_kb;
  std::vector<double> cpus;
  std::vector<int> pinned_to;      // per run: the CPU it was pinned to, or -1
  std::uint64_t cycles = 0;
  bool cycles_differ = false;
  int failures = 0;

  double wall() const { return walls.empty() ? 0 : median(walls); }
  double cycles_per_s() const { return walls.empty() ? 0 : static_cast<double>(cycles) / wall(); }
  long peak_rss_kb() const { return rss_kb.empty() ? 0 : *std::max_element(rss_kb.begin(), rss_kb.end()); }
  bool measured() const { return runnable && failures == 0 && !walls.empty(); }
  json to_json(int routers) const {
    if (!runnable) return nullptr;
    json j = {{"command", command}, {"runs", walls.size()}, {"failures", failures}};
    if (!measured()) return j;
    j["wall_seconds_median"] = wall();
    j["wall_seconds"] = walls;
    j["cpu_seconds"] = cpus;
    j["pinned_to_cpu"] = pinned_to;
    j["cycles"] = cycles;
    j["cycles_per_second"] = cycles_per_s();
    j["router_cycles_per_second"] = cycles_per_s() * routers;
    j["peak_rss_kb"] = peak_rss_kb();
    if (cycles_differ) j["cycles_differ_between_runs"] = true;
    return j;
  }
};

struct CaseResult {
  Case c;
  int routers = 0;
  std::map<Mode, Series> runs;
  Series baseline;
};

class Bench {
 public:
  Bench(Options o, Capabilities caps, std::optional<Capabilities> base, std::optional<std::string> mpirun,
        std::string tmp)
      : o_(std::move(o)), caps_(std::move(caps)), base_(std::move(base)), mpirun_(std::move(mpirun)),
        tmp_(std::move(tmp)) {}

  int routers_of(const Case& c) {
    const std::string out = tmp_ + "/describe.json";
    const std::string log = tmp_ + "/describe.log";
    const auto r = hxemu::bench::run_process(
        {caps_.path, "describe", "--config", o_.configs + "/" + c.config, "--json", out}, log);
    std::ifstream in(out);
    if (!r.ok() || !in) throw std::runtime_error("hxemu describe failed on " + c.config + ":\n" +
                                                 hxemu::bench::tail_of(log, 10));
    return json::parse(in).at("routers").get<int>();
  }

  // `cpu` >= 0 pins the run to that CPU.
  void run_one(const Case& c, const Capabilities& caps, Mode mode, Series& s, const char* who, int cpu) {
    const std::string out = tmp_ + "/run.json";
    const std::string log = tmp_ + "/run.log";
    const auto cmd = command(c, o_, caps, mode, out, mpirun_);
    if (!cmd) return;
    s.runnable = true;
    s.command = joined(*cmd);
    std::remove(out.c_str());
    std::remove(log.c_str());
    fmt::print(stderr, "hxemu-bench: {} {} {}{} ...", c.name, who, mode_key(mode),
               cpu >= 0 ? " on CPU " + std::to_string(cpu) : std::string());
    std::fflush(stderr);
    const ProcessRun r = hxemu::bench::run_process(*cmd, log, cpu);
    const auto cycles = cycles_of(out);
    if (!r.ok() || !cycles) {
      ++s.failures;
      failed_ = true;
      fmt::print(stderr, " FAILED (exit {}{}): {}\n{}", r.exit_status,
                 r.signal ? ", signal " + std::to_string(r.signal) : std::string(), s.command,
                 hxemu::bench::tail_of(log, 15));
      return;
    }
    fmt::print(stderr, " {:.2f} s ({:.2f} s CPU), {} cycles\n", r.wall_seconds, r.cpu_seconds, *cycles);
    if (!s.walls.empty() && s.cycles != *cycles) s.cycles_differ = true;
    s.cycles = *cycles;
    s.walls.push_back(r.wall_seconds);
    s.rss_kb.push_back(r.peak_rss_kb);
    s.cpus.push_back(r.cpu_seconds);
    s.pinned_to.push_back(cpu);
  }

  CaseResult run_case(const Case& c) {
    CaseResult res;
    res.c = c;
    res.routers = routers_of(c);
    const std::vector<int> cpus = o_.no_pin ? std::vector<int>{} : hxemu::bench::allowed_cpus();
    for (int rep = 0; rep < o_.repeat; ++rep) {
      // The single-core runs of a repetition (this binary's and the baseline's) run pinned to the
      // same CPU, the CPUs taken in turn from one repetition to the next: the vCPUs of a shared
      // machine differ in speed for minutes at a time (app/bench/cpu_speed.h), and a ratio of two
      // runs that landed on different ones measured the CPUs as much as the code.
      const int one_cpu = cpus.empty() ? -1 : cpus[static_cast<std::size_t>(rep) % cpus.size()];
      // One repetition: every run once; odd repetitions in the reverse order, so that the new
      // and the baseline binary alternate in going first.
      std::vector<std::pair<const Capabilities*, Mode>> order = {{&caps_, Mode::kOne}};
      if (base_) order.push_back({&*base_, Mode::kOne});
      order.push_back({&caps_, Mode::kAll});
      order.push_back({&caps_, Mode::kMpi});
      if (rep % 2) std::reverse(order.begin(), order.end());
      for (const auto& [caps, mode] : order) {
        const int cpu = mode == Mode::kOne ? one_cpu : -1;
        if (caps == &caps_) {
          run_one(c, *caps, mode, res.runs[mode], "hxemu", cpu);
        } else {
          run_one(c, *caps, mode, res.baseline, "baseline", cpu);
        }
      }
    }
    return res;
  }

  bool failed() const { return failed_; }

 private:
  Options o_;
  Capabilities caps_;
  std::optional<Capabilities> base_;
  std::optional<std::string> mpirun_;
  std::string tmp_;
  bool failed_ = false;
};

std::string num(double v, int prec = 0) { return fmt::format("{:.{}f}", v, prec); }

// Cycles/s, M router-cycles/s and the speed-up over `ref` of one series, or n/a.
std::vector<std::string> cells(const Series& s, int routers, const Series* ref) {
  if (!s.runnable) return {"n/a", "n/a", ref ? "n/a" : ""};
  if (!s.measured()) return {"failed", "failed", ref ? "-" : ""};
  std::vector<std::string> out = {num(s.cycles_per_s()), num(s.cycles_per_s() * routers / 1e6, 3)};
  if (ref) out.push_back(ref->measured() ? num(s.cycles_per_s() / ref->cycles_per_s(), 2) + "x" : "-");
  return out;
}

void print_table(const std::vector<CaseResult>& results, bool with_baseline) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"case", "routers", "cycles", "1 thr cyc/s", "Mrc/s", "all thr cyc/s", "Mrc/s", "x1thr",
                  "2 MPI cyc/s", "Mrc/s", "x1thr", "peak MB"});
  if (with_baseline) {
    rows[0].push_back("base cyc/s");
    rows[0].push_back("vs base");
  }
  for (const auto& r : results) {
    const Series& one = r.runs.at(Mode::kOne);
    std::vector<std::string> row = {r.c.name, std::to_string(r.routers),
                                    one.measured() ? std::to_string(one.cycles) : "-"};
    for (auto& cell : cells(one, r.routers, nullptr)) {
      if (!cell.empty()) row.push_back(cell);
    }
    for (Mode m : {Mode::kAll, Mode::kMpi}) {
      for (auto& cell : cells(r.runs.at(m), r.routers, &one)) row.push_back(cell);
    }
    row.push_back(one.measured() ? num(static_cast<double>(one.peak_rss_kb()) / 1024, 0) : "-");
    if (with_baseline) {
      const auto b = cells(r.baseline, r.routers, nullptr);
      row.push_back(b[0]);
      row.push_back(one.measured() && r.baseline.measured()
                        ? num(one.cycles_per_s() / r.baseline.cycles_per_s(), 2) + "x"
                        : "-");
    }
    rows.push_back(row);
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += i == 0 ? fmt::format("{:<{}}", row[i], width[i]) : fmt::format("  {:>{}}", row[i], width[i]);
    }
    fmt::print("{}\n", line);
  }
}

int run(const Options& o) {
  const std::string hxemu = o.hxemu.empty() ? hxemu::bench::sibling_hxemu() : o.hxemu;
  if (::access(hxemu.c_str(), X_OK) != 0) throw std::invalid_argument("no executable hxemu at " + hxemu);
  if (!o.baseline.empty() && ::access(o.baseline.c_str(), X_OK) != 0) {
    throw std::invalid_argument("--baseline: no executable at " + o.baseline);
  }
  std::vector<Case> cases;
  for (const auto& c : all_cases()) {
    if (o.cases.empty() || std::find(o.cases.begin(), o.cases.end(), c.name) != o.cases.end()) {
      cases.push_back(c);
    }
  }
  const std::string trace_case = "trace-hx2mesh-16";
  const bool want_trace = o.cases.empty() || std::find(o.cases.begin(), o.cases.end(), trace_case) != o.cases.end();
  for (const auto& name : o.cases) {
    bool known = name == trace_case;
    for (const auto& c : all_cases()) known = known || c.name == name;
    if (!known) throw std::invalid_argument("--cases: unknown case '" + name + "'");
  }
  for (const auto& c : cases) {
    struct stat st {};
    if (::stat((o.configs + "/" + c.config).c_str(), &st) != 0) {
      throw std::invalid_argument("--configs: no " + o.configs + "/" + c.config);
    }
  }

  const Capabilities caps = hxemu::bench::probe(hxemu);
  std::optional<Capabilities> base;
  if (!o.baseline.empty()) base = hxemu::bench::probe(o.baseline);
  const auto mpirun = hxemu::bench::find_on_path("mpirun");

  char tmpl[] = "/tmp/hxemu-bench-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot make a temporary folder");
  const std::string tmp = tmpl;

  const unsigned cores = std::thread::hardware_concurrency();
  double load[3] = {0, 0, 0};
  (void)::getloadavg(load, 3);
  fmt::print("hxemu-bench: {} ({}); threads: {}; MPI: {}\n", hxemu, caps.version.empty() ? "no --version" : caps.version,
             caps.threads ? "--threads" : "n/a (no --threads: single core, --harness plain)",
             caps.mpi && mpirun ? "mpirun -np 2" : !mpirun ? "n/a (no mpirun on PATH)" : "n/a (binary built without MPI)");
  if (base) {
    fmt::print("baseline: {} ({}){}\n", base->path, base->version.empty() ? "no --version" : base->version,
               base->threads ? "" : ", single core with --harness plain");
  }
  fmt::print("{} cores, load average {:.2f} at start; each figure the median of {} runs, whole process\n",
             cores, load[0], o.repeat);
  std::fflush(stdout);

  Bench bench(o, caps, base, mpirun, tmp);
  std::vector<CaseResult> results;
  hxemu::bench::TraceBench trace;
  hxemu::bench::CpuSpeeds speed_start, speed_end;
  try {
    const auto probe = command(cpu_probe_case(), o, caps, Mode::kOne, tmp + "/run.json", mpirun);
    if (!o.no_cpu_speed) speed_start = hxemu::bench::probe_cpu_speeds(*probe, tmp);
    for (const auto& c : cases) results.push_back(bench.run_case(c));
    if (want_trace) trace = hxemu::bench::run_trace_bench(caps, o.configs, o.repeat, tmp);
    if (!o.no_cpu_speed) speed_end = hxemu::bench::probe_cpu_speeds(*probe, tmp);
  } catch (...) {
    std::remove((tmp + "/run.json").c_str());
    std::remove((tmp + "/run.log").c_str());
    std::remove((tmp + "/describe.json").c_str());
    std::remove((tmp + "/describe.log").c_str());
    ::rmdir(tmp.c_str());
    throw;
  }
  for (const char* f : {"/run.json", "/run.log", "/describe.json", "/describe.log"}) {
    std::remove((tmp + f).c_str());
  }
  ::rmdir(tmp.c_str());

  fmt::print("\n");
  if (!results.empty()) {
    print_table(results, base.has_value());
    fmt::print("cyc/s = simulated cycles per wall second of the whole process; Mrc/s = million "
               "router-cycles/s (routers x cycles / s); x1thr = speed-up over 1 thread; peak MB = "
               "largest resident size on 1 thread{}\n",
               base ? "; vs base = 1-thread speed over the baseline binary's" : "");
  }
  if (want_trace) print_trace_bench(trace);
  if (!o.no_cpu_speed) {
    print_cpu_speeds(speed_start, "at start");
    print_cpu_speeds(speed_end, "at end");
    const double spread = std::max(speed_start.spread(), speed_end.spread());
    if (spread > 1.15) {
      fmt::print("note: the CPUs ran at different speeds (the slowest up to {:.2f}x the fastest): a 2-thread or "
                 "2-rank speed-up is held back by the slower one, and a 1-thread figure depends on the CPU it ran "
                 "on\n",
                 spread);
    }
  }
  for (const auto& r : results) {
    for (const auto& [mode, s] : r.runs) {
      if (s.cycles_differ) fmt::print("note: {} {}: simulated cycles differ between runs\n", r.c.name, mode_key(mode));
    }
    if (base && r.baseline.measured() && r.runs.at(Mode::kOne).measured() &&
        r.baseline.cycles != r.runs.at(Mode::kOne).cycles) {
      fmt::print("note: {}: the baseline simulated {} cycles, this binary {}\n", r.c.name, r.baseline.cycles,
                 r.runs.at(Mode::kOne).cycles);
    }
  }

  if (!o.json.empty()) {
    json j;
    j["hxemu"] = {{"path", caps.path}, {"version", caps.version}, {"threads", caps.threads}, {"mpi", caps.mpi}};
    if (base) {
      j["baseline"] = {{"path", base->path}, {"version", base->version}, {"threads", base->threads}};
    }
    j["cores"] = cores;
    j["load_average_at_start"] = load[0];
    j["repeat"] = o.repeat;
    json cs = json::array();
    for (const auto& r : results) {
      json c = {{"case", r.c.name}, {"config", r.c.config}, {"routers", r.routers}};
      for (Mode m : {Mode::kOne, Mode::kAll, Mode::kMpi}) c[mode_key(m)] = r.runs.at(m).to_json(r.routers);
      if (base) {
        c["baseline"] = r.baseline.to_json(r.routers);
        const auto& one = r.runs.at(Mode::kOne);
        c["speedup_vs_baseline"] = one.measured() && r.baseline.measured()
                                       ? json(one.cycles_per_s() / r.baseline.cycles_per_s())
                                       : json(nullptr);
      }
      cs.push_back(c);
    }
    j["cases"] = cs;
    if (want_trace) j["trace"] = trace.json();
    if (!o.no_cpu_speed) j["cpu_speed"] = {{"start", speed_start.json()}, {"end", speed_end.json()}};
    std::ofstream out(o.json);
    out << j.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json);
  }
  return bench.failed() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"hxemu-bench: emulation speed of the hxemu binary (whole process, cycles/s, router-cycles/s, "
               "peak memory), optionally side by side with another revision's binary"};
  app.add_option("--hxemu", o.hxemu, "the hxemu binary to measure (default: the one next to hxemu-bench)");
  app.add_option("--baseline", o.baseline, "another hxemu binary to run the same command lines with (single core)");
  app.add_option("--configs", o.configs, "folder of the shipped configurations")->capture_default_str();
  app.add_option("--cases", o.cases,
                 "cases to run (default all): mesh-8x8, hx2mesh-64, hx4mesh-1024, allreduce-hx2mesh-64, "
                 "allreduce-hx4mesh-1024, "
                 "trace-hx2mesh-16")
      ->delimiter(',');
  app.add_option("--repeat", o.repeat, "runs per figure (the median is reported)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--json", o.json, "also write every figure as JSON to FILE");
  app.add_flag("--no-mpi", o.no_mpi, "skip the 2-rank MPI column");
  app.add_flag("--no-threads", o.no_threads, "skip the all-threads column");
  app.add_flag("--no-cpu-speed", o.no_cpu_speed,
               "skip the CPU speed probe (a short mesh-8x8 run pinned to each CPU, before and after the cases)");
  app.add_flag("--no-pin", o.no_pin,
               "leave the single-core runs unpinned (by default each repetition's single-core runs, this "
               "binary's and the baseline's, are pinned to one CPU, the CPUs taken in turn)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return run(o);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "hxemu-bench: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "hxemu-bench: {}\n", e.what());
    return 1;
  }
}
