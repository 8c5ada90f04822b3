#include "app/bench/bench_trace.h"

#include <fmt/core.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

namespace hxemu::bench {

namespace {

constexpr std::uint64_t kFirst = 1000, kEnd = 2000;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct RunOut {
  bool ok = false;
  double wall = 0;      // whole process
  double emulation = 0; // the report's emulation.wall_seconds
  std::uint64_t cycles = 0;
  std::string digest;
};

RunOut run_once(const std::vector<std::string>& cmd, const std::string& json, const std::string& log) {
  std::remove(json.c_str());
  std::remove(log.c_str());
  const ProcessRun r = run_process(cmd, log);
  RunOut out;
  std::ifstream in(json);
  if (!r.ok() || !in) {
    fmt::print(stderr, " FAILED (exit {})\n{}", r.exit_status, tail_of(log, 10));
    return out;
  }
  try {
    const auto j = nlohmann::json::parse(in);
    out.cycles = j.at("emulation").at("cycles").get<std::uint64_t>();
    out.emulation = j.at("emulation").at("wall_seconds").get<double>();
    out.digest = j.at("arrival_digest").get<std::string>();
  } catch (const std::exception& e) {
    fmt::print(stderr, " FAILED (report: {})\n", e.what());
    return out;
  }
  out.ok = true;
  out.wall = r.wall_seconds;
  fmt::print(stderr, " {:.3f} s ({:.3f} s emulation), {} cycles\n", out.wall, out.emulation, out.cycles);
  return out;
}

}  // namespace

double TraceBench::window_ratio() const {
  if (!measured() || cycles == 0 || window == 0) return 0;
  const double untraced_window = untraced_s * static_cast<double>(window) / static_cast<double>(cycles);
  return (traced_s - untraced_s) / untraced_window + 1;
}

nlohmann::json TraceBench::json() const {
  if (!runnable) return nullptr;
  nlohmann::json j = {{"command", command}, {"failures", failures}};
  if (!measured()) return j;
  j["untraced_emulation_seconds_median"] = untraced_s;
  j["traced_emulation_seconds_median"] = traced_s;
  j["ratio"] = ratio();
  j["untraced_process_seconds_median"] = untraced_process_s;
  j["traced_process_seconds_median"] = traced_process_s;
  j["process_ratio"] = process_ratio();
  j["traced_cycles"] = window;
  j["cycles"] = cycles;
  j["window_ratio"] = window_ratio();
  j["fst_bytes"] = fst_bytes;
  j["same_result"] = same_result;
  return j;
}

TraceBench run_trace_bench(const Capabilities& caps, const std::string& configs, int repeat,
                           const std::string& tmp) {
  TraceBench t;
  if (!caps.trace) return t;
  t.runnable = true;
  t.window = kEnd - kFirst;
  const std::string json = tmp + "/trace-run.json", log = tmp + "/trace-run.log", fst = tmp + "/trace.fst",
                    gtkw = tmp + "/trace.gtkw";
  const std::vector<std::string> untraced = {caps.path, "traffic", "--config", configs + "/hx2mesh-16.json",
                                             "--load", "0.3", "--warmup", "1000", "--measure", "1000",
                                             "--threads", "1", "--quiet", "--json", json};
  std::vector<std::string> traced = untraced;
  for (const std::string& a : {std::string("--trace"), fst, std::string("--trace-cycles"),
                               fmt::format("{}:{}", kFirst, kEnd), std::string("--trace-blocks"),
                               std::string("board0.*")}) {
    traced.push_back(a);
  }
  for (const auto& a : traced) t.command += (t.command.empty() ? "" : " ") + a;
  std::vector<double> plain_walls, traced_walls, plain_process, traced_process;
  std::string digest;
  for (int rep = 0; rep < repeat; ++rep) {
    for (int k = 0; k < 2; ++k) {
      const bool with_trace = (k == 0) == (rep % 2 == 1);   // alternate which goes first
      fmt::print(stderr, "hxemu-bench: trace-hx2mesh-16 {} ...", with_trace ? "traced" : "untraced");
      std::fflush(stderr);
      const RunOut r = run_once(with_trace ? traced : untraced, json, log);
      if (!r.ok) {
        ++t.failures;
        continue;
      }
      (with_trace ? traced_walls : plain_walls).push_back(r.emulation);
      (with_trace ? traced_process : plain_process).push_back(r.wall);
      t.cycles = r.cycles;
      if (digest.empty()) digest = r.digest;
      t.same_result = t.same_result && r.digest == digest;
      struct stat st {};
      if (with_trace && ::stat(fst.c_str(), &st) == 0) t.fst_bytes = static_cast<std::uint64_t>(st.st_size);
    }
  }
  t.untraced_s = median(plain_walls);
  t.traced_s = median(traced_walls);
  t.untraced_process_s = median(plain_process);
  t.traced_process_s = median(traced_process);
  for (const auto& f : {json, log, fst, gtkw}) std::remove(f.c_str());
  return t;
}

void print_trace_bench(const TraceBench& t) {
  if (!t.runnable) {
    fmt::print("trace-hx2mesh-16: n/a (this hxemu has no --trace)\n");
    return;
  }
  if (!t.measured()) {
    fmt::print("trace-hx2mesh-16: failed ({} runs)\n", t.failures);
    return;
  }
  fmt::print("trace-hx2mesh-16: traffic on hx2mesh-16, {} cycles on 1 thread, board 0 (4 of 16 routers) traced "
             "for cycles {}-{} ({:.1f} KiB FST), results {}:\n"
             "  emulation untraced {:.3f} s, traced {:.3f} s: {:.2f}x (a traced cycle {:.1f}x an untraced one); "
             "whole process {:.3f} s vs {:.3f} s: {:.2f}x\n",
             t.cycles, kFirst, kEnd, static_cast<double>(t.fst_bytes) / 1024,
             t.same_result ? "identical" : "DIFFER", t.untraced_s, t.traced_s, t.ratio(), t.window_ratio(),
             t.untraced_process_s, t.traced_process_s, t.process_ratio());
}

}  // namespace hxemu::bench
