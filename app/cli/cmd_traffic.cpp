// hxemu traffic (one load point) and hxemu sweep (a latency-throughput curve).
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "sysc/system/link_faults.h"
#include "sysc/system/system_config.h"
#include "app/cli/commands.h"
#include "app/cli/network_picture.h"
#include "app/cli/waveform_options.h"
#include "tb/progress.h"
#include "tb/report/svg_chart.h"
#include "tb/report_io.h"
#include "sysc/harness/sc_harness.h"
#include "tb/traffic/logical_grid.h"
#include "tb/traffic/nic_traffic_run.h"
#include "tb/traffic/packet_size.h"
#include "tb/traffic/pattern.h"
#include "tb/traffic/sweep.h"
#include "tb/traffic_system.h"
#include "app/commands/describe.h"
#include "sysc/dist/ranks.h"

namespace hxemu::cli {

namespace {

struct TrafficOpts {
  std::vector<std::string> sets;
  std::string config, pattern = "uniform", packet_flits = "4", json, csv, plot;
  HarnessOpts harness;
  std::string loads = "0.05:0.8:0.05";
  double load = 0.1;
  std::uint64_t seed = 1, warmup = 2000, measure = 10000, drain = 40000;
  std::uint64_t stall_cycles = 20000, max_age = 0;
  bool links = false;
  bool quiet = false;
  std::string endpoints = "synthetic";   // traffic only: "nic" drives the real NICs
  int rails = 4;
  NetworkPictureOpts picture;            // traffic only: --topology-svg, --link-json
  WaveformOpts waveform;                 // traffic only: --trace (sweep builds a system per point)
  std::vector<std::string> fail_links;   // traffic only: --fail-link PORT@CYCLE (docs/faults.md)
  std::string flip_bits;                 // traffic only: --flip-bits RATE[:CLASSES]
};

void add_common(CLI::App* sub, TrafficOpts& o) {
  add_config_options(sub, o.config, o.sets);
  sub->add_option("--pattern", o.pattern,
                  "uniform, uniform-noself, transpose, bitcomp, bitrev, shuffle, tornado, "
                  "neighbor, shift:K, hotspot:F:N[,N..], randperm");
  sub->add_option("--packet-flits", o.packet_flits, "N, uniform:MIN:MAX or bimodal:A:B:P");
  add_seed_option(sub, o.seed, "random seed");
  sub->add_option("--warmup", o.warmup, "warm-up cycles")->check(CLI::Range(0, 100000000));
  sub->add_option("--measure", o.measure, "measured cycles")->check(CLI::Range(1, 100000000));
  sub->add_option("--drain", o.drain, "cycles allowed for measured packets to arrive")
      ->check(CLI::Range(0, 100000000));
  sub->add_option("--stall-cycles", o.stall_cycles,
                  "watchdog: no flit moved this long with packets outstanding = deadlock")
      ->check(CLI::Range(100, 100000000));
  sub->add_option("--max-age", o.max_age, "watchdog: a packet older than this = livelock (0: off)")
      ->check(unsigned_integer());
  add_harness_options(sub, o.harness);
  sub->add_option("--json", o.json, "write every figure and the reproducibility stamp to FILE");
  sub->add_option("--csv", o.csv, "write the curve as CSV to FILE");
  sub->add_option("--plot", o.plot, "write an SVG plot to FILE");
  add_quiet_option(sub, o.quiet);
}

tb::TrafficRunConfig run_config(const TrafficOpts& o) {
  tb::TrafficRunConfig rc;
  rc.pattern = o.pattern;
  rc.packet_flits = o.packet_flits;
  rc.load = o.load;
  rc.seed = o.seed;
  rc.warmup = o.warmup;
  rc.measure = o.measure;
  rc.drain_limit = o.drain;
  rc.watchdog.stall_cycles = o.stall_cycles;
  rc.watchdog.max_age = o.max_age;
  for (const auto& f : o.fail_links) rc.faults.failures.push_back(sysc::parse_link_failure(f));
  if (!o.flip_bits.empty()) rc.faults.flips = sysc::parse_bit_flips(o.flip_bits);
  return rc;
}

// With bit flips through the NICs, the NICs check an end-to-end CRC (the config's nic_crc, turned
// on here when the config leaves it off, and said so).
sysc::SystemConfig with_fault_checks(sysc::SystemConfig cfg, const TrafficOpts& o) {
  if (o.endpoints == "nic" && !o.flip_bits.empty()) cfg.nic_crc = true;
  return cfg;
}

sysc::HarnessFactory harness_of(const TrafficOpts& o, const sysc::TraceRequest& trace = {}) {
  return sysc::with_waveform(harness_named(o.harness), trace);
}

// Every output path is checked before the run, and the files are written together at its end.
tb::OutputFiles check_outputs(const TrafficOpts& o) {
  tb::OutputFiles files;
  files.add("--json", o.json);
  files.add("--csv", o.csv);
  files.add("--plot", o.plot);
  return files;
}

// --pattern and --packet-flits against the system, before anything is printed (the run itself
// parses them again on its own system).
void check_traffic_options(const sysc::SystemConfig& cfg, const TrafficOpts& o) {
  const tb::TrafficSystem ts(cfg);
  (void)tb::TrafficPattern(o.pattern, tb::LogicalGrid(ts.sys()), o.seed);
  const tb::PacketSize sizes(o.packet_flits, cfg.max_packet_flits);
  for (const auto& f : o.fail_links) (void)sysc::find_port(ts.sys(), sysc::parse_link_failure(f).port);
  if (!o.flip_bits.empty()) (void)sysc::parse_bit_flips(o.flip_bits);
  if (o.endpoints == "nic" && cfg.nic_crc && sizes.max() >= cfg.max_packet_flits) {
    throw std::invalid_argument("--packet-flits '" + o.packet_flits + "': with the NICs' CRC on (nic_crc) a packet's "
                                "trailer flit takes one of max_packet_flits, so packets need 2.." +
                                std::to_string(cfg.max_packet_flits - 1) + " flits here");
  }
  if (o.endpoints == "nic" && sizes.min() < 2) {
    throw std::invalid_argument("--packet-flits '" + o.packet_flits + "': with --endpoints nic every "
                                "packet is a message with a payload, so packets need 2.." +
                                std::to_string(cfg.max_packet_flits) + " flits");
  }
}

void print_point_header() {
  fmt::print("{:>7} {:>9} {:>9} {:>9} {:>9} {:>8} {:>6} {:>6} {:>7} {:>6} {}\n", "offered",
             "offered", "accepted", "acc.min", "acc.max", "lat.mean", "p50", "p99", "p99.9", "hops",
             "");
  fmt::print("{:>7} {:>9} {:>9} {:>9} {:>9} {:>8} {:>6} {:>6} {:>7} {:>6}\n", "load", "flit/n/c",
             "flit/n/c", "", "", "cycles", "", "", "", "");
}

// The last column: nothing for a clean unsaturated point, else what happened to it (and whether its
// accepted rate could be judged at all: tb::judge_saturation).
std::string point_note(const tb::TrafficRunResult& r) {
  if (!r.checks_passed) return "ERRORS";
  std::string s;
  if (r.saturated) {
    s = r.withdrawn_packets ? fmt::format("saturated, {} of {} measured packets withdrawn",
                                          r.withdrawn_packets, r.measured_packets)
                            : "saturated";
  }
  if (r.saturation.accepted_not_judged) s += s.empty() ? "rate not judged" : ", rate not judged";
  return s;
}

void print_point(const tb::TrafficRunResult& r) {
  fmt::print("{:>7.3f} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.4f} {:>8.1f} {:>6} {:>6} {:>7} {:>6.2f} {}\n",
             r.cfg.load, r.offered, r.accepted, r.accepted_min, r.accepted_max,
             r.packet_latency.mean(), r.packet_latency.percentile(0.5),
             r.packet_latency.percentile(0.99), r.packet_latency.percentile(0.999), r.hops_mean,
             point_note(r));
}

void print_errors(const tb::TrafficRunResult& r) {
  for (const auto& e : r.errors) fmt::print(stderr, "  error: {}\n", e);
  if (!r.stuck_report.empty()) fmt::print(stderr, "{}", r.stuck_report);
}

int run_traffic_cmd(const TrafficOpts& o) {
  const auto cfg = with_fault_checks(sysc::load_system_config(o.config, o.sets), o);
  auto files = check_outputs(o);
  check_network_picture(o.picture, 1, files);
  const bool nic = o.endpoints == "nic";
  // Through the NICs the options are checked on a system of their own first; with the synthetic
  // endpoints the run checks them on the system it builds, before `header` prints anything.
  if (nic) check_traffic_options(cfg, o);
  const auto rc = run_config(o);
  if (nic && !o.flip_bits.empty()) fmt::print("note: --flip-bits through the NICs turns their CRC on (nic_crc)\n");
  const auto trace = check_waveform(o.waveform, cfg, nic ? o.rails : 0, files);
  // --link-json: windows over the whole run (the picture's colours are the measured window's).
  std::unique_ptr<tb::LinkWindows> windows;
  if (!o.picture.json.empty()) windows = std::make_unique<tb::LinkWindows>(o.picture.window);
  // Load and throughput are per injection port: the node's one endpoint, or each of its NICs.
  const char* port = nic ? "NIC" : "node";
  auto header = [&] {
    fmt::print("{}: {} traffic, {}-flit packets, offered {:.3f} flits/{}/cycle, {} warm-up + {} "
               "measured cycles, seed{}\n",
               cfg.name, o.pattern, o.packet_flits, o.load, port, o.warmup, o.measure,
               fmt::format(" {}", o.seed) + (nic ? ", through the NICs" : ""));
    std::fflush(stdout);
  };
  if (nic) header();
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  progress.set_total_cycles(o.warmup + o.measure);   // the drain, usually short, comes on top
  const auto r = nic ? tb::run_nic_traffic(cfg, rc, o.rails, harness_of(o, trace), &progress, windows.get())
                     : tb::run_traffic(cfg, rc, harness_of(o, trace), &progress, windows.get(), header);
  progress.clear();
  fmt::print("  pattern      {}\n", r.pattern_description);
  if (nic) {
    fmt::print("  NICs         {} per accelerator, {} in all; one message per packet, bytes checked "
               "where they land\n",
               r.rails, r.rails * r.nodes);
  }
  fmt::print("  throughput   offered {:.4f}, accepted {:.4f} flits/{}/cycle (min {:.4f}, max "
             "{:.4f} per {}) = {:.1f} Gb/s per {}\n",
             r.offered, r.accepted, port, r.accepted_min, r.accepted_max, port,
             r.accepted * r.link_gbps, port);
  auto lat = [](const tb::LatencyStats& s) {
    return fmt::format("min {} mean {:.2f} p50 {} p99 {} p99.9 {} max {}", s.min(), s.mean(),
                       s.percentile(0.5), s.percentile(0.99), s.percentile(0.999), s.max());
  };
  fmt::print("  packets      {} measured (created in the window): {} delivered, {} withdrawn unsent "
             "after the drain limit\n",
             r.measured_packets, r.delivered_packets, r.withdrawn_packets);
  if (nic) {
    fmt::print("  messages     {} puts posted, {} packets landed intact, {} messages completed to "
               "their hosts (whole run)\n",
               r.posted, r.landed, r.released);
  }
  if (nic) {
    fmt::print("  packet lat.  {} cycles ({} delivered; message created -> last byte in the "
               "destination's memory)\n",
               lat(r.packet_latency), r.packet_latency.count());
  } else {
    fmt::print("  packet lat.  {} cycles ({} delivered packets; zero-load model {:.2f})\n",
               lat(r.packet_latency), r.packet_latency.count(), r.zero_load_packet_latency);
  }
  fmt::print("  network lat. {} cycles{}\n", lat(r.network_latency), nic ? " (put posted -> landed)" : "");
  if (r.has_trees) {
    fmt::print("  split        on-board {:.2f}, trees {:.2f} cycles (mean, packets that cross a tree)\n",
               r.board_latency_mean, r.tree_latency_mean);
  }
  double max_util = 0;
  std::uint64_t nc = 0, sa = 0;
  for (const auto& l : r.links) max_util = std::max(max_util, l.utilization);
  for (const auto& s : r.stalls) {
    nc += s.no_credit;
    sa += s.lost_sa;
  }
  fmt::print("  hops         {:.2f} links per packet; busiest link {:.3f} flits/cycle; input-port "
             "stall cycles: {} no credit, {} lost switch allocation\n",
             r.hops_mean, max_util, nc, sa);
  fmt::print("  emulation    {} cycles in {:.2f} s ({} harness), {:.2f} M router-cycles/s\n",
             r.cycles, r.wall_seconds, r.harness,
             static_cast<double>(r.cycles) * (r.nodes) / r.wall_seconds / 1e6);
  // Peak resident memory of every process (one per MPI rank), in rank order.
  std::vector<std::uint64_t> peaks;
  for (const auto& p : sysc::Ranks::all_gather(std::to_string(tb::process_memory().peak))) {
    peaks.push_back(std::stoull(p));
  }
  std::string per_rank;
  for (std::size_t k = 0; k < peaks.size(); ++k) {
    per_rank += fmt::format("{}{:.0f} MiB", k ? ", " : "", static_cast<double>(peaks[k]) / (1 << 20));
  }
  fmt::print("  process      {:.0f} cycles/s; peak resident {} ({} per accelerator{})\n",
             static_cast<double>(r.cycles) / r.wall_seconds, per_rank,
             fmt::format("{:.0f} KiB", static_cast<double>(std::accumulate(peaks.begin(), peaks.end(),
                                                                           std::uint64_t{0})) /
                                            r.nodes / 1024),
             peaks.size() > 1 ? fmt::format(", {} MPI ranks", peaks.size()) : "");
  fmt::print("  result       {}\n", r.verdict());
  print_errors(r);
  if (r.faults.any()) fmt::print("{}", r.faults.text());

  if (!o.json.empty()) {
    nlohmann::json j = r.json(true);
    j["emulation"]["process"] = {{"cycles_per_second", static_cast<double>(r.cycles) / r.wall_seconds},
                                 {"peak_resident_bytes_per_rank", peaks}};
    j["stamp"] = tb::reproducibility_stamp(cfg, o.seed, g_command_line);
    files.put(o.json, j.dump(1) + "\n");
  }
  if (!o.csv.empty()) {
    files.put(o.csv, tb::points_csv({r}));
  }
  if (!o.plot.empty()) {
    tb::HeatMap h;
    h.title = fmt::format("{}: {} at {:.2f} flits/node/cycle - busiest output link of each node",
                          cfg.name, o.pattern, o.load);
    h.rows = r.grid_rows;
    h.cols = r.grid_cols;
    h.values = r.node_link_utilization;
    h.value_label = "link utilization (flits/cycle)";
    h.v_min = 0;
    h.v_max = 1;
    files.put(o.plot, tb::render_heat_map(h));
  }
  if (windows) files.put(o.picture.json, windows->json().dump(1) + "\n");
  if (!o.picture.svg.empty()) {
    std::vector<double> util;
    for (const auto& l : r.links) util.push_back(l.utilization);
    tb::TopologyPictureOptions po;
    po.value_note = "flits/cycle over the measured window, busier direction";
    // Drawn on a System built like the run's (same rails, so the same link ids).
    files.put(o.picture.svg, tb::render_topology(cfg, nic ? o.rails : 1, util,
                                                 fmt::format("{}: {} traffic at {:.2f} flits/{}/cycle", cfg.name,
                                                             o.pattern, o.load, port),
                                                 po));
  }
  files.commit();
  // With injected faults the report is the product: packets lost or stuck, data the CRC caught
  // and a network that never drains are what was asked for. Only a broken credit protocol fails.
  if (r.faults.any()) return std::any_of(r.errors.begin(), r.errors.end(), [](const std::string& e) {
    return e.find("credit-protocol") != std::string::npos;
  }) ? 1 : 0;
  return r.checks_passed ? 0 : 1;
}

int run_sweep_cmd(const TrafficOpts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  auto files = check_outputs(o);
  check_traffic_options(cfg, o);
  tb::SweepConfig sc;
  sc.base = run_config(o);
  sc.loads = tb::parse_loads(o.loads);
  fmt::print("{}: sweep of {} traffic, {}-flit packets, loads {}, {} warm-up + {} measured "
             "cycles per point, seed {}\n",
             cfg.name, o.pattern, o.packet_flits, o.loads, o.warmup, o.measure, o.seed);
  print_point_header();
  std::fflush(stdout);
  tb::Progress progress(tb::Progress::wanted(o.quiet));
  const auto res = tb::run_sweep(
      cfg, sc, harness_of(o),
      [&](std::size_t, const tb::TrafficRunResult& r) {
        progress.clear();
        print_point(r);
        print_errors(r);
        std::fflush(stdout);
      },
      &progress);
  progress.clear();
  fmt::print("  zero-load packet latency {:.2f} cycles measured at load {:g} ({} packets), pipeline "
             "model {:.2f}; at the lowest swept load {:g}: {:.2f}\n",
             res.zero_load.latency, res.zero_load.load, res.zero_load.packets, res.zero_load.model,
             sc.loads.front(), res.lowest_load_latency);
  fmt::print("  saturation throughput {:.4f} flits/node/cycle = {:.1f} Gb/s per node{}; {:.1f} s\n",
             res.saturation_throughput, res.saturation_throughput * cfg.link_gbps(),
             res.reached_saturation ? "" : " (saturation not reached in the load range)",
             res.wall_seconds);
  const auto not_judged = std::count_if(res.points.begin(), res.points.end(), [](const tb::TrafficRunResult& r) {
    return r.saturation.accepted_not_judged;
  });
  if (not_judged > 0) {
    fmt::print("  accepted rate not judged at {} of {} points: the {}-cycle warm-up is shorter than their "
               "zero-load packet latency, so their windows do not open in steady state (a longer "
               "--warmup judges it)\n",
               not_judged, res.points.size(), o.warmup);
  }
  if (!o.json.empty()) {
    nlohmann::json j = res.json();
    j["stamp"] = tb::reproducibility_stamp(cfg, o.seed, g_command_line);
    j["pattern"] = o.pattern;
    j["packet_flits"] = o.packet_flits;
    files.put(o.json, j.dump(1) + "\n");
  }
  if (!o.csv.empty()) files.put(o.csv, res.csv());
  if (!o.plot.empty()) {
    tb::LineChart c;
    c.title = fmt::format("{}: {} traffic, {}-flit packets", cfg.name, o.pattern, o.packet_flits);
    c.x_label = "offered load (flits/node/cycle)";
    c.y_label = "packet latency (cycles)";
    tb::Series mean{"mean", {}, {}}, p99{"p99", {}, {}};
    for (const auto& r : res.points) {
      mean.x.push_back(r.cfg.load);
      mean.y.push_back(r.packet_latency.mean());
      p99.x.push_back(r.cfg.load);
      p99.y.push_back(static_cast<double>(r.packet_latency.percentile(0.99)));
    }
    c.series = {mean, p99};
    c.y_max = std::max(10.0, 8 * res.zero_load.model);
    c.h_lines.push_back({res.zero_load.model, "zero-load model"});
    files.put(o.plot, tb::render_line_chart(c));
  }
  files.commit();
  return res.checks_passed ? 0 : 1;
}

}  // namespace

void add_traffic(CLI::App& app, Action& action) {
  auto o = std::make_shared<TrafficOpts>();
  auto* sub = app.add_subcommand("traffic", "one point of synthetic traffic: throughput, latency");
  add_common(sub, *o);
  sub->add_option("--load", o->load, "offered flits per node (per NIC with --endpoints nic) per cycle")
      ->check(finite_range(0.0, 1.0));
  sub->add_option("--endpoints", o->endpoints,
                  "synthetic: testbench packet endpoints, one per node; nic: the real NICs (one per "
                  "rail) driven by host traffic generators, every packet's bytes checked")
      ->check(CLI::IsMember({"synthetic", "nic"}));
  sub->add_option("--rails", o->rails, "NICs per accelerator with --endpoints nic (the topology may "
                                       "have fewer)")
      ->check(CLI::Range(1, 4));
  auto* windows = add_network_picture_options(sub, o->picture, "its utilisation over the measured window");
  add_waveform_options(sub, o->waveform);
  sub->add_option("--fail-link", o->fail_links,
                  "PORT@CYCLE: the connection at PORT (e.g. router0.W, rowtree1.p3) goes down at CYCLE, both "
                  "directions; flits on it are lost (repeatable; docs/faults.md)");
  sub->add_option("--flip-bits", o->flip_bits,
                  "RATE[:CLASSES]: each payload bit of body flits flips with probability RATE on links of "
                  "CLASSES (board,cable,terminal; default all); NICs check a CRC");
  sub->callback([o, windows, &action] {
    o->picture.window_given = windows->count() > 0;
    action = [o] { return run_traffic_cmd(*o); };
  });
}

void add_sweep(CLI::App& app, Action& action) {
  auto o = std::make_shared<TrafficOpts>();
  auto* sub = app.add_subcommand("sweep", "latency versus offered load up to saturation");
  add_common(sub, *o);
  sub->add_option("--loads", o->loads, "START:END:STEP or a comma list (flits/node/cycle)");
  sub->callback([o, &action] { action = [o] { return run_sweep_cmd(*o); }; });
}

}  // namespace hxemu::cli
