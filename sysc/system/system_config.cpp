#include "sysc/system/system_config.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/blocks/board_router.h"
#include "sysc/blocks/switch_block.h"
#include "sysc/system/tree_builder.h"
#include "sysc/util/input_file.h"
#include "sysc/util/parse_number.h"

namespace hxemu::sysc {

using nlohmann::json;

const char* topology_name(Topology t) {
  switch (t) {
    case Topology::kHammingMesh: return "hxmesh";
    case Topology::kTorus: return "torus";
    case Topology::kFatTree: return "fattree";
    case Topology::kDragonfly: return "dragonfly";
    case Topology::kMultidim: return "multidim";
  }
  return "?";
}

const char* dim_kind_name(DimKind k) {
  switch (k) {
    case DimKind::kRing: return "ring";
    case DimKind::kFullyConnected: return "fc";
    case DimKind::kSwitch: return "switch";
  }
  return "?";
}

int SystemConfig::md_router_ports() const {
  int p = md_nics;
  for (const auto& d : md_dims) p += d.ports();
  return p;
}

int SystemConfig::md_stride(int d) const {
  int s = 1;
  for (int k = 0; k < d; ++k) s *= md_dims.at(k).size;
  return s;
}

int SystemConfig::nodes() const {
  if (topology == Topology::kFatTree) return fat_tree_nodes;
  if (topology == Topology::kDragonfly) return df_groups * df_routers * df_terminals;
  if (topology == Topology::kMultidim) {
    int n = 1;
    for (const auto& d : md_dims) n *= d.size;
    return n;
  }
  return board_rows * board_cols * grid_rows * grid_cols;
}

int SystemConfig::classes() const {
  if (test_unsafe_single_class) return 1;
  switch (topology) {
    case Topology::kHammingMesh: return (grid_rows > 1 || grid_cols > 1) ? 3 : 1;
    // Deterministic: the dateline class restarts at the dimension change. Adaptive: it counts the
    // wrap-around links crossed in both dimensions (rtl/route/hx_route_torus.sv).
    case Topology::kTorus: return adaptive ? 3 : 2;
    case Topology::kFatTree: return 1;
    // A class per global link taken: minimal routes take at most one, UGAL's non-minimal ones two.
    case Topology::kDragonfly: return adaptive ? 3 : 2;
    // Dateline classes per ring (rtl/route/hx_route_multidim.sv); FC and Switch need one.
    case Topology::kMultidim:
      for (const auto& d : md_dims) {
        if (d.kind == DimKind::kRing) return 2;
      }
      return 1;
  }
  return 1;
}

std::vector<int> SystemConfig::class_counts() const {
  if (!class_vcs.empty()) return class_vcs;
  return std::vector<int>(static_cast<std::size_t>(classes()), vcs_per_class);
}

int SystemConfig::model_vcs() const {
  int need = 0;
  for (int n : class_counts()) need += n;
  int best = 0;
  for (const auto& v : board_router_variants()) {
    if (v.flit_bits == flit_bits && v.vcs >= need && (best == 0 || v.vcs < best)) best = v.vcs;
  }
  return best;
}

VcPlan SystemConfig::vc_plan() const {
  VcPlan p = make_vc_plan(model_vcs(), class_counts(), vc_policy);
  if (test_unsafe_single_class) {
    // Escalation and dateline still change the class a router asks for, but every class maps to
    // the same VCs: the classes no longer separate anything.
    for (int c = 1; c < 4; ++c) p.class_vcs[c] = p.class_vcs[0];
  }
  return p;
}

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw ConfigError("config field '" + field + "': " + what);
}

void check_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) {
  if (!obj.is_object()) fail(where.empty() ? "(top level)" : where, "must be a JSON object");
  for (const auto& [key, value] : obj.items()) {
    (void)value;
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where.empty() ? key : where + "." + key, "unknown key (allowed here: " + list + ")");
    }
  }
}

int get_int(const json& obj, const std::string& where, const std::string& key, int lo, int hi,
            int fallback, bool required = false) {
  const std::string field = where.empty() ? key : where + "." + key;
  if (!obj.contains(key)) {
    if (required) fail(field, "is required (an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ")");
    return fallback;
  }
  const json& v = obj.at(key);
  if (!v.is_number_integer()) {
    fail(field, "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                    ", got " + v.dump());
  }
  // An unsigned value above the signed range (e.g. 2^64-1) must not wrap to a small or negative one.
  const bool huge = v.is_number_unsigned() &&
                    v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<long long>::max());
  const long long x = huge ? std::numeric_limits<long long>::max() : v.get<long long>();
  if (x < lo || x > hi) {
    fail(field, "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                    ", got " + v.dump());
  }
  return static_cast<int>(x);
}

double get_double(const json& obj, const std::string& where, const std::string& key, double lo,
                  double hi, double fallback) {
  const std::string field = where.empty() ? key : where + "." + key;
  if (!obj.contains(key)) return fallback;
  const json& v = obj.at(key);
  std::ostringstream range;
  range << "a number in " << lo << ".." << hi;
  if (!v.is_number()) fail(field, "must be " + range.str() + ", got " + v.dump());
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi)) fail(field, "must be " + range.str() + ", got " + v.dump());
  return x;
}

bool get_bool(const json& obj, const std::string& where, const std::string& key, bool fallback) {
  const std::string field = where.empty() ? key : where + "." + key;
  if (!obj.contains(key)) return fallback;
  const json& v = obj.at(key);
  if (!v.is_boolean()) fail(field, "must be true or false, got " + v.dump());
  return v.get<bool>();
}

std::string get_choice(const json& obj, const std::string& where, const std::string& key,
                       const std::vector<std::string>& allowed, const std::string& fallback) {
  const std::string field = where.empty() ? key : where + "." + key;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  if (!obj.contains(key)) {
    if (fallback.empty()) fail(field, "is required (one of: " + list + ")");
    return fallback;
  }
  const json& v = obj.at(key);
  if (!v.is_string()) fail(field, "must be one of: " + list + ", got " + v.dump());
  const std::string s = v.get<std::string>();
  for (const auto& a : allowed) {
    if (a == s) return s;
  }
  fail(field, "must be one of: " + list + ", got \"" + s + "\"");
}

// Parses a whole configuration. Beyond malformed text, the JSON library refuses numbers it cannot
// hold (1e400): the error names the field being read, tracked through the parser's key events.
json parse_json(const std::string& text, const std::string& source) {
  std::vector<std::string> path;   // keys from the top level down to the value being parsed
  const json::parser_callback_t track = [&path](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth >= 1) {
      path.resize(static_cast<std::size_t>(depth));
      path.back() = parsed.get<std::string>();
    } else if (event == json::parse_event_t::object_end) {
      path.resize(static_cast<std::size_t>(std::max(depth, 0)));
    }
    return true;
  };
  try {
    return json::parse(text, track);
  } catch (const json::parse_error& e) {
    throw ConfigError(source + ": malformed JSON: " + e.what());
  } catch (const json::exception& e) {
    std::string field;
    for (const auto& k : path) field += (field.empty() ? "" : ".") + k;
    std::string what = e.what();   // "[json.exception.out_of_range.406] number overflow parsing '1e400'"
    if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos) {
      what = what.substr(close + 2);
    }
    throw ConfigError(source + ": config field '" + (field.empty() ? "(top level)" : field) + "': " + what +
                      " (not a finite number)");
  }
}

const json& section(const json& root, const std::string& key) {
  static const json kEmpty = json::object();
  if (!root.contains(key)) return kEmpty;
  return root.at(key);
}

// The Dragonfly's shape: groups, routers per group, terminals per router, global ports per
// router (docs/topology.md). Router-port checks against the radix come later, with the switch.
void parse_dragonfly(const json& root, SystemConfig& c) {
  if (root.contains("board")) fail("board", "is not used by topology dragonfly (use 'dragonfly')");
  if (root.contains("grid")) fail("grid", "is not used by topology dragonfly (use 'dragonfly')");
  if (root.contains("nodes")) {
    fail("nodes", "is not used by topology dragonfly (nodes = groups x routers_per_group x terminals_per_router)");
  }
  if (!root.contains("dragonfly")) {
    fail("dragonfly", "is required for topology dragonfly: {\"groups\": g, \"routers_per_group\": a, "
                      "\"terminals_per_router\": p, \"global_per_router\": h}");
  }
  const json& df = root.at("dragonfly");
  check_keys(df, "dragonfly", {"groups", "routers_per_group", "terminals_per_router", "global_per_router",
                               "ugal_threshold"});
  c.df_groups = get_int(df, "dragonfly", "groups", 2, 255, 0, true);
  c.df_routers = get_int(df, "dragonfly", "routers_per_group", 1, 255, 0, true);
  c.df_terminals = get_int(df, "dragonfly", "terminals_per_router", 1, 64, 0, true);
  c.df_globals = get_int(df, "dragonfly", "global_per_router", 1, 64, 0, true);
  // -1: the default, set once the buffers are known (half a class's buffering at a cable input).
  c.ugal_threshold = get_int(df, "dragonfly", "ugal_threshold", 0, 255, -1);
  // h a power of two: the route computer finds a global port's router and slot by shift and mask.
  if ((c.df_globals & (c.df_globals - 1)) != 0) {
    fail("dragonfly.global_per_router", "must be a power of two (1, 2, 4, 8, ...), got " +
                                            std::to_string(c.df_globals));
  }
  // One global link per pair of groups: a group has routers x global ports for the g - 1 others.
  const int group_ports = c.df_routers * c.df_globals;
  if (c.df_groups - 1 > group_ports) {
    fail("dragonfly.groups", "at most routers_per_group x global_per_router + 1 = " +
                                 std::to_string(group_ports + 1) + " groups (one global link per pair of "
                                 "groups), got " + std::to_string(c.df_groups));
  }
  if (group_ports > 255) {
    fail("dragonfly.global_per_router", "routers_per_group x global_per_router must be at most 255 "
                                        "(8-bit global port index), got " + std::to_string(group_ports));
  }
  const long long n = 1LL * c.df_groups * c.df_routers * c.df_terminals;
  if (n < 2) fail("dragonfly", "the system needs at least 2 accelerators");
  if (n > 65535) {
    fail("dragonfly", "groups x routers_per_group x terminals_per_router = " + std::to_string(n) +
                          " accelerators, more than 65535");
  }
  c.planes = get_int(root, "", "planes", 1, 4, 1);
}

// A multi-dimensional platform (docs/multidim.md): "dimensions", innermost first, each {name,
// kind, size, lanes, latency}; optional "routing_order" (dimension indices) and "nics" per NPU.
// Port and tree checks against the switch radix come later, with the switch.
void parse_multidim(const json& root, SystemConfig& c) {
  for (const char* k : {"board", "grid", "nodes", "planes", "dragonfly"}) {
    if (root.contains(k)) fail(k, "is not used by topology multidim (use 'dimensions')");
  }
  const std::string how = "an array of 1..4 dimensions, innermost first, each {\"name\", \"kind\": "
                          "\"ring\" | \"fc\" | \"switch\", \"size\", \"lanes\", \"latency\"}";
  if (!root.contains("dimensions")) fail("dimensions", "is required for topology multidim: " + how);
  const json& dims = root.at("dimensions");
  if (!dims.is_array() || dims.empty() || dims.size() > 4) fail("dimensions", "must be " + how);
  long long n = 1;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const std::string where = "dimensions[" + std::to_string(k) + "]";
    const json& d = dims[k];
    check_keys(d, where, {"name", "kind", "size", "lanes", "latency", "buffer_depth", "cost_class"});
    MdDimension m;
    m.name = "dim" + std::to_string(k);
    if (d.contains("name")) {
      if (!d.at("name").is_string() || d.at("name").get<std::string>().empty()) {
        fail(where + ".name", "must be a non-empty string");
      }
      m.name = d.at("name").get<std::string>();
    }
    const std::string kind = get_choice(d, where, "kind", {"ring", "fc", "switch"}, "");
    m.kind = kind == "ring" ? DimKind::kRing : kind == "fc" ? DimKind::kFullyConnected : DimKind::kSwitch;
    m.size = get_int(d, where, "size", 2, 255, 0, true);
    m.lanes = get_int(d, where, "lanes", 1, 15, 1);
    m.latency = get_int(d, where, "latency", 0, 1000, 1);
    m.depth = get_int(d, where, "buffer_depth", 1, 255, 0);   // 0: from the link class, below
    // LIBRA's cost class (docs/cost.md); the chiplet class has no switch price.
    const std::string dflt = default_cost_class(static_cast<int>(k), static_cast<int>(dims.size()));
    m.cost_class = get_choice(d, where, "cost_class", {"chiplet", "package", "node", "pod"}, dflt);
    if (m.kind == DimKind::kSwitch && m.cost_class == "chiplet") {
      fail(where + ".cost_class", std::string("a switch dimension needs a cost class with a switch price: one of "
                                              "package, node, pod; got \"chiplet\"") +
                                      (d.contains("cost_class") ? "" : " (the default for this position: set it)"));
    }
    n *= m.size;
    if (n > 65535) fail("dimensions", "the product of the sizes is more than 65535 NPUs");
    c.md_dims.push_back(m);
  }
  const int D = static_cast<int>(c.md_dims.size());
  c.md_order.clear();
  if (root.contains("routing_order")) {
    const json& o = root.at("routing_order");
    const std::string ohow = "a permutation of the dimension indices 0.." + std::to_string(D - 1) +
                             " (the order heads correct their coordinates in)";
    if (!o.is_array() || static_cast<int>(o.size()) != D) fail("routing_order", "must be " + ohow);
    std::vector<bool> seen(D, false);
    for (const auto& e : o) {
      if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= D || seen[e.get<int>()]) {
        fail("routing_order", "must be " + ohow + ", got " + o.dump());
      }
      seen[e.get<int>()] = true;
      c.md_order.push_back(e.get<int>());
    }
  } else {
    for (int d = 0; d < D; ++d) c.md_order.push_back(d);
  }
  c.md_nics = get_int(root, "", "nics", 1, 4, 4);
}

// The optional "prices" object (docs/cost.md): any unit price of sysc/system/price_table.h, each a
// number >= 0; what it leaves out keeps its default.
void parse_prices(const json& root, PriceTable& p) {
  const json& pr = section(root, "prices");
  check_keys(pr, "prices", {"switch_chassis", "switch_port", "pcb_link", "copper_cable", "optical_cable", "nic",
                            "libra"});
  constexpr double kMax = 1e9;
  auto price = [&](const json& obj, const std::string& where, const std::string& key, double& into) {
    into = get_double(obj, where, key, 0.0, kMax, into);
  };
  price(pr, "prices", "switch_chassis", p.switch_chassis);
  price(pr, "prices", "pcb_link", p.pcb_link);
  price(pr, "prices", "copper_cable", p.copper_cable);
  price(pr, "prices", "optical_cable", p.optical_cable);
  price(pr, "prices", "nic", p.nic);
  const json& port = section(pr, "switch_port");
  std::set<std::string> radices;
  for (const auto& kv : p.switch_port) radices.insert(std::to_string(kv.first));
  check_keys(port, "prices.switch_port", radices);
  for (auto& [radix, usd] : p.switch_port) price(port, "prices.switch_port", std::to_string(radix), usd);
  const json& libra = section(pr, "libra");
  check_keys(libra, "prices.libra", {"chiplet", "package", "node", "pod"});
  const json& chiplet = section(libra, "chiplet");
  const json& package = section(libra, "package");
  const json& node = section(libra, "node");
  const json& pod = section(libra, "pod");
  check_keys(chiplet, "prices.libra.chiplet", {"link"});
  check_keys(package, "prices.libra.package", {"link", "switch"});
  check_keys(node, "prices.libra.node", {"link", "switch"});
  check_keys(pod, "prices.libra.pod", {"link", "switch", "nic"});
  price(chiplet, "prices.libra.chiplet", "link", p.chiplet_link);
  price(package, "prices.libra.package", "link", p.package_link);
  price(package, "prices.libra.package", "switch", p.package_switch);
  price(node, "prices.libra.node", "link", p.node_link);
  price(node, "prices.libra.node", "switch", p.node_switch);
  price(pod, "prices.libra.pod", "link", p.pod_link);
  price(pod, "prices.libra.pod", "switch", p.pod_switch);
  price(pod, "prices.libra.pod", "nic", p.pod_nic);
}

}  // namespace

SystemConfig parse_system_config(const std::string& json_text, const std::string& source,
                                 const std::vector<std::string>& overrides) {
  json root = parse_json(json_text, source);
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError("override '" + o + "': expected key=value, e.g. router.vcs_per_class=4");
    }
    const std::string key = o.substr(0, eq), text = o.substr(eq + 1);
    // A value that is not JSON (a bare word, or a number JSON cannot hold such as 1e400) is kept
    // as a string, which the field's own check then reports with its allowed values.
    json value;
    try {
      value = json::parse(text);
    } catch (const json::exception&) {
      value = text;
    }
    if (!root.is_object()) break;   // reported by the validation below
    json* node = &root;
    std::size_t start = 0;
    while (true) {
      const auto dot = key.find('.', start);
      const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (part.empty()) throw ConfigError("override '" + o + "': empty key part");
      // An array element by index, e.g. dimensions.0.lanes=2.
      if (node->is_array()) {
        const auto idx = parse_int(part);
        if (!idx || *idx < 0 || *idx >= static_cast<long long>(node->size())) {
          throw ConfigError("override '" + o + "': '" + part + "' is not an index of the array (0.." +
                            std::to_string(static_cast<long long>(node->size()) - 1) + ")");
        }
        if (dot == std::string::npos) {
          (*node)[static_cast<std::size_t>(*idx)] = value;
          break;
        }
        node = &(*node)[static_cast<std::size_t>(*idx)];
        if (!node->is_object() && !node->is_array()) {
          throw ConfigError("override '" + o + "': '" + part + "' is not a section");
        }
        start = dot + 1;
        continue;
      }
      if (dot == std::string::npos) {
        (*node)[part] = value;
        break;
      }
      if (!node->contains(part)) (*node)[part] = json::object();
      node = &(*node)[part];
      if (!node->is_object() && !node->is_array()) {
        throw ConfigError("override '" + o + "': '" + part + "' is not a section");
      }
      start = dot + 1;
    }
  }
  check_keys(root, "", {"name", "topology", "board", "grid", "nodes", "planes", "dragonfly", "switch",
                        "router", "links", "flit_bits", "max_packet_flits", "clock_ghz", "comment",
                        "dimensions", "routing_order", "nics", "prices", "nic_crc"});
  SystemConfig c;
  c.source = source;
  if (root.contains("name")) {
    if (!root.at("name").is_string()) fail("name", "must be a string");
    c.name = root.at("name").get<std::string>();
  }
  const std::string topo =
      get_choice(root, "", "topology", {"hxmesh", "torus", "fattree", "dragonfly", "multidim"}, "");
  c.topology = topo == "hxmesh"      ? Topology::kHammingMesh
               : topo == "torus"     ? Topology::kTorus
               : topo == "fattree"   ? Topology::kFatTree
               : topo == "dragonfly" ? Topology::kDragonfly
                                     : Topology::kMultidim;
  if (c.topology != Topology::kDragonfly && root.contains("dragonfly")) {
    fail("dragonfly", "is only used by topology dragonfly");
  }
  if (c.topology != Topology::kMultidim) {
    for (const char* k : {"dimensions", "routing_order", "nics"}) {
      if (root.contains(k)) fail(k, "is only used by topology multidim");
    }
  }

  if (c.topology == Topology::kFatTree) {
    if (root.contains("board")) fail("board", "is not used by topology fattree (use 'nodes')");
    if (root.contains("grid")) fail("grid", "is not used by topology fattree (use 'nodes')");
    c.fat_tree_nodes = get_int(root, "", "nodes", 2, 65535, 0, true);
    c.planes = get_int(root, "", "planes", 1, 4, 1);
  } else if (c.topology == Topology::kDragonfly) {
    parse_dragonfly(root, c);
  } else if (c.topology == Topology::kMultidim) {
    parse_multidim(root, c);
  } else {
    if (root.contains("planes")) {
      fail("planes", "is only used by topologies fattree and dragonfly (a HammingMesh or torus node has its four ports on one board router)");
    }
    if (root.contains("nodes")) {
      fail("nodes", "is only used by topology fattree (hxmesh and torus size is board x grid)");
    }
    if (!root.contains("board")) fail("board", "is required for topology " + topo);
    if (!root.contains("grid")) fail("grid", "is required for topology " + topo);
    const json& board = root.at("board");
    const json& grid = root.at("grid");
    check_keys(board, "board", {"rows", "cols"});
    check_keys(grid, "grid", {"rows", "cols"});
    c.board_rows = get_int(board, "board", "rows", 1, 255, 0, true);
    c.board_cols = get_int(board, "board", "cols", 1, 255, 0, true);
    c.grid_rows = get_int(grid, "grid", "rows", 1, 255, 0, true);
    c.grid_cols = get_int(grid, "grid", "cols", 1, 255, 0, true);
    if (c.nodes() < 2) fail("board", "the system needs at least 2 accelerators");
    if (c.nodes() > 65535) fail("grid", "more than 65535 accelerators");
    if (c.topology == Topology::kTorus) {
      if (c.board_cols * c.grid_cols < 2) fail("board.cols", "a torus needs at least 2 columns (board.cols x grid.cols)");
      if (c.board_rows * c.grid_rows < 2) fail("board.rows", "a torus needs at least 2 rows (board.rows x grid.rows)");
    }
  }

  const json& sw = section(root, "switch");
  check_keys(sw, "switch", {"radix", "up_ports", "up_select"});
  c.radix = get_int(sw, "switch", "radix", 4, 64, 16);
  {
    std::set<int> radices;
    for (const auto& v : switch_variants()) radices.insert(v.ports);
    if (!radices.count(c.radix)) {
      std::string list;
      for (int r : radices) list += (list.empty() ? "" : ",") + std::to_string(r);
      fail("switch.radix", "this build provides radix in {" + list + "}, got " + std::to_string(c.radix));
    }
  }
  c.up_ports = get_int(sw, "switch", "up_ports", 1, 32, -1);
  c.up_hash = get_choice(sw, "switch", "up_select", {"adaptive", "hash"}, "adaptive") == "hash";

  const json& rt = section(root, "router");
  check_keys(rt, "router", {"vcs_per_class", "class_vcs", "vc_policy", "buffer_depth", "routing",
                            "adaptive_margin"});
  c.vcs_per_class = get_int(rt, "router", "vcs_per_class", 1, 8, 2);
  c.vc_policy = get_choice(rt, "router", "vc_policy", {"dynamic", "lane"}, "dynamic") == "lane"
                    ? VcPolicy::kLane
                    : VcPolicy::kDynamic;
  c.adaptive = get_choice(rt, "router", "routing", {"deterministic", "adaptive"}, "deterministic") ==
               "adaptive";
  if (c.adaptive && c.topology == Topology::kMultidim) {
    fail("router.routing", "must be \"deterministic\" on topology multidim (routes are dimension-ordered; "
                           "among a dimension's lanes the router always takes the least loaded)");
  }
  {
    const int dflt = c.topology == Topology::kTorus ? kDefaultTorusAdaptiveMarginEighths
                                                    : kDefaultAdaptiveMarginEighths;
    const double m = get_double(rt, "router", "adaptive_margin", 0.0, 1.0, dflt / 8.0);
    const double eighths = m * 8.0;
    if (eighths != static_cast<double>(static_cast<int>(eighths))) {
      fail("router.adaptive_margin", "must be a multiple of 1/8 in [0, 1] (0, 0.125, 0.25, ..., 1); got " +
                                         std::to_string(m));
    }
    c.adaptive_margin_eighths = static_cast<int>(eighths);
  }

  int slots = 0;
  std::set<int> vcs_built;
  for (const auto& v : board_router_variants()) {
    slots = std::max(slots, v.buffer_slots);
    vcs_built.insert(v.vcs);
  }
  std::string vc_list;
  for (int v : vcs_built) vc_list += (vc_list.empty() ? "" : ",") + std::to_string(v);
  c.board_depth = get_int(rt, "router", "buffer_depth", 1, slots, 8);

  if (rt.contains("class_vcs")) {
    const json& a = rt["class_vcs"];
    const int most = *vcs_built.rbegin();   // the largest VC variant built
    const std::string how = "an array of VC counts, one per VC class in class order, each 1.." +
                            std::to_string(most) + ", e.g. [1, 4, 3]";
    if (!a.is_array() || a.empty()) fail("router.class_vcs", "must be " + how);
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (!a[k].is_number_integer() || a[k].get<long long>() < 1 || a[k].get<long long>() > most) {
        fail("router.class_vcs", "entry " + std::to_string(k) + " is " + a[k].dump() + "; must be " + how);
      }
      c.class_vcs.push_back(a[k].get<int>());
    }
    if (static_cast<int>(c.class_vcs.size()) != c.classes()) {
      fail("router.class_vcs", "has " + std::to_string(c.class_vcs.size()) + " entries; " +
                                   topology_name(c.topology) + " with " +
                                   (c.adaptive ? "adaptive" : "deterministic") + " routing has " +
                                   std::to_string(c.classes()) + " VC class" + (c.classes() > 1 ? "es" : "") +
                                   ": give " + std::to_string(c.classes()) + " counts");
    }
    if (c.vc_policy == VcPolicy::kLane && !even_split(c.class_vcs)) {
      fail("router.class_vcs", "an uneven split needs router.vc_policy \"dynamic\" (the lane policy keeps a "
                               "packet on its lane index in every class, so every class needs the same count)");
    }
  }

  const json& links = section(root, "links");
  check_keys(links, "links", {"board_latency", "cable_latency", "terminal_latency", "cable_depth"});
  c.board_latency = get_int(links, "links", "board_latency", 0, 1000, 1);
  c.cable_latency = get_int(links, "links", "cable_latency", 0, 1000, 10);
  c.terminal_latency = get_int(links, "links", "terminal_latency", 0, 1000, 1);
  c.cable_depth = get_int(links, "links", "cable_depth", 1, slots, std::min(32, slots));

  c.flit_bits = get_int(root, "", "flit_bits", 32, 4096, 256);
  {
    bool built = false;
    for (const auto& v : board_router_variants()) built = built || v.flit_bits == c.flit_bits;
    if (!built) {
      fail("flit_bits", "this build provides flit_bits=" +
                            std::to_string(board_router_variants().front().flit_bits) +
                            " (rebuild with -DHX_FLIT_BITS=... for others)");
    }
  }
  c.max_packet_flits = get_int(root, "", "max_packet_flits", 2, 64, 16);
  c.nic_crc = get_bool(root, "", "nic_crc", false);
  if (c.nic_crc && c.max_packet_flits < 3) {
    fail("max_packet_flits", "must be at least 3 with nic_crc (a packet is a head, data and its CRC "
                             "trailer), got " + std::to_string(c.max_packet_flits));
  }
  c.clock_ghz = get_double(root, "", "clock_ghz", 0.001, 100.0, 1.5625);
  parse_prices(root, c.prices);

  // The variant fit needs flit_bits, parsed after the router section.
  if (!c.class_vcs.empty() && c.model_vcs() == 0) {
    const int total = std::accumulate(c.class_vcs.begin(), c.class_vcs.end(), 0);
    fail("router.class_vcs", std::to_string(total) + " VCs per port in all, more than this build's variants "
                             "provide (vcs in {" + vc_list + "})");
  }
  if (c.model_vcs() == 0) {
    fail("router.vcs_per_class",
         std::to_string(c.vcs_per_class) + " per class x " + std::to_string(c.classes()) +
             " VC classes (" + topology_name(c.topology) + ") = " +
             std::to_string(c.vcs_per_class * c.classes()) +
             " VCs per port, more than this build's variants provide (vcs in {" + vc_list + "})");
  }
  if (c.topology == Topology::kDragonfly) {
    // Measured on dragonfly-64 (docs/adaptive-routing.md): a smaller threshold diverts uniform
    // traffic that minimal routing carries better; a larger one stops diverting at all.
    if (c.ugal_threshold < 0) c.ugal_threshold = std::min(255, c.class_counts()[0] * c.cable_depth / 2);
    const int need = c.df_terminals + c.df_routers - 1 + c.df_globals;
    if (need > c.radix) {
      fail("switch.radix", "a Dragonfly router needs terminals_per_router + routers_per_group - 1 + "
                           "global_per_router = " + std::to_string(c.df_terminals) + " + " +
                           std::to_string(c.df_routers - 1) + " + " + std::to_string(c.df_globals) + " = " +
                           std::to_string(need) + " ports, more than radix " + std::to_string(c.radix));
    }
  } else if (c.topology == Topology::kMultidim) {
    int largest = 0;
    for (const auto& v : switch_variants()) largest = std::max(largest, v.ports);
    if (c.md_router_ports() > largest) {
      std::string sum = std::to_string(c.md_nics) + " NICs";
      for (const auto& d : c.md_dims) sum += " + " + std::to_string(d.ports()) + " (" + d.name + ")";
      fail("dimensions", "an NPU's router needs " + sum + " = " + std::to_string(c.md_router_ports()) +
                             " ports, more than the largest switch variant built (" + std::to_string(largest) +
                             "): fewer lanes or NICs");
    }
    for (std::size_t k = 0; k < c.md_dims.size(); ++k) {
      auto& d = c.md_dims[k];
      d.cable = d.latency > c.board_latency;
      if (d.depth == 0) d.depth = d.cable ? c.cable_depth : c.board_depth;
      if (d.depth > slots) {
        fail("dimensions[" + std::to_string(k) + "].buffer_depth",
             "must be at most " + std::to_string(slots) + " (the buffer slots built), got " + std::to_string(d.depth));
      }
      if (d.kind == DimKind::kSwitch) {
        try {
          (void)tree_shape(d.size, c.radix, c.up_ports);
        } catch (const std::invalid_argument& e) {
          fail("dimensions[" + std::to_string(k) + "].size", e.what());
        }
      }
    }
  } else if (c.topology != Topology::kTorus) {
    const int tree_ports = c.topology == Topology::kFatTree ? c.fat_tree_nodes
                                                            : 2 * std::max(c.grid_rows, c.grid_cols);
    if (c.topology == Topology::kFatTree || c.grid_rows > 1 || c.grid_cols > 1) {
      try {
        (void)tree_shape(tree_ports, c.radix, c.up_ports);
      } catch (const std::invalid_argument& e) {
        fail(c.up_ports >= 0 && std::string(e.what()).find("taper") != std::string::npos
                 ? "switch.up_ports"
                 : "switch.radix",
             e.what());
      }
    }
  }

  json canon = {{"name", c.name},
                {"topology", topology_name(c.topology)},
                {"switch", {{"radix", c.radix}, {"up_ports", c.up_ports},
                            {"up_select", c.up_hash ? "hash" : "adaptive"}}},
                {"router", {{"vcs_per_class", c.vcs_per_class},
                            {"vc_policy", vc_policy_name(c.vc_policy)},
                            {"routing", c.adaptive ? "adaptive" : "deterministic"},
                            {"buffer_depth", c.board_depth}}},
                {"links", {{"board_latency", c.board_latency}, {"cable_latency", c.cable_latency},
                           {"terminal_latency", c.terminal_latency},
                           {"cable_depth", c.cable_depth}}},
                {"flit_bits", c.flit_bits},
                {"max_packet_flits", c.max_packet_flits},
                {"clock_ghz", c.clock_ghz}};
  if (c.topology == Topology::kFatTree) {
    canon["nodes"] = c.fat_tree_nodes;
    canon["planes"] = c.planes;
  } else if (c.topology == Topology::kDragonfly) {
    canon["dragonfly"] = {{"groups", c.df_groups}, {"routers_per_group", c.df_routers},
                          {"terminals_per_router", c.df_terminals}, {"global_per_router", c.df_globals},
                          {"ugal_threshold", c.ugal_threshold}};
    canon["planes"] = c.planes;
  } else if (c.topology == Topology::kMultidim) {
    json dims = json::array();
    for (const auto& d : c.md_dims) {
      dims.push_back({{"name", d.name}, {"kind", dim_kind_name(d.kind)}, {"size", d.size},
                      {"lanes", d.lanes}, {"latency", d.latency}, {"buffer_depth", d.depth},
                      {"cost_class", d.cost_class}});
    }
    canon["dimensions"] = dims;
    canon["routing_order"] = c.md_order;
    canon["nics"] = c.md_nics;
    if (!c.class_vcs.empty()) {
      canon["router"].erase("vcs_per_class");
      canon["router"]["class_vcs"] = c.class_vcs;
    }
  } else {
    if (c.adaptive) canon["router"]["adaptive_margin"] = c.adaptive_margin_eighths / 8.0;
    if (!c.class_vcs.empty()) {
      canon["router"].erase("vcs_per_class");
      canon["router"]["class_vcs"] = c.class_vcs;
    }
    canon["board"] = {{"rows", c.board_rows}, {"cols", c.board_cols}};
    canon["grid"] = {{"rows", c.grid_rows}, {"cols", c.grid_cols}};
  }
  // Prices only when the configuration (or an override) set some: every report's stamp carries the
  // whole table with the cost (tb/report_io.cpp).
  if (root.contains("prices")) canon["prices"] = root.at("prices");
  // Only when on: the canonical JSON of every configuration without it stays as it was.
  if (c.nic_crc) canon["nic_crc"] = true;
  c.json = canon.dump();
  return c;
}

SystemConfig load_system_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::string text;
  try {
    text = read_input_file(path, "configuration file");
  } catch (const InputFileError& e) {
    throw ConfigError(e.what());
  }
  return parse_system_config(text, path, overrides);
}

}  // namespace hxemu::sysc
