#include "app/commands/describe.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <sstream>

#include "sysc/system/network_cost.h"
#include "sysc/system/route_model.h"

namespace hxemu::tb {

ProcessMemory process_memory() {
  ProcessMemory m;
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream is(line);
    std::string key;
    std::uint64_t kib = 0;
    is >> key >> kib;   // "VmRSS:   123456 kB"
    if (key == "VmRSS:") m.resident = kib * 1024;
    if (key == "VmHWM:") m.peak = kib * 1024;
  }
  return m;
}

namespace {
std::string mib(std::uint64_t b) { return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20)); }
}  // namespace

SystemDescription describe_system(const sysc::System& sys, const ProcessMemory* memory) {
  const auto& c = sys.config();
  const auto& vc = sys.vc_plan();
  const auto links = sys.connections_per_class();
  SystemDescription d;
  nlohmann::json& j = d.json;
  j["name"] = c.name;
  j["topology"] = sysc::topology_name(c.topology);
  j["nodes"] = sys.nodes();
  j["routers"] = sys.routers();
  j["switches"] = sys.switches();
  j["trees"] = sys.trees().size();
  j["links"] = {{"board", links[0]}, {"cable", links[1]}, {"terminal", links[2]}};
  j["link_latency"] = {{"board", c.board_latency}, {"cable", c.cable_latency},
                       {"terminal", c.terminal_latency}};
  j["vcs"] = {{"per_port", vc.vcs}, {"classes", vc.classes}, {"per_class", vc.per_class},
              {"class_counts", vc.class_counts}, {"policy", sysc::vc_policy_name(vc.policy)}};
  j["buffer_depth"] = {{"board", c.board_depth}, {"cable", c.cable_depth}};
  const bool planes = c.topology == sysc::Topology::kFatTree || c.topology == sysc::Topology::kDragonfly;
  const bool multidim = c.topology == sysc::Topology::kMultidim;
  // Injection ports: a HammingMesh or torus node's four, a plane's NIC each, a multidim NPU's NICs.
  const int ports = planes ? c.planes : multidim ? c.md_nics : 4;
  j["bandwidth"] = {{"flit_bits", c.flit_bits}, {"clock_ghz", c.clock_ghz},
                    {"link_gbps", c.link_gbps()}, {"network_ports_per_node", ports},
                    {"injection_gbps", c.link_gbps() * ports}};
  // The network's cost, from the configuration (docs/cost.md).
  const sysc::NetworkCost cost = sysc::network_cost(c);
  j["cost"] = cost.json();

  // Route lengths over all ordered pairs (a sample on very large systems: 256 sources, and past
  // 4,096 nodes 4,096 destinations each, at most ~1M traced pairs).
  const int n = sys.nodes();
  const int stride = n > 256 ? n / 256 : 1;
  const int dst_stride = n > 4096 ? n / 4096 : 1;
  long long total = 0, pairs = 0;
  int diameter = 0, max_latency = 0;
  long long total_latency = 0;
  for (int s = 0; s < n; s += stride) {
    for (int t = (s / stride) % dst_stride; t < n; t += dst_stride) {
      if (s == t) continue;
      const auto p = sysc::trace_path(sys, s, t);
      if (!p.ok) continue;
      total += p.links;
      total_latency += p.latency;
      ++pairs;
      diameter = std::max(diameter, p.links);
      max_latency = std::max(max_latency, p.latency);
    }
  }
  const double mean_links = pairs ? static_cast<double>(total) / static_cast<double>(pairs) : 0;
  const double mean_latency = pairs ? static_cast<double>(total_latency) / static_cast<double>(pairs) : 0;
  j["routes"] = {{"pairs_traced", pairs}, {"sampled", stride > 1}, {"mean_links", mean_links},
                 {"max_links", diameter}, {"mean_zero_load_head_latency", mean_latency},
                 {"max_zero_load_head_latency", max_latency}};
  const int cable_rtt = 2 * c.cable_latency + 4;
  j["cable_credit_round_trip"] = cable_rtt;
  const std::uint64_t per_node =
      memory && n > 0 ? memory->resident / static_cast<std::uint64_t>(n) : 0;
  if (memory) {
    j["memory"] = {{"resident_bytes", memory->resident},
                   {"peak_resident_bytes", memory->peak},
                   {"bytes_per_accelerator", per_node},
                   {"terminals_per_accelerator", sys.rails()}};
  }

  // A Dragonfly's global bandwidth per accelerator (out of its group, per direction, all planes):
  // the g-1 global links of a group shared by its a*p accelerators.
  const double df_global_gbps =
      c.topology == sysc::Topology::kDragonfly
          ? c.link_gbps() * ports * (c.df_groups - 1) / static_cast<double>(c.df_routers * c.df_terminals)
          : 0.0;
  if (c.topology == sysc::Topology::kDragonfly) {
    // Per plane: routers a*g, local links g*a(a-1)/2, global links g(g-1)/2.
    const int g = c.df_groups, a = c.df_routers;
    j["dragonfly"] = {{"groups", g}, {"routers_per_group", a}, {"terminals_per_router", c.df_terminals},
                      {"global_per_router", c.df_globals}, {"planes", c.planes},
                      {"routers_per_plane", g * a}, {"local_links_per_plane", g * a * (a - 1) / 2},
                      {"global_links_per_plane", g * (g - 1) / 2},
                      {"spare_global_ports_per_group", a * c.df_globals - (g - 1)},
                      {"routing", c.adaptive ? "UGAL-L" : "minimal"},
                      {"ugal_threshold", c.ugal_threshold},
                      {"global_gbps_per_accelerator", df_global_gbps}};
  }

  // A multidim platform's dimensions: links, lanes and bandwidth per NPU (docs/multidim.md).
  std::string md_text;
  if (multidim) {
    nlohmann::json dims = nlohmann::json::array();
    double total_gbps = 0;
    for (std::size_t k = 0; k < c.md_dims.size(); ++k) {
      const auto& m = c.md_dims[k];
      const int links_out = m.ports();   // links leaving one NPU into the dimension
      const double gbps = links_out * c.link_gbps();
      total_gbps += gbps;
      const int groups = n / m.size;
      const int dim_links = m.kind == sysc::DimKind::kRing ? groups * m.size * m.lanes
                            : m.kind == sysc::DimKind::kFullyConnected ? groups * m.size * (m.size - 1) / 2 * m.lanes
                                                                       : groups * m.size * m.lanes;
      int switches = 0;
      for (const auto& tr : sys.trees()) {
        if (tr.kind == sysc::TreeKind::kMultidimSwitch && tr.built.setups.front().md_dim == static_cast<int>(k)) {
          switches += static_cast<int>(tr.built.switches.size());
        }
      }
      dims.push_back({{"name", m.name}, {"kind", sysc::dim_kind_name(m.kind)}, {"size", m.size},
                      {"lanes", m.lanes}, {"latency", m.latency}, {"buffer_depth", m.depth},
                      {"link_class", m.cable ? "cable" : "board"}, {"groups", groups},
                      {"links_per_npu", links_out}, {"links", dim_links}, {"switches", switches},
                      {"gbps_per_npu", gbps}, {"router_ports", sys.md_port_base(static_cast<int>(k))}});
      const std::string what = m.kind == sysc::DimKind::kRing ? fmt::format("ring of {}, {} lane{} each way", m.size, m.lanes, m.lanes > 1 ? "s" : "")
                               : m.kind == sysc::DimKind::kFullyConnected
                                   ? fmt::format("fully connected {}, {} lane{} per peer", m.size, m.lanes, m.lanes > 1 ? "s" : "")
                                   : fmt::format("switch of {}, {} plane{} ({} switches)", m.size, m.lanes, m.lanes > 1 ? "s" : "", switches);
      md_text += fmt::format("  dim {} {:<9} {}: {} link{} out per NPU = {:.0f} Gb/s; {} links; latency {}, "
                             "{} flits/VC\n", k, m.name, what, links_out, links_out == 1 ? "" : "s", gbps, dim_links,
                             m.latency, m.depth);
    }
    j["multidim"] = {{"dimensions", dims}, {"routing_order", c.md_order}, {"nics", c.md_nics},
                     {"router_ports", c.md_router_ports()}, {"network_gbps_per_npu", total_gbps}};
    md_text += fmt::format("  per NPU         {:.0f} Gb/s into the network over all dimensions; {} NICs = "
                           "{:.0f} Gb/s injection; router of {} ports; routing order {}\n",
                           total_gbps, c.md_nics, c.md_nics * c.link_gbps(), c.md_router_ports(),
                           fmt::join(c.md_order, " "));
  }

  std::string& t = d.text;
  t += fmt::format("{} ({})\n", c.name.empty() ? "system" : c.name, c.source);
  if (multidim) {
    std::vector<std::string> parts;
    for (const auto& m : c.md_dims) parts.push_back(fmt::format("{} {}{}", m.name, sysc::dim_kind_name(m.kind), m.size));
    t += fmt::format("  topology        multi-dimensional: {} (innermost first) = {} NPUs\n", fmt::join(parts, ", "), n);
    t += md_text;
  } else if (c.topology == sysc::Topology::kDragonfly) {
    const int g = c.df_groups, a = c.df_routers;
    t += fmt::format("  topology        Dragonfly: {} groups of {} routers (radix {}), {} accelerators and {} "
                     "global port{} per router{}\n",
                     g, a, c.radix, c.df_terminals, c.df_globals, c.df_globals > 1 ? "s" : "",
                     c.planes > 1 ? fmt::format(", {} planes (one per accelerator port)", c.planes) : "");
    t += fmt::format("  dragonfly       per plane {} local links (all-to-all in each group), {} global links "
                     "(one per pair of groups, {} spare global port{} per group); routing {}\n",
                     g * a * (a - 1) / 2, g * (g - 1) / 2, a * c.df_globals - (g - 1),
                     a * c.df_globals - (g - 1) == 1 ? "" : "s",
                     c.adaptive ? fmt::format("UGAL-L at the source router (threshold {})", c.ugal_threshold)
                                : "minimal");
    t += fmt::format("  global bw       {:.0f} Gb/s per accelerator out of its group ({} global links per group "
                     "for {} accelerators, x {} plane{}) = {:.0f}% of its injection\n",
                     df_global_gbps, g - 1, a * c.df_terminals, ports, ports > 1 ? "s" : "",
                     100.0 * df_global_gbps / (c.link_gbps() * ports));
  } else if (c.topology == sysc::Topology::kFatTree) {
    t += fmt::format("  topology        fat tree, {} endpoints, radix-{} switches{}\n", n, c.radix,
                     c.planes > 1 ? fmt::format(", {} planes (one per accelerator port)", c.planes) : "");
  } else {
    t += fmt::format("  topology        {}: boards of {}x{} accelerators in a {}x{} grid\n",
                     c.topology == sysc::Topology::kTorus ? "2D torus" : "HammingMesh",
                     c.board_rows, c.board_cols, c.grid_rows, c.grid_cols);
  }
  t += fmt::format("  nodes           {}\n  routers         {}\n  switches        {}", n,
                   sys.routers(), sys.switches());
  if (multidim) t += " (the NPUs' routers are switches of the multidim route computer; plus the Switch dimensions')";
  if (c.topology == sysc::Topology::kDragonfly) {
    t += fmt::format(" (the Dragonfly's routers{})",
                     sys.rails() < c.planes ? fmt::format(", {} of {} planes built here", sys.rails(), c.planes)
                                            : c.planes > 1 ? fmt::format(", {} planes", c.planes) : "");
  }
  if (!sys.trees().empty()) {
    int rows = 0, cols = 0;
    for (const auto& tr : sys.trees()) {
      if (tr.kind == sysc::TreeKind::kRow) ++rows;
      if (tr.kind == sysc::TreeKind::kColumn) ++cols;
    }
    const auto& first = sys.trees().front().built;
    const std::string shape = first.leaves == 0 ? "one switch each"
                                                : fmt::format("{} leaves + {} spines each",
                                                              first.leaves, first.spines);
    if (multidim) {
      t += fmt::format(" ({} Switch-dimension tree{})", sys.trees().size(), sys.trees().size() > 1 ? "s" : "");
    } else if (c.topology == sysc::Topology::kFatTree) {
      t += fmt::format(" ({}{})", first.leaves == 0 ? "single switch"
                                                   : fmt::format("{} leaves + {} spines", first.leaves, first.spines),
                       c.planes > 1 ? fmt::format(" per plane, {} planes", c.planes) : "");
    } else {
      t += fmt::format(" in {} row trees ({} ports) and {} column trees ({} ports), {}", rows,
                       2 * c.grid_cols, cols, 2 * c.grid_rows, shape);
    }
  }
  t += "\n";
  t += fmt::format("  links           {} on-board (latency {}), {} cable (latency {}), {} NIC (latency {})\n",
                   links[0], c.board_latency, links[1], c.cable_latency, links[2], c.terminal_latency);
  if (vc.per_class > 0) {
    t += fmt::format("  VCs             {} per port: {} class{} x {} ({} policy)\n", vc.vcs, vc.classes,
                     vc.classes > 1 ? "es" : "", vc.per_class, sysc::vc_policy_name(vc.policy));
  } else {
    t += fmt::format("  VCs             {} per port: {} classes of {} VCs ({} policy)\n", vc.vcs, vc.classes,
                     fmt::join(vc.class_counts, ", "), sysc::vc_policy_name(vc.policy));
  }
  t += fmt::format("  buffers         {} flits/VC on board and NIC inputs, {} on cable inputs "
                   "(cable credit round trip {} cycles{})\n",
                   c.board_depth, c.cable_depth, cable_rtt,
                   links[1] > 0 && cable_rtt > c.cable_depth ? ": cables cannot run at full rate" : "");
  t += fmt::format("  bandwidth       {}-bit flits at {} GHz = {:.0f} Gb/s per link direction; "
                   "{} network port{} per node = {:.0f} Gb/s injection\n",
                   c.flit_bits, c.clock_ghz, c.link_gbps(), ports, ports > 1 ? "s" : "",
                   c.link_gbps() * ports);
  t += fmt::format("  routes          {} pairs{}: mean {:.2f} links, max {}; zero-load head latency "
                   "mean {:.1f}, max {} cycles\n",
                   pairs, stride > 1 ? " (sampled)" : "", mean_links, diameter, mean_latency,
                   max_latency);
  t += cost.text();
  if (memory) {
    t += fmt::format("  memory          {} resident after building the system (peak {}) = {} bytes "
                     "per accelerator ({} terminal{} each)\n",
                     mib(memory->resident), mib(memory->peak), per_node, sys.rails(),
                     sys.rails() > 1 ? "s" : "");
  }
  return d;
}

void add_deadlock_check(const sysc::System& sys, const sysc::DeadlockReport& r,
                        SystemDescription& d) {
  nlohmann::json j = {{"network", "deterministic (escape) routes"},
                      {"routing_ok", r.ok},
                      {"channels", r.channels},
                      {"dependencies", r.dependencies},
                      {"acyclic", r.ok && r.acyclic},
                      {"seconds", r.seconds}};
  std::string& t = d.text;
  const std::string graph = fmt::format("channel-dependency graph of {} channels, {} dependencies",
                                        r.channels, r.dependencies);
  if (!r.ok) {
    j["error"] = r.error;
    t += fmt::format("deadlock check: routing error: {}\n", r.error);
  } else if (r.acyclic) {
    t += fmt::format("deadlock check: {}: acyclic ({:.3f} s)\n", graph, r.seconds);
  } else {
    nlohmann::json cycle = nlohmann::json::array();
    for (const auto& c : r.cycle) cycle.push_back(sysc::channel_name(sys, c));
    j["cycle"] = cycle;
    t += fmt::format("deadlock check: {}: CYCLE of {} channels ({:.3f} s)\n{}", graph,
                     r.cycle.size(), r.seconds, sysc::cycle_text(sys, r));
  }
  d.json["deadlock_check"] = j;
}

}  // namespace hxemu::tb
