#include "tb/traffic/nic_traffic_run.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "sysc/dist/ranks.h"
#include "sysc/host/nic_node.h"
#include "sysc/system/route_model.h"
#include "sysc/util/fnv_digest.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/nic_traffic_host.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/stats/link_windows.h"
#include "tb/watchdog.h"

namespace hxemu::tb {

namespace {

// Sum over nodes (and ranks: hosts of nodes another rank steps count zero here) of f(host).
template <class F>
std::uint64_t total(const sysc::System& sys, const std::vector<NicTrafficHost*>& hosts, F&& f) {
  std::uint64_t s = 0;
  for (std::size_t n = 0; n < hosts.size(); ++n) {
    if (sys.owns_node(static_cast<int>(n))) s += f(*hosts[n]);
  }
  return sys.ranks() > 1 ? sysc::Ranks::sum(s) : s;
}

}  // namespace

TrafficRunResult run_nic_traffic(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg,
                                 int rails, sysc::HarnessFactory harness, Progress* progress,
                                 LinkWindows* windows) {
  TrafficRunResult res;
  res.cfg = cfg;
  res.endpoints = "nic";
  if (!(cfg.load >= 0.0) || cfg.load > 1.0) {
    throw std::invalid_argument("load must be in 0..1 flits/NIC/cycle (a NIC injects through one "
                                "link), got " + std::to_string(cfg.load));
  }
  if (cfg.fault != TrafficRunConfig::Fault::kNone && cfg.fault != TrafficRunConfig::Fault::kCorruptFlit &&
      cfg.fault != TrafficRunConfig::Fault::kDropFlit) {
    throw std::invalid_argument("NIC traffic plants only link faults (drop, corrupt)");
  }
  const PacketSize sizes(cfg.packet_flits, sys_cfg.max_packet_flits);
  if (sys_cfg.flit_bits < 256 || sys_cfg.flit_bits > 512) {
    throw std::invalid_argument("flit_bits " + std::to_string(sys_cfg.flit_bits) + ": NIC traffic "
                                "writes self-checking words of 256..512 bits");
  }
  if (sizes.min() < 2) {
    throw std::invalid_argument("--packet-flits '" + cfg.packet_flits + "': NIC traffic sends "
                                "messages of one packet with a payload, so packets need 2.." +
                                std::to_string(sys_cfg.max_packet_flits) + " flits");
  }

  NicTrafficPlan plan;
  plan.sizes = &sizes;
  plan.packet_probability = cfg.load / sizes.mean();
  plan.seed = cfg.seed;
  plan.w0 = cfg.warmup;
  plan.w1 = cfg.warmup + cfg.measure;
  plan.nodes = sys_cfg.nodes();
  plan.word_bytes = sys_cfg.flit_bits / 8;
  plan.slot_bytes = static_cast<std::uint32_t>(sizes.max() - 1) * static_cast<std::uint32_t>(plan.word_bytes);
  plan.rails = std::clamp(rails, 1, 4);
  if (plan.memory_bytes() >= (std::size_t{1} << 32)) {
    throw std::invalid_argument(fmt::format(
        "NIC traffic on {} nodes with {}-flit packets needs {} bytes of host memory per node for its "
        "receive slots; host addresses are 32-bit: use shorter packets",
        plan.nodes, sizes.max(), plan.memory_bytes()));
  }

  sysc::NicFactory nics(plan.rails, std::max<std::size_t>(plan.memory_bytes(), 4096));
  sysc::System sys(system_for_run(sys_cfg, cfg), nics);
  sysc::Network& net = sys.net();
  const int n = sys.nodes();
  plan.rails = sys.rails();
  res.rails = plan.rails;
  res.nodes = n;
  res.link_gbps = sys_cfg.link_gbps();
  const LogicalGrid grid(sys);
  const TrafficPattern pattern(cfg.pattern, grid, cfg.seed);
  plan.pattern = &pattern;
  res.pattern_description = pattern.description();
  res.mean_packet_flits = sizes.mean();
  for (int d = 0; d < n; ++d) plan.routes.push_back(sys.route_of(d));

  std::vector<NicTrafficHost*> hosts;
  for (int node = 0; node < n; ++node) {
    std::vector<sysc::NicNode*> r;
    for (int k = 0; k < plan.rails; ++k) r.push_back(&nics.nic(node, k));
    auto host = std::make_unique<NicTrafficHost>(node, r, nics.memory(node), plan, sys.node_clock(node));
    hosts.push_back(host.get());
    sys.add_node_block(node, std::move(host), "node" + std::to_string(node) + ".traffic");
  }
  const auto applied = apply_run_faults(sys, cfg);
  auto h = harness(sys);
  res.harness = h->name();
  if (windows) windows->attach(sys);

  // Watchdog: no flit moved for stall_cycles while anything is still to deliver.
  std::uint64_t last_moved = ~0ull, last_progress = 0;
  bool deadlocked = false;
  auto stuck = [&]() {
    const std::uint64_t moved = sys.flits_moved();
    const std::uint64_t now = net.now();
    if (moved != last_moved) {
      last_moved = moved;
      last_progress = now;
      return false;
    }
    if (now - last_progress < cfg.watchdog.stall_cycles) return false;
    res.errors.push_back(fmt::format("deadlock: no flit moved for {} cycles with messages "
                                     "outstanding (cycle {})", now - last_progress, now));
    res.stuck_report = Watchdog::stuck_report(sys, Scoreboard{});
    return true;
  };
  const auto t_start = std::chrono::steady_clock::now();
  auto advance_to = [&](std::uint64_t target) {
    while (!deadlocked && net.now() < target) {
      const std::uint64_t step = std::min<std::uint64_t>(32, target - net.now());
      if (windows) {
        windows->run(net.now(), step, [&](std::uint64_t k) { h->run(k); });   // cut at window edges
      } else {
        h->run(step);
      }
      if (progress) progress->cycles(net.now());
      deadlocked = stuck();
    }
  };
  auto phase = [&](const std::string& what) {
    if (progress) progress->phase(what);
  };

  phase("warm-up");
  advance_to(plan.w0);
  if (windows) windows->before_counter_reset();
  net.reset_link_counters();
  net.reset_stall_counters();
  if (!deadlocked && cfg.fault != TrafficRunConfig::Fault::kNone) {
    for (int l = 0; l < net.links(); ++l) {
      if (net.link_info(l).cls != sysc::LinkClass::kTerminal) {
        // A corrupted flit is a body flit: the upper bits of a NIC packet's head are unused.
        net.inject_fault(l, cfg.fault == TrafficRunConfig::Fault::kDropFlit ? sysc::Network::LinkFault::kDrop
                                                                             : sysc::Network::LinkFault::kFlipBodyBit);
        break;
      }
    }
  }
  phase("measure");
  advance_to(plan.w1);
  const std::uint64_t window_end = std::max<std::uint64_t>(plan.w0 + 1, std::min(net.now(), plan.w1));
  std::vector<std::uint64_t> window_link_flits(net.links());
  for (int l = 0; l < net.links(); ++l) window_link_flits[l] = net.link_flits(l);
  if (sys.ranks() > 1) sysc::Ranks::sum(window_link_flits);

  // Drain: traffic goes on until every measured message has landed.
  const std::uint64_t drain_end = plan.w1 + cfg.drain_limit;
  phase("drain (limit " + std::to_string(drain_end) + ")");
  auto measured_out = [&] {
    return total(sys, hosts, [](const NicTrafficHost& x) { return x.created_measured(); }) -
           total(sys, hosts, [](const NicTrafficHost& x) { return x.delivered_measured(); });
  };
  while (!deadlocked && net.now() < drain_end && measured_out() > 0) {
    advance_to(std::min(drain_end, net.now() + 256));
  }
  if (!deadlocked) res.outstanding_at_drain_limit = measured_out();

  // Stop creating, take back what was never posted, let every posted message land.
  for (std::size_t k = 0; k < hosts.size(); ++k) {
    if (sys.owns_node(static_cast<int>(k))) {
      hosts[k]->stop_generating();
      hosts[k]->withdraw();
    }
  }
  if (!deadlocked) {
    phase("emptying the network");
    const std::uint64_t limit = net.now() + 20 * (cfg.warmup + cfg.measure + cfg.drain_limit) + 100000;
    auto settled = [&] {
      const std::uint64_t open =
          total(sys, hosts, [](const NicTrafficHost& x) { return static_cast<std::uint64_t>(!x.settled()); });
      const std::uint64_t posted = total(sys, hosts, [](const NicTrafficHost& x) { return x.posted(); });
      const std::uint64_t landed = total(sys, hosts, [](const NicTrafficHost& x) { return x.landed(); });
      const std::uint64_t released = total(sys, hosts, [](const NicTrafficHost& x) { return x.released(); });
      return open == 0 && posted == landed && landed == released && sys.quiet();
    };
    while (!deadlocked && net.now() < limit && !settled()) advance_to(net.now() + 64);
    res.drained = !deadlocked && settled();
    if (!res.drained && !deadlocked) {
      res.errors.push_back("the network did not drain");
      res.stuck_report = Watchdog::stuck_report(sys, Scoreboard{});
    }
  }
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  res.cycles = net.now();
  if (windows) windows->finish(net.now());
  res.block_ticks = sysc::Ranks::sum(net.ticks_done());
  res.block_ticks_skipped = sysc::Ranks::sum(net.ticks_skipped());

  // ---- statistics (hosts in node order; under mpirun every rank contributes the nodes it owns) --
  const double window = static_cast<double>(window_end - plan.w0);
  const std::size_t pairs = static_cast<std::size_t>(plan.rails) * n;
  std::vector<std::uint64_t> per_nic(pairs, 0), sent(pairs * n, 0), received(pairs * n, 0);
  std::vector<std::uint64_t> counts(8, 0), digests(n, 0);
  LatencyStats msg, netlat;
  std::vector<std::string> samples;
  for (int node = 0; node < n; ++node) {
    if (!sys.owns_node(node)) continue;
    const NicTrafficHost& x = *hosts[node];
    for (int r = 0; r < plan.rails; ++r) per_nic[static_cast<std::size_t>(node) * plan.rails + r] = x.window_flits(r);
    // sent[(rail * n + src) * n + dst], received likewise by (rail, src, dst)
    for (int r = 0; r < plan.rails; ++r) {
      for (int d = 0; d < n; ++d) {
        sent[(static_cast<std::size_t>(r) * n + node) * n + d] = x.sent_to()[static_cast<std::size_t>(r) * n + d];
        received[(static_cast<std::size_t>(r) * n + d) * n + node] = x.received_from()[static_cast<std::size_t>(r) * n + d];
      }
    }
    counts[0] += x.created_measured();
    counts[1] += x.created_measured_flits();
    counts[2] += x.delivered_measured();
    counts[3] += x.withdrawn_measured();
    counts[4] += x.posted();
    counts[5] += x.landed();
    counts[6] += x.data_errors();
    counts[7] += x.released();
    digests[node] = x.digest();
    msg.merge(x.message_latency());
    netlat.merge(x.network_latency());
    for (const auto& e : x.error_samples()) samples.push_back(e);
  }
  if (sys.ranks() > 1) {
    sysc::Ranks::sum(per_nic);
    sysc::Ranks::sum(sent);
    sysc::Ranks::sum(received);
    sysc::Ranks::sum(counts);
    sysc::Ranks::sum(digests);
    LatencyStats all_msg, all_net;
    for (const auto& s : sysc::Ranks::all_gather(msg.encode())) all_msg.merge_encoded(s);
    for (const auto& s : sysc::Ranks::all_gather(netlat.encode())) all_net.merge_encoded(s);
    msg = all_msg;
    netlat = all_net;
    std::string mine;
    for (const auto& e : samples) mine += e + "\n";
    samples.clear();
    for (const auto& s : sysc::Ranks::all_gather(mine)) {
      std::size_t at = 0;
      for (std::size_t nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1) samples.push_back(s.substr(at, nl - at));
    }
  }
  const double ports = static_cast<double>(pairs);
  res.offered = static_cast<double>(counts[1]) / ports / static_cast<double>(std::max<std::uint64_t>(cfg.measure, 1));
  double acc_sum = 0;
  res.accepted_min = per_nic.empty() ? 0 : 1e30;
  for (std::uint64_t f : per_nic) {
    const double a = static_cast<double>(f) / window;
    acc_sum += a;
    res.accepted_min = std::min(res.accepted_min, a);
    res.accepted_max = std::max(res.accepted_max, a);
  }
  res.accepted = acc_sum / ports;
  res.measured_packets = counts[0];
  res.delivered_packets = counts[2];
  res.withdrawn_packets = counts[3];
  res.posted = counts[4];
  res.landed = counts[5];
  res.released = counts[7];
  res.packet_latency = msg;
  res.network_latency = netlat;

  // Hops: the routing model's path length of every (rail, source, destination) pair, weighted by
  // the messages sent on it.
  double hops = 0, msgs = 0;
  std::unordered_map<std::uint64_t, int> path_links;
  for (int r = 0; r < plan.rails; ++r) {
    for (int s = 0; s < n; ++s) {
      for (int d = 0; d < n; ++d) {
        const std::uint64_t c = sent[(static_cast<std::size_t>(r) * n + s) * n + d];
        if (c == 0) continue;
        const std::uint64_t key = (static_cast<std::uint64_t>(r) << 40) | (static_cast<std::uint64_t>(s) << 20) | static_cast<std::uint64_t>(d);
        auto it = path_links.find(key);
        if (it == path_links.end()) it = path_links.emplace(key, sysc::trace_path(sys, s, d, r).links).first;
        hops += static_cast<double>(c) * it->second;
        msgs += static_cast<double>(c);
      }
    }
  }
  if (msgs > 0) res.hops_mean = hops / msgs;
  fill_network_figures(sys, window_link_flits, window, res);

  sysc::Fnv64 digest;
  for (std::uint64_t d : digests) digest.add(d);
  res.arrival_digest = digest.hex();

  // ---- checks ---------------------------------------------------------------------------------
  if (counts[6] > 0) {
    res.errors.push_back(fmt::format("{} packets landed with wrong bytes or fields", counts[6]));
    for (const auto& e : samples) res.errors.push_back("  " + e);
  }
  std::uint64_t pair_errors = 0;
  for (std::size_t k = 0; k < sent.size(); ++k) {
    if (sent[k] == received[k]) continue;
    if (++pair_errors <= 4) {
      const std::size_t r = k / (static_cast<std::size_t>(n) * n), s = k / n % n, d = k % n;
      res.errors.push_back(fmt::format("rail {}: node {} posted {} messages to node {}, {} landed intact",
                                       r, s, sent[k], d, received[k]));
    }
  }
  if (pair_errors > 4) res.errors.push_back(fmt::format("... {} (rail, source, destination) pairs differ", pair_errors));
  if (res.drained && (res.posted != res.landed || res.landed != res.released)) {
    res.errors.push_back(fmt::format("{} puts posted, {} packets landed, {} messages completed to hosts",
                                     res.posted, res.landed, res.released));
  }
  if (res.delivered_packets + res.withdrawn_packets != res.measured_packets && res.drained) {
    res.errors.push_back(fmt::format("{} measured messages: {} delivered + {} withdrawn", res.measured_packets,
                                     res.delivered_packets, res.withdrawn_packets));
  }
  if (sys.any_error()) res.errors.push_back("a block flagged an error (credit protocol, NIC or message assembly)");
  res.checks_passed = res.errors.empty() && res.drained;
  judge_saturation(res, cfg.saturation);
  if (!cfg.faults.empty()) {
    res.faults = collect_fault_report(sys, applied, run_fault_plan(cfg));
    res.faults.crc_on = sys_cfg.nic_crc;
    res.faults.crc_errors = sysc::nic_crc_errors(sys);
  }
  return res;
}

}  // namespace hxemu::tb
