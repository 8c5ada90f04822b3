#include "tb/traffic/traffic_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "sysc/dist/ranks.h"
#include "sysc/system/route_model.h"
#include "sysc/util/fnv_digest.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic/random_draw.h"
#include "tb/stats/link_windows.h"
#include "tb/traffic_system.h"

namespace hxemu::tb {

namespace {

// Forwards heads crossing cables to the scoreboard (on-board / tree latency split), through the
// sending partition's event log (it is called by the thread stepping that partition).
class CableTap final : public sysc::Network::HeadObserver {
 public:
  CableTap(PartitionEvents& events, const sysc::System& sys) : events_(events), sys_(sys) {}
  void head_on_cable(int link, const sysc::Flit& f, std::uint64_t now) override {
    events_.cable(sys_, link, flit_packet_id(f), sys_.net().link(link).latency(), now);
  }

 private:
  PartitionEvents& events_;
  const sysc::System& sys_;
};

// Bernoulli arrivals per node: the gap to the next packet is geometric with parameter p.
class ArrivalProcess {
 public:
  ArrivalProcess(int nodes, double p, std::uint64_t seed)
      : p_(std::min(1.0, p)), log_q_(std::log1p(-p_)), rng_(seed) {
    next_.resize(nodes);
    for (auto& t : next_) t = gap();
  }
  std::uint64_t& next(int node) { return next_[node]; }
  std::uint64_t gap() { return geometric_gap(rng_, p_, log_q_); }

 private:
  double p_;
  double log_q_;   // log(1 - p_), the same every draw
  std::mt19937_64 rng_;
  std::vector<std::uint64_t> next_;
};

}  // namespace

TrafficRunResult run_traffic(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg,
                             sysc::HarnessFactory harness, Progress* progress, LinkWindows* windows,
                             const std::function<void()>& ready) {
  TrafficRunResult res;
  res.cfg = cfg;
  TrafficSystem ts(system_for_run(sys_cfg, cfg), harness);
  sysc::System& sys = ts.sys();
  sysc::Network& net = sys.net();
  Scoreboard& sb = ts.scoreboard();
  const int n = sys.nodes();
  res.nodes = n;
  res.harness = ts.harness().name();
  res.link_gbps = sys_cfg.link_gbps();

  const LogicalGrid grid(sys);
  const TrafficPattern pattern(cfg.pattern, grid, cfg.seed);
  const PacketSize sizes(cfg.packet_flits, sys_cfg.max_packet_flits);
  res.pattern_description = pattern.description();
  res.mean_packet_flits = sizes.mean();
  if (!(cfg.load >= 0.0) || cfg.load > 1.0) {
    throw std::invalid_argument("load must be in 0..1 flits/node/cycle (a node injects through one "
                                "link), got " + std::to_string(cfg.load));
  }
  const auto applied = apply_run_faults(sys, cfg);
  if (ready) ready();
  const double packet_rate = cfg.load / sizes.mean();   // packets per node and cycle
  ArrivalProcess arrivals(n, packet_rate, cfg.seed * 0x9E3779B97F4A7C15ull + 1);
  // Room for the expected packet count plus 5% (the count of this many Bernoulli arrivals stays
  // well inside it), at most 4 Mi records (about 540 MB of address space, touched only as packets
  // are created): a longer run grows the table from there. Sources go on creating packets while
  // the measured ones drain, 256 cycles at a time: the room covers 1,024 such cycles. Without
  // them a short run outgrew its table in the drain, and the doubled copy touched twice the
  // memory (hx4mesh-1024, 500 + 2,000 cycles and 384 of drain: 26 MB more at its peak).
  constexpr double kDrainCycles = 1024.0;
  const double expected_packets =
      1.05 * n * packet_rate * (static_cast<double>(cfg.warmup + cfg.measure) + kDrainCycles) + 1024.0;
  sb.reserve(static_cast<std::size_t>(std::min(expected_packets, 4194304.0)));
  std::mt19937_64 rng(cfg.seed);
  CableTap tap(ts.events(), sys);
  net.set_head_observer(&tap);
  if (windows) {
    windows->attach(sys);
    ts.set_link_windows(windows);
  }

  const std::uint64_t w0 = cfg.warmup, w1 = cfg.warmup + cfg.measure;
  std::vector<std::uint64_t> rx_at_w0(n), rx_at_w1(n);
  std::uint64_t generated_in_window = 0;
  bool fault_planted = false;

  // Creates every packet with a creation cycle before `horizon` (source by source, in the order
  // the random draws are made) in the scoreboard, and lists those this rank's sources send (a
  // packet twice when the duplicate fault is planted in it) in `queue`. `window_flits` counts the
  // flits created in the measurement window.
  struct Queued {
    PacketSpec p;
    bool twice = false;
  };
  auto create_until = [&](std::uint64_t horizon, std::vector<Queued>& queue, std::uint64_t& window_flits) {
    for (int src = 0; src < n; ++src) {
      std::uint64_t& t = arrivals.next(src);
      while (t < horizon) {
        const int flits = sizes.draw(rng);
        const int dst = pattern.destination(src, rng);
        PacketSpec p;
        p.id = sb.created();
        p.src = src;
        p.dst = dst;
        p.route = sys.route_of(dst);
        p.flits = flits;
        p.created = t;
        sb.expect(p);
        bool twice = false;
        if (cfg.fault == TrafficRunConfig::Fault::kDuplicatePacket && !fault_planted && t >= w0) {
          twice = true;   // the same packet a second time
          fault_planted = true;
        }
        if (sys.owns_node(src)) queue.push_back({p, twice});   // under mpirun: the rank stepping src
        if (t >= w0 && t < w1) window_flits += static_cast<std::uint64_t>(flits);
        t += 1 + arrivals.gap();
      }
    }
  };
  auto enqueue = [&](const std::vector<Queued>& queue) {
    for (const Queued& q : queue) {
      ts.endpoint(q.p.src).enqueue(q.p);
      if (q.twice) ts.endpoint(q.p.src).enqueue(q.p);
    }
  };

  auto plant_link_fault = [&] {
    if (fault_planted || cfg.fault == TrafficRunConfig::Fault::kNone ||
        cfg.fault == TrafficRunConfig::Fault::kDuplicatePacket) {
      return;
    }
    // The first non-terminal link: a router-to-router or router-to-switch link.
    for (int l = 0; l < net.links(); ++l) {
      if (net.link_info(l).cls != sysc::LinkClass::kTerminal) {
        net.inject_fault(l, cfg.fault == TrafficRunConfig::Fault::kDropFlit
                                ? sysc::Network::LinkFault::kDrop
                                : sysc::Network::LinkFault::kFlipBit);
        break;
      }
    }
    fault_planted = true;
  };

  Watchdog dog(cfg.watchdog);
  const auto t_start = std::chrono::steady_clock::now();
  const std::uint64_t chunk = 32;
  bool deadlocked = false;
  // Packets are created chunk by chunk, each chunk's before it runs. Within one advance_to the
  // next chunk's packets are created while this one runs (Harness::run_beside: on another thread
  // when there is one), with the same draws in the same order as one after the other; they are
  // taken out of the scoreboard while the watchdog looks (they do not exist yet) and are queued
  // at their sources when their chunk starts. A deadlock ends the run with them dropped.
  std::vector<Queued> queue, queue_ahead;
  std::vector<PacketRecord> records_ahead;
  auto advance_to = [&](std::uint64_t target) {
    if (ts.now() >= target) return;
    queue.clear();
    create_until(std::min(target, ts.now() + chunk), queue, generated_in_window);
    while (ts.now() < target) {
      const std::uint64_t step = std::min(chunk, target - ts.now());
      const std::uint64_t next_end = std::min(target, ts.now() + step + chunk);
      enqueue(queue);
      std::uint64_t ahead_flits = 0;
      const std::size_t first_ahead = sb.created();
      queue_ahead.clear();
      if (next_end > ts.now() + step) {
        ts.run(step, [&] { create_until(next_end, queue_ahead, ahead_flits); });
      } else {
        ts.run(step);
      }
      sb.take_from(first_ahead, records_ahead);
      if (progress) progress->cycles(ts.now());
      if (dog.check(sys, sb)) {
        deadlocked = true;   // the run ends here: nothing reads the ahead packets or fault_planted again
        return;
      }
      sb.put_back(records_ahead);
      generated_in_window += ahead_flits;
      std::swap(queue, queue_ahead);
    }
  };

  auto phase = [&](const std::string& what) {
    if (progress) progress->phase(what);
  };
  // Warm-up, then the measurement window.
  phase("warm-up");
  advance_to(w0);
  if (!deadlocked) {
    rx_at_w0 = ts.flits_received();
    if (windows) windows->before_counter_reset();
    net.reset_link_counters();
    net.reset_stall_counters();
    plant_link_fault();
    phase("measure");
    advance_to(w1);
  }
  // If the window was cut short by a deadlock, accepted throughput is over the part that ran.
  rx_at_w1 = ts.flits_received();
  for (int i = 0; i < n; ++i) {
    if (ts.now() < w0) rx_at_w0[i] = rx_at_w1[i];   // stopped in the warm-up: nothing measured
  }
  const std::uint64_t window_end = std::max<std::uint64_t>(w0 + 1, std::min(ts.now(), w1));
  std::vector<std::uint64_t> window_link_flits(net.links());
  for (int l = 0; l < net.links(); ++l) window_link_flits[l] = net.link_flits(l);
  if (sys.ranks() > 1) sysc::Ranks::sum(window_link_flits);   // each rank counts its senders
  std::vector<std::pair<std::uint64_t, std::uint64_t>> window_stalls;

  // Drain phase: traffic goes on until every measured packet has arrived.
  auto measured_outstanding = [&] {
    std::uint64_t out = 0;
    for (const auto& r : sb.records()) {
      if (r.spec.created >= w0 && r.spec.created < w1 && r.deliveries == 0 && !r.withdrawn) ++out;
    }
    return out;
  };
  const std::uint64_t drain_end = w1 + cfg.drain_limit;
  phase("drain (limit " + std::to_string(drain_end) + ")");
  std::size_t scan_from = 0;   // records before this one are all resolved
  while (!deadlocked && ts.now() < drain_end) {
    const auto& recs = sb.records();
    while (scan_from < recs.size() &&
           (recs[scan_from].deliveries > 0 || recs[scan_from].spec.created < w0)) {
      ++scan_from;
    }
    bool done = true;
    for (std::size_t i = scan_from; i < recs.size(); ++i) {
      const auto& r = recs[i];
      if (r.spec.created >= w0 && r.spec.created < w1 && r.deliveries == 0) {
        done = false;
        break;
      }
    }
    if (done) break;
    advance_to(std::min(drain_end, ts.now() + 256));
  }
  if (!deadlocked) res.outstanding_at_drain_limit = measured_outstanding();

  // Stop injecting: take back what never left the sources, and let the network empty.
  ts.withdraw_pending();
  if (!deadlocked) {
    phase("emptying the network");
    res.drained = ts.drain(20 * (cfg.warmup + cfg.measure + cfg.drain_limit) + 100000, cfg.watchdog);
    if (!res.drained && ts.watchdog() && ts.watchdog()->fired()) {
      res.errors.push_back(ts.watchdog()->reason());
      res.stuck_report = ts.watchdog()->report();
    } else if (!res.drained) {
      res.errors.push_back("the network did not drain");
      res.stuck_report = ts.stuck_report();
    }
  } else {
    res.errors.push_back(dog.reason());
    res.stuck_report = dog.report();
  }
  const auto t_end = std::chrono::steady_clock::now();
  res.wall_seconds = std::chrono::duration<double>(t_end - t_start).count();
  res.cycles = ts.now();
  if (windows) windows->finish(ts.now());
  res.block_ticks = sysc::Ranks::sum(net.ticks_done());
  res.block_ticks_skipped = sysc::Ranks::sum(net.ticks_skipped());

  // ---- statistics -----------------------------------------------------------------------------
  const double window = static_cast<double>(window_end - w0);
  res.offered = static_cast<double>(generated_in_window) / n / static_cast<double>(cfg.measure);
  double acc_sum = 0;
  res.accepted_min = 1e30;
  for (int i = 0; i < n; ++i) {
    const double a = static_cast<double>(rx_at_w1[i] >= rx_at_w0[i] ? rx_at_w1[i] - rx_at_w0[i] : 0) / window;
    acc_sum += a;
    res.accepted_min = std::min(res.accepted_min, a);
    res.accepted_max = std::max(res.accepted_max, a);
  }
  res.accepted = acc_sum / n;

  // Per (source, destination) pair: links crossed and zero-load latency of its path, traced once
  // (a small record, not the whole path: a large system has 100,000s of pairs).
  struct PairPath {
    int links;
    int latency;
  };
  // The pairs are listed first and traced on the run's threads (each pair's own slot), then
  // summed in record order as before.
  auto pair_key = [](const PacketRecord& r) {
    return static_cast<std::uint64_t>(r.spec.src) * 65536u + static_cast<std::uint64_t>(r.spec.dst);
  };
  auto measured_delivered = [&](const PacketRecord& r) {
    return r.spec.created >= w0 && r.spec.created < w1 && r.deliveries > 0;
  };
  std::unordered_map<std::uint64_t, std::uint32_t> pair_slot;
  std::vector<std::uint64_t> pair_keys;
  std::vector<std::uint32_t> slot_of(sb.records().size(), 0);   // by packet id
  pair_slot.reserve(sb.records().size());
  for (std::size_t id = 0; id < sb.records().size(); ++id) {
    const auto& r = sb.records()[id];
    if (!measured_delivered(r)) continue;
    const auto [it, added] = pair_slot.try_emplace(pair_key(r), static_cast<std::uint32_t>(pair_keys.size()));
    if (added) pair_keys.push_back(pair_key(r));
    slot_of[id] = it->second;
  }
  std::vector<PairPath> paths(pair_keys.size());
  auto trace_pairs = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      const sysc::Path p = sysc::trace_path(sys, static_cast<int>(pair_keys[i] / 65536u),
                                            static_cast<int>(pair_keys[i] % 65536u));
      paths[i] = PairPath{p.links, p.latency};
    }
  };
  {
    // Under mpirun each rank traces its share of the pairs (every rank lists the same pairs in the
    // same order: its scoreboard is whole) and the shares are gathered; each rank's threads split
    // its share.
    const std::size_t ranks = static_cast<std::size_t>(sysc::Ranks::size());
    const std::size_t me = static_cast<std::size_t>(sysc::Ranks::rank());
    auto share_begin = [&](std::size_t r) { return r * paths.size() / ranks; };
    const std::size_t lo = share_begin(me), hi = share_begin(me + 1);
    const std::size_t t = static_cast<std::size_t>(std::max(1, ts.harness().threads()));
    std::vector<std::thread> helpers;
    for (std::size_t k = 1; k < t; ++k) {
      helpers.emplace_back(trace_pairs, lo + k * (hi - lo) / t, lo + (k + 1) * (hi - lo) / t);
    }
    trace_pairs(lo, lo + (hi - lo) / t);
    for (auto& h : helpers) h.join();
    if (ranks > 1) {
      // The shares gathered in rank order are the whole table, in order.
      const std::string mine(reinterpret_cast<const char*>(paths.data() + lo), (hi - lo) * sizeof(PairPath));
      std::string all;
      std::vector<std::size_t> at;
      sysc::Ranks::all_gather(mine, all, at);
      if (all.size() != paths.size() * sizeof(PairPath)) {
        throw std::logic_error("traffic: the ranks traced different sets of pairs");
      }
      std::memcpy(paths.data(), all.data(), all.size());
    }
  }
  double hops = 0, model = 0, board_part = 0, tree_part = 0;
  std::uint64_t with_tree = 0;
  for (const auto& r : sb.records()) {
    if (r.spec.created < w0 || r.spec.created >= w1) continue;
    ++res.measured_packets;
    if (r.withdrawn) ++res.withdrawn_packets;
    if (r.deliveries == 0) continue;
    ++res.delivered_packets;
    res.packet_latency.add(r.delivery.tail_arrival - r.spec.created);
    res.network_latency.add(r.delivery.tail_arrival - r.injected);
    const PairPath& path = paths[slot_of[r.spec.id]];
    hops += path.links;
    // Zero load: created in t, head on the source's output in t + 1, path latency, then the tail.
    model += 1 + path.latency + r.spec.flits - 1;
    if (r.tree_enter > 0) {
      const double total = static_cast<double>(r.delivery.tail_arrival - r.injected);
      const double tree = static_cast<double>(r.tree_exit - r.tree_enter);
      tree_part += tree;
      board_part += total - tree;
      ++with_tree;
    }
  }
  const double delivered = static_cast<double>(res.packet_latency.count());
  if (delivered > 0) {
    res.hops_mean = hops / delivered;
    res.zero_load_packet_latency = model / delivered;
  }
  res.has_trees = !sys.trees().empty() && sys_cfg.topology == sysc::Topology::kHammingMesh;
  if (with_tree > 0) {
    res.tree_latency_mean = tree_part / static_cast<double>(with_tree);
    res.board_latency_mean = board_part / static_cast<double>(with_tree);
  }

  fill_network_figures(sys, window_link_flits, window, res);

  sysc::Fnv64 digest;
  for (const auto& r : sb.records()) {
    digest.add(r.spec.id);
    digest.add(static_cast<std::uint64_t>(r.spec.src));
    digest.add(static_cast<std::uint64_t>(r.spec.dst));
    digest.add(r.injected);
    digest.add(r.delivery.head_arrival);
    digest.add(r.delivery.tail_arrival);
    digest.add(static_cast<std::uint64_t>(r.delivery.vc));
  }
  res.arrival_digest = digest.hex();

  for (const auto& e : sb.errors()) res.errors.push_back(e);
  if (sys.any_error()) res.errors.push_back("a block flagged a credit-protocol error");
  res.checks_passed = res.errors.empty() && res.drained;
  judge_saturation(res, cfg.saturation);
  if (!cfg.faults.empty()) {
    res.faults = collect_fault_report(sys, applied, run_fault_plan(cfg));
    add_scoreboard(res.faults, sb);
  }
  return res;
}

sysc::FaultPlan run_fault_plan(const TrafficRunConfig& cfg) {
  sysc::FaultPlan plan = cfg.faults;
  plan.seed = cfg.seed;
  return plan;
}

sysc::SystemConfig system_for_run(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg) {
  sysc::SystemConfig built = sys_cfg;
  built.link_failures = built.link_failures || !cfg.faults.failures.empty();
  return built;
}

std::vector<sysc::AppliedFailure> apply_run_faults(sysc::System& sys, const TrafficRunConfig& cfg) {
  if (cfg.faults.empty()) return {};
  if (sys.ranks() > 1) {
    throw std::invalid_argument("--fail-link / --flip-bits: a run with faults runs in one process (the fault "
                                "log is per process); run it without mpirun");
  }
  return sysc::apply_fault_plan(sys, run_fault_plan(cfg));
}

void fill_network_figures(const sysc::System& sys, const std::vector<std::uint64_t>& window_link_flits,
                          double window, TrafficRunResult& res) {
  const sysc::Network& net = sys.net();
  for (int l = 0; l < net.links(); ++l) {
    const auto& info = net.link_info(l);
    res.links.push_back({l, sysc::port_label(sys, info.from), sysc::port_label(sys, info.to),
                         sysc::link_class_name(info.cls),
                         static_cast<double>(window_link_flits[l]) / window});
  }
  std::vector<std::uint64_t> stall_counts;   // (no credit, lost allocation) per port, block order
  for (int b = 0; b < net.blocks(); ++b) {
    if (sys.block_kind(b) == sysc::System::BlockKind::kTerminal) continue;
    for (int p = 0; p < net.block(b).ports(); ++p) {
      stall_counts.push_back(net.stalls_credit({b, p}));
      stall_counts.push_back(net.stalls_sa({b, p}));
    }
  }
  if (sys.ranks() > 1) sysc::Ranks::sum(stall_counts);
  std::size_t sc = 0;
  for (int b = 0; b < net.blocks(); ++b) {
    if (sys.block_kind(b) == sysc::System::BlockKind::kTerminal) continue;
    for (int p = 0; p < net.block(b).ports(); ++p, sc += 2) {
      const auto nc = stall_counts[sc], sa = stall_counts[sc + 1];
      if (nc || sa) res.stalls.push_back({net.block_name(b), p, nc, sa});
    }
  }
  // Heat map: per node (logical grid order) the busiest output link of its router (or its leaf
  // port for the fat tree).
  const LogicalGrid grid(sys);
  res.grid_rows = grid.rows();
  res.grid_cols = grid.cols();
  const int n = sys.nodes();
  res.node_link_utilization.assign(n, 0.0);
  for (int idx = 0; idx < n; ++idx) {
    const int node = grid.node_at(idx);
    const int rb = sys.router_block(node);
    double best = 0;
    if (rb >= 0) {
      for (int p = 0; p < sysc::kMeshPorts; ++p) {
        const int l = net.link_out({rb, p});
        if (l >= 0) best = std::max(best, res.links[l].utilization);
      }
    } else {
      const int l = net.link_in(sys.attach_point(node));
      if (l >= 0) best = res.links[l].utilization;
    }
    res.node_link_utilization[idx] = best;
  }
}

namespace {

// The latency a warm-up must cover before the accepted rate is judged (judge_saturation), and what
// it is: the zero-load model where the run has one (testbench endpoints), else the shortest packet
// latency measured (NIC endpoints: no latency can be shorter, at any load). 0: none known.
std::pair<double, const char*> warmup_reference(const TrafficRunResult& r) {
  if (r.zero_load_packet_latency > 0) return {r.zero_load_packet_latency, "zero-load packet latency"};
  if (r.packet_latency.count() > 0) {
    return {static_cast<double>(r.packet_latency.min()), "shortest measured packet latency"};
  }
  return {0.0, ""};
}

}  // namespace

void judge_saturation(TrafficRunResult& r, const SaturationRule& rule) {
  // The accepted rate (flits arriving in the window) stands for the offered rate (flits created in
  // it) only when the window opens in steady state. After a warm-up shorter than a packet's latency
  // (warmup_reference) the warm-up's packets are still on their way when the window opens, and its
  // first cycles count fewer arrivals than creations at any load: a 10-cycle warm-up on a network
  // with 21-cycle packets reads as 100% short at load 0.1. No verdict on the rate then.
  const double reference = warmup_reference(r).first;
  r.saturation.accepted_not_judged = reference > 0 && static_cast<double>(r.cfg.warmup) < reference;
  r.saturation.accepted_below_offered =
      !r.saturation.accepted_not_judged && r.accepted < (1.0 - rule.tolerance) * r.offered;
  r.saturation.drain_limit_hit = r.outstanding_at_drain_limit > 0;
  r.saturation.latency_above_limit =
      r.zero_load_packet_latency > 0 && r.packet_latency.mean() > rule.latency_limit * r.zero_load_packet_latency;
  r.saturated = r.saturation.any();
}

std::string TrafficRunResult::verdict() const {
  if (!checks_passed) {
    return fmt::format("FAILED: {} error{} (below)", errors.size(), errors.size() == 1 ? "" : "s");
  }
  std::string not_judged;
  if (saturation.accepted_not_judged) {
    const auto [latency, what] = warmup_reference(*this);
    not_judged = fmt::format("; accepted rate not judged: the {}-cycle warm-up is shorter than the {:.1f}-cycle "
                             "{}, so the window does not open in steady state",
                             cfg.warmup, latency, what);
  }
  if (!saturated) {
    return fmt::format("every measured packet delivered once, intact ({}){}", measured_packets, not_judged);
  }
  std::vector<std::string> why;
  if (saturation.accepted_below_offered) {
    why.push_back(fmt::format("accepted {:.4f} of {:.4f} flits/{}/cycle offered ({:.1f}% short, "
                              "tolerance {:g}%)",
                              accepted, offered, endpoints == "nic" ? "NIC" : "node", offered > 0 ? 100 * (1 - accepted / offered) : 0,
                              100 * cfg.saturation.tolerance));
  }
  if (saturation.drain_limit_hit) {
    why.push_back(fmt::format("{} of {} measured packets undelivered after the {}-cycle drain limit",
                              outstanding_at_drain_limit, measured_packets, cfg.drain_limit));
  }
  if (saturation.latency_above_limit) {
    why.push_back(fmt::format("mean packet latency {:.1f} cycles above {:g} x the zero-load model {:.2f}",
                              packet_latency.mean(), cfg.saturation.latency_limit,
                              zero_load_packet_latency));
  }
  std::string s = "saturated: ";
  for (std::size_t i = 0; i < why.size(); ++i) s += (i ? "; " : "") + why[i];
  if (withdrawn_packets > 0) {
    s += fmt::format("; {} measured packets ({:.1f}%) withdrawn unsent, so latency figures cover the "
                     "{} delivered only",
                     withdrawn_packets, 100.0 * static_cast<double>(withdrawn_packets) /
                                            static_cast<double>(measured_packets),
                     delivered_packets);
  }
  s += delivered_packets == measured_packets ? "; every measured packet delivered once, intact"
                                             : "; each delivered packet arrived once, intact";
  return s + not_judged;
}

nlohmann::json TrafficRunResult::json(bool with_links) const {
  nlohmann::json j;
  j["endpoints"] = endpoints;
  j["rails"] = rails;
  if (endpoints == "nic") j["messages"] = {{"posted", posted}, {"landed", landed}, {"completed", released}};
  if (faults.any()) j["faults"] = faults.json();
  j["pattern"] = cfg.pattern;
  j["pattern_description"] = pattern_description;
  j["packet_flits"] = cfg.packet_flits;
  j["mean_packet_flits"] = mean_packet_flits;
  j["phases"] = {{"warmup", cfg.warmup}, {"measure", cfg.measure}, {"drain_limit", cfg.drain_limit}};
  j["nodes"] = nodes;
  j["offered_load"] = cfg.load;
  j["offered"] = {{"flits_per_node_cycle", offered}, {"gbps_per_node", offered * link_gbps}};
  j["accepted"] = {{"flits_per_node_cycle", accepted},
                   {"min", accepted_min},
                   {"max", accepted_max},
                   {"gbps_per_node", accepted * link_gbps}};
  j["packet_latency"] = packet_latency.json();
  j["network_latency"] = network_latency.json();
  j["zero_load_packet_latency_model"] = zero_load_packet_latency;
  j["hops_mean"] = hops_mean;
  if (has_trees) {
    j["network_latency_split"] = {{"on_board_mean", board_latency_mean},
                                  {"tree_mean", tree_latency_mean}};
  }
  j["measured_packets"] = measured_packets;
  j["arrival_digest"] = arrival_digest;
  j["delivered_packets"] = delivered_packets;
  j["withdrawn_packets"] = withdrawn_packets;
  j["outstanding_at_drain_limit"] = outstanding_at_drain_limit;
  j["saturated"] = saturated;
  j["saturation"] = {{"accepted_below_offered", saturation.accepted_below_offered},
                     {"drain_limit_hit", saturation.drain_limit_hit},
                     {"latency_above_limit", saturation.latency_above_limit},
                     {"accepted_not_judged", saturation.accepted_not_judged},
                     {"tolerance", cfg.saturation.tolerance},
                     {"latency_limit", cfg.saturation.latency_limit}};
  j["drained"] = drained;
  j["checks_passed"] = checks_passed;
  j["clean"] = clean();
  j["verdict"] = verdict();
  j["errors"] = errors;
  if (!stuck_report.empty()) j["stuck"] = stuck_report;
  nlohmann::json st = nlohmann::json::array();
  for (const auto& s : stalls) {
    st.push_back({{"block", s.block}, {"port", s.port}, {"no_credit", s.no_credit}, {"lost_switch_allocation", s.lost_sa}});
  }
  j["port_stalls"] = st;
  if (with_links) {
    nlohmann::json ls = nlohmann::json::array();
    for (const auto& l : links) {
      ls.push_back({{"from", l.from}, {"to", l.to}, {"class", l.cls}, {"utilization", l.utilization}});
    }
    j["links"] = ls;
  }
  double max_util = 0, sum = 0;
  for (const auto& l : links) {
    max_util = std::max(max_util, l.utilization);
    sum += l.utilization;
  }
  j["link_utilization"] = {{"max", max_util}, {"mean", links.empty() ? 0 : sum / static_cast<double>(links.size())}};
  j["emulation"] = {{"harness", harness}, {"cycles", cycles}, {"wall_seconds", wall_seconds},
                    {"block_ticks", block_ticks}, {"block_ticks_skipped", block_ticks_skipped}};
  return j;
}

}  // namespace hxemu::tb
