// One measured point of synthetic traffic on a system (docs/metrics-and-bounds.md), BookSim style:
//   warm-up   traffic runs, nothing is measured;
//   measure   packets created in this window are tracked; flits arriving in it count as accepted;
//   drain     traffic keeps running until every measured packet has arrived (or drain_limit
//             cycles pass, which marks the point saturated); then injection stops, packets still
//             queued at their sources are withdrawn unsent, and the network empties, so the
//             scoreboard can check that every packet sent arrived exactly once, intact.
// Injection is Bernoulli per node and cycle at the offered load (flits/node/cycle over the mean
// packet length); sources have unlimited queues, so packet latency includes source queueing.
//
// Saturation (one rule, SaturationRule, for a single point and for every point of a sweep): the
// network accepts less than it is offered (accepted below (1 - tolerance) x the offered load
// generated in the window), or measured packets are still undelivered at the drain limit, or the
// mean packet latency exceeds latency_limit x the pipeline model of the same packets.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/link_faults.h"
#include "tb/fault_report.h"

#include "sysc/system/system.h"
#include "sysc/system/system_config.h"
#include "sysc/harness/harness.h"
#include "tb/progress.h"
#include "tb/stats/latency_stats.h"
#include "tb/watchdog.h"

namespace hxemu::tb {

struct SaturationRule {
  // Accepted may trail offered by this fraction: the flits in flight at the window's two edges
  // differ by a few packets, nothing more, below saturation.
  double tolerance = 0.02;
  double latency_limit = 5.0;        // x the zero-load (pipeline model) packet latency
};

// Which parts of the rule a point met (any one: saturated).
struct SaturationCheck {
  bool accepted_below_offered = false;
  bool drain_limit_hit = false;      // measured packets undelivered after drain_limit cycles
  bool latency_above_limit = false;
  // Not a sign of saturation: the accepted rate was not compared with the offered rate, because
  // the warm-up is shorter than the zero-load packet latency, or for NIC endpoints (no zero-load
  // model) the shortest measured one (judge_saturation says why).
  bool accepted_not_judged = false;
  bool any() const { return accepted_below_offered || drain_limit_hit || latency_above_limit; }
};

struct TrafficRunConfig {
  std::string pattern = "uniform";
  double load = 0.1;                 // offered flits per node per cycle
  std::string packet_flits = "4";    // PacketSize spec
  std::uint64_t warmup = 2000;
  std::uint64_t measure = 10000;
  std::uint64_t drain_limit = 40000;
  std::uint64_t seed = 1;
  WatchdogConfig watchdog{};
  SaturationRule saturation{};
  // Planted faults for tests of the checkers (never set in real runs): drop / duplicate / corrupt
  // one flit of the network's traffic, at the first head crossing a link after warm-up.
  enum class Fault { kNone, kDropFlit, kDuplicatePacket, kCorruptFlit } fault = Fault::kNone;
  // Failed links and bit errors of a real run (--fail-link, --flip-bits; docs/faults.md). The
  // bit-flip generators are seeded with `seed`.
  sysc::FaultPlan faults;
};

struct LinkUse {
  int link;
  std::string from, to, cls;
  double utilization;                // flits per cycle in the window
};

struct PortStall {
  std::string block;
  int port;
  std::uint64_t no_credit, lost_sa;
};

struct TrafficRunResult {
  TrafficRunConfig cfg;
  // "synthetic" (testbench packet endpoints, one per node) or "nic" (the real NICs, one per rail,
  // driven by host traffic generators: tb/traffic/nic_traffic_run.h). Load, throughput and packet
  // counts are per injection port: per node for synthetic endpoints, per NIC for NICs.
  std::string endpoints = "synthetic";
  int rails = 1;
  // NIC endpoints: puts posted, packets landed (and checked) and messages completed to the host.
  std::uint64_t posted = 0, landed = 0, released = 0;
  std::string pattern_description;
  double mean_packet_flits = 0;
  int nodes = 0;
  double offered = 0;                // generated in the window, flits/node/cycle
  double accepted = 0;               // arrived in the window, flits/node/cycle (mean over nodes)
  double accepted_min = 0, accepted_max = 0;
  double link_gbps = 0;              // to convert flits/cycle to Gb/s
  LatencyStats packet_latency;       // created -> tail arrived
  LatencyStats network_latency;      // head left the source -> tail arrived
  double zero_load_packet_latency = 0;  // pipeline model, mean over the measured packets
  double hops_mean = 0;              // network links per measured packet (routing model)
  double board_latency_mean = 0, tree_latency_mean = 0;  // network latency split (hxmesh)
  bool has_trees = false;
  // Packets created in the measurement window: delivered (within the drain limit or while the
  // network emptied) or withdrawn (still queued at their source after the drain limit, never
  // sent). With the checks passed, delivered + withdrawn = measured.
  std::uint64_t measured_packets = 0;
  std::uint64_t delivered_packets = 0;
  // FNV-1a over every packet's (id, source, destination, injection cycle, head and tail arrival
  // cycles, arrival VC): equal digests mean every packet arrived in the same cycles.
  std::string arrival_digest;
  std::uint64_t withdrawn_packets = 0;
  std::uint64_t outstanding_at_drain_limit = 0;  // measured, not yet delivered when the drain ended
  SaturationCheck saturation;
  bool saturated = false;            // saturation.any()
  bool drained = false;              // everything sent was delivered at the end
  bool checks_passed = false;        // scoreboard and blocks found no error; the network drained
  // Every measured packet delivered once, intact: the checks passed and nothing was withdrawn.
  bool clean() const { return checks_passed && delivered_packets == measured_packets; }
  // One line: what the run showed ("every measured packet delivered once, intact", "saturated:
  // ...; 7,210 of 12,003 measured packets withdrawn unsent", "FAILED: ...").
  std::string verdict() const;
  std::vector<std::string> errors;
  std::string stuck_report;          // watchdog's wait-for list if it fired
  FaultReport faults;                // what cfg.faults did (faults.any() false without a plan)
  std::vector<LinkUse> links;        // every directed link
  std::vector<PortStall> stalls;     // router and switch input ports with any stall
  std::vector<double> node_link_utilization;  // per node: its router's busiest output (grid order)
  int grid_rows = 0, grid_cols = 0;
  std::uint64_t cycles = 0;
  double wall_seconds = 0;
  std::uint64_t block_ticks = 0, block_ticks_skipped = 0;
  std::string harness;

  nlohmann::json json(bool with_links) const;
};

// The saturation rule applied to a finished point (sets saturation and saturated).
void judge_saturation(TrafficRunResult& r, const SaturationRule& rule);

// Per-link utilisation (flits each directed link carried in the window / window cycles), port
// stalls, and the per-node heat map of the busiest router output, from a finished run's network.
void fill_network_figures(const sysc::System& sys, const std::vector<std::uint64_t>& window_link_flits,
                          double window, TrafficRunResult& res);

class LinkWindows;   // tb/stats/link_windows.h

// The system configuration a run builds: `sys_cfg`, with link failures enabled when `cfg` fails a
// link (its board routers then have link-failure inputs: SystemConfig::link_failures).
sysc::SystemConfig system_for_run(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg);
// The run's fault plan with the run's seed, and its application to a built system (nothing
// without a plan; std::invalid_argument for a bad port or a multi-process run).
sysc::FaultPlan run_fault_plan(const TrafficRunConfig& cfg);
std::vector<sysc::AppliedFailure> apply_run_faults(sysc::System& sys, const TrafficRunConfig& cfg);

// progress (optional): phases and cycles of the run are reported to it. windows (optional): per
// link counters over time windows of the whole run (warm-up to drained), finished at its end.
// ready (optional): called once the run has built its system and checked the pattern, packet
// sizes and faults against it (std::invalid_argument before, for a bad one), before the first
// cycle: a command prints its header there, so a bad option prints nothing and the system is
// built once.
TrafficRunResult run_traffic(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg,
                             sysc::HarnessFactory harness = sysc::make_plain_harness,
                             Progress* progress = nullptr, LinkWindows* windows = nullptr,
                             const std::function<void()>& ready = {});

}  // namespace hxemu::tb
