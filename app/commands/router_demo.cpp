#include "app/commands/router_demo.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "tb/router_bench.h"

namespace hxemu::tb {


RouterDemoResult run_router_demo(const RouterDemoConfig& cfg) {
  RouterBenchConfig bc;
  bc.vcs = cfg.vcs;
  bc.in_depth = cfg.depth;
  bc.out_depth = cfg.depth;
  bc.link_latency = cfg.link_latency;
  bc.seed = cfg.seed;
  RouterBench bench(bc);
  std::mt19937_64 rng(cfg.seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> vc(0, cfg.vcs - 1);
  const double p_packet = cfg.load / cfg.packet_flits;

  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t end = cfg.warmup + cfg.measure;
  for (std::uint64_t c = 0; c < end; ++c) {
    for (int in = 0; in < 5; ++in) {
      if (u(rng) < p_packet) {
        const auto outs = RouterBench::legal_outputs(in);
        const int out = outs[std::uniform_int_distribution<std::size_t>(0, outs.size() - 1)(rng)];
        const auto [r, col] = bench.dst_for(out);
        bench.send(in, vc(rng), r, col, cfg.packet_flits);
      }
    }
    bench.step();
  }
  // Drain so that every packet created in the window is accounted for.
  bench.drain(10 * end);
  const auto t1 = std::chrono::steady_clock::now();

  RouterDemoResult res;
  res.cycles = bench.now();
  res.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  res.accepted_per_output.assign(5, 0.0);
  std::vector<double> lat;
  for (const auto& a : bench.arrivals()) {
    if (a.cycle >= cfg.warmup && a.cycle < end) {
      res.accepted_per_output[a.port] += 1.0 / static_cast<double>(cfg.measure);
    }
    const auto& p = bench.packet(a.packet);
    if (a.flit == p.flits - 1 && p.created >= cfg.warmup && p.created < end) {
      lat.push_back(static_cast<double>(a.cycle - p.created));
    }
  }
  for (double x : res.accepted_per_output) res.accepted_total += x;
  res.offered_total = 5 * cfg.load;
  res.packets = lat.size();
  if (!lat.empty()) {
    std::sort(lat.begin(), lat.end());
    double sum = 0;
    for (double x : lat) sum += x;
    res.latency_mean = sum / static_cast<double>(lat.size());
    res.latency_p50 = lat[lat.size() / 2];
    res.latency_p99 = lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
    res.latency_max = lat.back();
  }
  // Created in cycle t, the sender puts the head on the link in t; it reaches the router's input
  // after 1 + L cycles, its output 2 cycles later; the tail follows packet_flits - 1 cycles after.
  res.zero_load_latency = 1 + cfg.link_latency + 2 + (cfg.packet_flits - 1);
  res.errors = bench.errors();
  res.clean = res.errors.empty() && !bench.router_error() && bench.packets_done() == bench.packets_sent();
  return res;
}

}  // namespace hxemu::tb
