// SystemConfig: a whole emulated machine as described by a JSON configuration file (configs/*.json),
// validated once. Every error names the field and the values it allows.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sysc/blocks/board_router.h"
#include "sysc/system/price_table.h"
#include "sysc/system/vc_plan.h"

namespace hxemu::sysc {

enum class Topology : int { kHammingMesh = 0, kTorus = 1, kFatTree = 2, kDragonfly = 3, kMultidim = 4 };
const char* topology_name(Topology t);

// A network dimension of a multi-dimensional platform (topology "multidim", docs/multidim.md; Won
// et al., LIBRA): `size` NPUs per group, joined as a bidirectional Ring, FullyConnected, or on a
// Switch; `lanes` parallel links per neighbour (Ring, FC) or switch planes (Switch) carry its
// bandwidth, `latency` cycles per link.
enum class DimKind : int { kRing = 0, kFullyConnected = 1, kSwitch = 2 };
const char* dim_kind_name(DimKind k);   // "ring", "fc", "switch"
struct MdDimension {
  std::string name;
  DimKind kind = DimKind::kRing;
  int size = 2;
  int lanes = 1;
  int latency = 1;
  int depth = 8;        // buffer depth per VC of the inputs its links feed
  bool cable = false;   // link class: cable when latency > links.board_latency, else board
  // LIBRA cost class (docs/cost.md): "chiplet", "package", "node" or "pod"; by default by position
  // from the outermost dimension (pod, node, package, chiplet).
  std::string cost_class;
  // Router ports of one NPU in this dimension, and links leaving one NPU into it.
  int ports() const {
    return kind == DimKind::kRing ? 2 * lanes : kind == DimKind::kFullyConnected ? (size - 1) * lanes : lanes;
  }
};

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SystemConfig {
  std::string name;
  std::string source;                 // the file it came from (or "built-in")
  std::string json;                   // canonical JSON of everything below (for reports)
  Topology topology = Topology::kHammingMesh;
  // HammingMesh and torus: boards of board_rows x board_cols accelerators (a x b) in a grid of
  // grid_rows x grid_cols boards (x x y).
  int board_rows = 2, board_cols = 2;
  int grid_rows = 1, grid_cols = 1;
  // fat tree: endpoints
  int fat_tree_nodes = 0;
  // fat tree and Dragonfly: independent networks, one per accelerator port: NIC k of every node
  // sits on plane k (4 planes give the injection bandwidth of a HammingMesh node's four ports)
  int planes = 1;
  // Dragonfly (docs/topology.md): `df_groups` groups of `df_routers` routers, fully connected
  // inside the group; each router has `df_terminals` accelerators and `df_globals` global ports
  // (a power of two), one global link per pair of groups. nodes = groups x routers x terminals.
  int df_groups = 0, df_routers = 0, df_terminals = 0, df_globals = 0;
  // Multidim (docs/multidim.md): dimensions innermost first (at most 4); node = sum of coordinate
  // x stride, stride of dimension 0 = 1. Heads correct dimensions in md_order; an NPU has md_nics
  // NICs (router ports 0 .. md_nics-1), then each dimension's ports in dimension order.
  std::vector<MdDimension> md_dims;
  std::vector<int> md_order;
  int md_nics = 4;
  int md_router_ports() const;        // NICs + every dimension's ports
  int md_stride(int d) const;         // node-id stride of dimension d
  // UGAL-L (router.routing "adaptive"): a packet leaves its source router non-minimally when the
  // minimal port's occupancy exceeds twice the candidate's plus this many flits. Default: half a
  // class's buffering at a cable input, vcs_per_class x cable_depth / 2 (docs/adaptive-routing.md).
  int ugal_threshold = 0;
  // switches
  int radix = 16;
  int up_ports = -1;                  // per leaf; -1 = radix/2 (non-blocking)
  bool up_hash = false;               // up-port choice: hash of destination, else adaptive
  // VCs and buffers
  int vcs_per_class = 2;
  // router.class_vcs: VCs of each class, one count per class (empty: vcs_per_class in each). Lets a
  // design give the classes that queue behind tree switches more VCs than the others.
  std::vector<int> class_vcs;
  VcPolicy vc_policy = VcPolicy::kDynamic;
  // Board routers of a HammingMesh (and mesh, HyperX): minimal adaptive between the X-first and
  // Y-first port, north-last (docs/adaptive-routing.md); Dragonfly routers: UGAL-L at the source
  // router; torus routers: minimal adaptive with cumulative dateline classes, north-last.
  bool adaptive = false;
  // The run may fail links (docs/faults.md: traffic's --fail-link sets it). Without it, the board
  // routers of a deterministic HammingMesh or mesh are the DOR-only variant (hx_board_router
  // DOR_ONLY=1, about 10% fewer instructions per cycle), which has no link-failure inputs.
  bool link_failures = false;
  // Board routers from the DOR-only variant when the configuration allows it and the build has its
  // shape (README "Build variants"); false builds every router from the general variant (the same
  // results, for comparing the two).
  bool specialised_models = true;
  // Board and torus routers under adaptive routing take the Y-first port only when it has more
  // free credits than the X-first one by more than this many eighths of the X-first port's
  // buffering in the class (router.adaptive_margin x 8; docs/adaptive-routing.md).
  int adaptive_margin_eighths = kDefaultAdaptiveMarginEighths;
  int board_depth = 8;                // flits per VC at inputs fed by on-board traces / NICs
  int cable_depth = 32;               // flits per VC at inputs fed by cables
  int flit_bits = 256;
  int max_packet_flits = 16;
  // "nic_crc": every NIC ends each packet with a CRC trailer flit and counts the packets whose CRC
  // does not match on arrival (rtl/nic/hx_nic.sv crc_en_i). One flit per packet then carries no
  // payload (max_packet_flits - 2 data flits), and max_packet_flits must be at least 3.
  bool nic_crc = false;
  // link latencies (cycles from the sender's output register to the receiver's input)
  int board_latency = 1;
  int cable_latency = 10;
  int terminal_latency = 1;           // router <-> NIC
  double clock_ghz = 1.5625;
  // Test only, never read from a file: put every packet in one VC class (no escalation at trees,
  // no dateline), which breaks deadlock freedom -- to check that the watchdog catches a deadlock.
  bool test_unsafe_single_class = false;
  // Unit prices of the network's cost (sysc/system/network_cost.h): the defaults, or "prices".
  PriceTable prices;

  int nodes() const;
  int classes() const;                // VC classes the topology needs
  int model_vcs() const;              // VCs per port of the verilated variant used
  std::vector<int> class_counts() const;   // VCs of each class (class_vcs, or vcs_per_class each)
  VcPlan vc_plan() const;
  // Payload bandwidth of one link direction in Gb/s.
  double link_gbps() const { return clock_ghz * flit_bits; }
};

// Parses and validates; throws ConfigError. `overrides` are "dotted.key=value" settings applied to
// the JSON before validation (value parsed as JSON, else taken as a string), e.g.
// "router.vcs_per_class=4".
SystemConfig parse_system_config(const std::string& json_text, const std::string& source,
                                 const std::vector<std::string>& overrides = {});
SystemConfig load_system_config(const std::string& path,
                                const std::vector<std::string>& overrides = {});

}  // namespace hxemu::sysc
