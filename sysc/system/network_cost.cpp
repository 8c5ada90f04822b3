#include "sysc/system/network_cost.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sysc/system/tree_builder.h"

namespace hxemu::sysc {

namespace {

// Every tree of one shape: `trees` trees of `ports` endpoints each, of radix cfg.radix.
void count_trees(NetworkCost& c, const SystemConfig& cfg, long long trees, int ports) {
  if (trees <= 0) return;
  const TreeShape s = tree_shape(ports, cfg.radix, cfg.up_ports);
  SwitchCount& sc = c.switches[cfg.radix];
  if (s.single) {
    sc.single += static_cast<int>(trees);
  } else {
    sc.leaf += static_cast<int>(trees * s.leaves);
    sc.spine += static_cast<int>(trees * s.spines);
  }
  c.switch_ports += trees * s.switches() * cfg.radix;
  // Endpoints, and both ends of every leaf-spine link.
  c.switch_ports_used += trees * (ports + 2LL * s.internal_links());
  c.optical_cables += trees * s.internal_links();
}

// Board routers' on-board links: a 2D mesh of a x b per board.
long long mesh_links(const SystemConfig& cfg) {
  const long long a = cfg.board_rows, b = cfg.board_cols;
  return 1LL * cfg.grid_rows * cfg.grid_cols * (a * (b - 1) + (a - 1) * b);
}

void count_hxmesh(NetworkCost& c, const SystemConfig& cfg) {
  const long long a = cfg.board_rows, b = cfg.board_cols, x = cfg.grid_rows, y = cfg.grid_cols;
  c.pcb_links = mesh_links(cfg);
  // A row tree per accelerator row (x*a, 2y ports: the W and E edge of each board along it) when
  // there is more than one board column; a column tree per accelerator column likewise.
  const long long row_trees = y > 1 ? x * a : 0, col_trees = x > 1 ? y * b : 0;
  count_trees(c, cfg, row_trees, static_cast<int>(2 * y));
  count_trees(c, cfg, col_trees, static_cast<int>(2 * x));
  // Board to switch: 2a (row) + 2b (column) cables per board.
  c.copper_cables = row_trees * 2 * y + col_trees * 2 * x;
}

void count_torus(NetworkCost& c, const SystemConfig& cfg) {
  c.pcb_links = mesh_links(cfg);
  // Each board's east edge to the next board's west edge (a cables) and its south edge to the next
  // board's north edge (b cables), wrapping around -- also on a one-board-wide grid, where the
  // cable runs back to the board's own opposite edge.
  c.copper_cables = 1LL * cfg.grid_rows * cfg.grid_cols * (cfg.board_rows + cfg.board_cols);
}

void count_fat_tree(NetworkCost& c, const SystemConfig& cfg) {
  count_trees(c, cfg, cfg.planes, cfg.fat_tree_nodes);
  c.copper_cables = 1LL * cfg.fat_tree_nodes * cfg.planes;   // NIC to leaf
}

void count_dragonfly(NetworkCost& c, const SystemConfig& cfg) {
  const long long g = cfg.df_groups, a = cfg.df_routers, P = cfg.planes;
  const long long local = g * a * (a - 1) / 2, global = g * (g - 1) / 2;
  c.switches[cfg.radix].single += static_cast<int>(P * g * a);
  c.switch_ports = P * g * a * cfg.radix;
  c.switch_ports_used = P * (c.accelerators + 2 * local + 2 * global);
  // Inside a group the routers sit together (copper); global links span the machine (optical).
  c.copper_cables = P * (c.accelerators + local);
  c.optical_cables = P * global;
}

double switch_port_price(const PriceTable& p, int radix) {
  const auto it = p.switch_port.find(radix);
  if (it == p.switch_port.end()) {
    std::string list;
    for (const auto& kv : p.switch_port) list += (list.empty() ? "" : ", ") + std::to_string(kv.first);
    throw std::invalid_argument("config field 'prices.switch_port': no price for radix " + std::to_string(radix) +
                                " (priced radices: " + list + ")");
  }
  return it->second;
}

void add_item(NetworkCost& c, const std::string& key, const std::string& what, long long count, double unit) {
  if (count == 0) return;
  c.items.push_back({key, what, count, unit, static_cast<double>(count) * unit});
  c.total_usd += c.items.back().usd;
}

void price_counts(NetworkCost& c) {
  const PriceTable& p = c.prices;
  long long switches = 0;
  for (const auto& [radix, n] : c.switches) switches += n.total();
  add_item(c, "switch_chassis", "switches", switches, p.switch_chassis);
  for (const auto& [radix, n] : c.switches) {
    add_item(c, "switch_port_radix" + std::to_string(radix), "switch ports (radix " + std::to_string(radix) + ")",
             1LL * n.total() * radix, switch_port_price(p, radix));
  }
  add_item(c, "pcb_link", "on-board links", c.pcb_links, p.pcb_link);
  add_item(c, "copper_cable", "copper cables", c.copper_cables, p.copper_cable);
  add_item(c, "optical_cable", "optical cables", c.optical_cables, p.optical_cable);
  add_item(c, "nic", "NICs", c.nics, p.nic);
}

struct ClassPrices {
  double link = 0, sw = 0, nic = 0;
  bool has_switch = false;
};
ClassPrices class_prices(const PriceTable& p, const std::string& cls, const std::string& field) {
  if (cls == "chiplet") return {p.chiplet_link, 0, 0, false};
  if (cls == "package") return {p.package_link, p.package_switch, 0, true};
  if (cls == "node") return {p.node_link, p.node_switch, 0, true};
  if (cls == "pod") return {p.pod_link, p.pod_switch, p.pod_nic, true};
  throw std::invalid_argument("config field '" + field + "': must be one of: chiplet, package, node, pod, got \"" +
                              cls + "\"");
}

void price_libra(NetworkCost& c, const SystemConfig& cfg) {
  const int D = static_cast<int>(cfg.md_dims.size());
  const long long N = cfg.nodes();
  const double link_gbs = cfg.link_gbps() / 8.0;
  for (int d = 0; d < D; ++d) {
    const MdDimension& m = cfg.md_dims[d];
    const std::string field = "dimensions[" + std::to_string(d) + "].cost_class";
    DimCost dc;
    dc.name = m.name;
    dc.kind = dim_kind_name(m.kind);
    dc.cost_class = m.cost_class.empty() ? default_cost_class(d, D) : m.cost_class;
    dc.size = m.size;
    dc.bw_gbs = m.ports() * link_gbs;
    const long long n = m.size;
    const long long inner = cfg.md_stride(d) * n;   // NPUs of dimensions 0..d
    const long long groups = N / n;
    if (m.kind == DimKind::kRing) {
      dc.blocks = groups, dc.links_per_block = 2 * n, dc.link_gbs = dc.bw_gbs / 2;
      dc.links = groups * n * m.lanes;
    } else if (m.kind == DimKind::kFullyConnected) {
      dc.blocks = groups, dc.links_per_block = n * (n - 1), dc.link_gbs = dc.bw_gbs / static_cast<double>(n - 1);
      dc.links = groups * n * (n - 1) / 2 * m.lanes;
    } else {
      // LIBRA: "one big switch up to the given dimension".
      dc.blocks = N / inner, dc.links_per_block = inner, dc.link_gbs = dc.bw_gbs;
      dc.links = groups * n * m.lanes;   // NPU to switch
      const TreeShape s = tree_shape(m.size, cfg.radix, cfg.up_ports);
      dc.switches = groups * m.lanes * s.switches();
      count_trees(c, cfg, groups * m.lanes, m.size);
    }
    // For reference, what the emulator builds, by link class (the dimension's latency decides).
    (m.cable ? c.copper_cables : c.pcb_links) += dc.links;
    const ClassPrices cp = class_prices(c.prices, dc.cost_class, field);
    if (m.kind == DimKind::kSwitch && !cp.has_switch) {
      throw std::invalid_argument("config field '" + field + "': a switch dimension needs a cost class with a "
                                  "switch price: one of package, node, pod; got \"" + dc.cost_class + "\"");
    }
    const double gbs = static_cast<double>(dc.blocks * dc.links_per_block) * dc.link_gbs;   // = N x bw_d
    dc.link_usd_per_gbs = cp.link;
    dc.link_usd = gbs * cp.link;
    if (m.kind == DimKind::kSwitch) {
      dc.switch_usd_per_gbs = cp.sw;
      dc.nic_usd_per_gbs = cp.nic;
      dc.switch_usd = gbs * cp.sw;
      dc.nic_usd = gbs * cp.nic;
    }
    dc.usd = dc.link_usd + dc.switch_usd + dc.nic_usd;
    c.total_usd += dc.usd;
    c.dims.push_back(dc);
  }
}

// "$1,234,567" (whole dollars from 1,000 up, and for whole amounts), "$12.34" for the rest.
std::string usd(double v) {
  char buf[64];
  if (std::fabs(v) < 1000 && std::fabs(v - std::round(v)) > 0.005) {
    std::snprintf(buf, sizeof buf, "$%.2f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
  std::string digits = buf, out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-$" : "$") + out;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

nlohmann::json prices_json(const PriceTable& p) {
  nlohmann::json port = nlohmann::json::object();
  for (const auto& [radix, v] : p.switch_port) port[std::to_string(radix)] = v;
  return {{"switch_chassis", p.switch_chassis},
          {"switch_port", port},
          {"pcb_link", p.pcb_link},
          {"copper_cable", p.copper_cable},
          {"optical_cable", p.optical_cable},
          {"nic", p.nic},
          {"libra", {{"chiplet", {{"link", p.chiplet_link}}},
                     {"package", {{"link", p.package_link}, {"switch", p.package_switch}}},
                     {"node", {{"link", p.node_link}, {"switch", p.node_switch}}},
                     {"pod", {{"link", p.pod_link}, {"switch", p.pod_switch}, {"nic", p.pod_nic}}}}}};
}

NetworkCost network_cost(const SystemConfig& cfg) {
  NetworkCost c;
  c.prices = cfg.prices;
  c.accelerators = cfg.nodes();
  // Injection ports: a HammingMesh or torus node's four, a NIC per plane, a multidim NPU's NICs.
  const bool planes = cfg.topology == Topology::kFatTree || cfg.topology == Topology::kDragonfly;
  c.nics_per_accelerator = planes ? cfg.planes : cfg.topology == Topology::kMultidim ? cfg.md_nics : 4;
  c.injection_gbs = c.nics_per_accelerator * cfg.link_gbps() / 8.0;
  c.nics = 1LL * c.accelerators * c.nics_per_accelerator;
  switch (cfg.topology) {
    case Topology::kHammingMesh: count_hxmesh(c, cfg); break;
    case Topology::kTorus: count_torus(c, cfg); break;
    case Topology::kFatTree: count_fat_tree(c, cfg); break;
    case Topology::kDragonfly: count_dragonfly(c, cfg); break;
    case Topology::kMultidim: break;
  }
  if (cfg.topology == Topology::kMultidim) {
    c.model = "libra";
    price_libra(c, cfg);
  } else {
    c.model = "counts";
    price_counts(c);
  }
  if (c.accelerators > 0) c.usd_per_accelerator = c.total_usd / c.accelerators;
  if (c.injection_gbs > 0) c.usd_per_injection_gbs = c.usd_per_accelerator / c.injection_gbs;
  return c;
}

nlohmann::json NetworkCost::json() const {
  nlohmann::json sw = nlohmann::json::object();
  for (const auto& [radix, n] : switches) {
    sw[std::to_string(radix)] = {{"single", n.single}, {"leaf", n.leaf}, {"spine", n.spine}, {"total", n.total()}};
  }
  nlohmann::json j = {{"model", model},
                      {"accelerators", accelerators},
                      {"nics_per_accelerator", nics_per_accelerator},
                      {"injection_GBps_per_accelerator", injection_gbs},
                      {"counts", {{"switches_by_radix", sw},
                                  {"switch_ports", switch_ports},
                                  {"switch_ports_used", switch_ports_used},
                                  {"pcb_links", pcb_links},
                                  {"copper_cables", copper_cables},
                                  {"optical_cables", optical_cables},
                                  {"nics", nics}}},
                      {"total_usd", total_usd},
                      {"usd_per_accelerator", usd_per_accelerator},
                      {"usd_per_injection_GBps", usd_per_injection_gbs},
                      {"prices", prices_json(prices)}};
  if (model == "libra") {
    nlohmann::json dj = nlohmann::json::array();
    for (const auto& d : dims) {
      dj.push_back({{"name", d.name}, {"kind", d.kind}, {"cost_class", d.cost_class}, {"size", d.size},
                    {"GBps_per_npu", d.bw_gbs}, {"libra_blocks", d.blocks},
                    {"libra_links_per_block", d.links_per_block}, {"libra_link_GBps", d.link_gbs},
                    {"link_usd_per_GBps", d.link_usd_per_gbs}, {"switch_usd_per_GBps", d.switch_usd_per_gbs},
                    {"nic_usd_per_GBps", d.nic_usd_per_gbs}, {"link_usd", d.link_usd},
                    {"switch_usd", d.switch_usd}, {"nic_usd", d.nic_usd}, {"usd", d.usd},
                    {"links_built", d.links}, {"switches_built", d.switches}});
    }
    j["dimensions"] = dj;
  } else {
    nlohmann::json ij = nlohmann::json::array();
    for (const auto& i : items) {
      ij.push_back({{"item", i.key}, {"what", i.what}, {"count", i.count}, {"unit_usd", i.unit_usd}, {"usd", i.usd}});
    }
    j["items"] = ij;
  }
  return j;
}

std::string NetworkCost::text(const std::string& indent) const {
  std::string t = indent + "cost            " + usd(total_usd) + " = " + usd(usd_per_accelerator) +
                  " per accelerator = " + usd(usd_per_injection_gbs) + " per GB/s of injection (" +
                  num(injection_gbs) + " GB/s each; " +
                  (model == "libra" ? "LIBRA's $ per GB/s model" : "counts x unit prices") +
                  ", docs/cost.md)\n";
  const std::string sub = indent + "  ";
  if (model == "libra") {
    for (std::size_t k = 0; k < dims.size(); ++k) {
      const DimCost& d = dims[k];
      std::string line = sub + "dim " + std::to_string(k) + " " + d.name + " (" + d.kind + ", " + d.cost_class +
                         " class): N x " + num(d.bw_gbs) + " GB/s per NPU x (link $" + num(d.link_usd_per_gbs);
      if (d.kind == std::string("switch")) {
        line += " + switch $" + num(d.switch_usd_per_gbs);
        if (d.nic_usd_per_gbs > 0) line += " + NIC $" + num(d.nic_usd_per_gbs);
      }
      t += line + ") = " + usd(d.usd) + "\n";
    }
    return t;
  }
  std::string sw;
  for (const auto& [radix, n] : switches) {
    sw += (sw.empty() ? "" : ", ") + std::to_string(n.total()) + " of radix " + std::to_string(radix);
    if (n.leaf + n.spine > 0) {
      sw += " (" + std::to_string(n.single) + " single, " + std::to_string(n.leaf) + " leaf, " +
            std::to_string(n.spine) + " spine)";
    }
  }
  t += sub + "counts: " + (sw.empty() ? "no switches" : "switches " + sw) + "; " + std::to_string(switch_ports) +
       " switch ports (" + std::to_string(switch_ports_used) + " used); " + std::to_string(pcb_links) +
       " on-board links; " + std::to_string(copper_cables) + " copper and " + std::to_string(optical_cables) +
       " optical cables; " + std::to_string(nics) + " NICs\n";
  for (const auto& i : items) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-26s", i.what.c_str());
    t += sub + buf + std::to_string(i.count) + " x " + usd(i.unit_usd) + " = " + usd(i.usd) + "\n";
  }
  return t;
}

}  // namespace hxemu::sysc
