// The network's cost, computed from the configuration alone (no System is built; docs/cost.md).
//
// HammingMesh, torus, fat tree and Dragonfly: what the configuration builds, counted -- switches by
// radix (and tree level), switch ports, on-board links, cables by class, NICs -- times the unit
// prices of cfg.prices (sysc/system/price_table.h).
//
// multidim: LIBRA's model (Won et al., LIBRA ISPASS'24; its public cost model). Per dimension d,
// the bandwidth per NPU bw_d (GB/s) = the links one NPU has into it (MdDimension::ports(): Ring
// 2L, FC (n-1)L, Switch L) x the link's payload rate; LIBRA counts blocks of links:
//   Ring    N/n blocks of 2n links of bw_d/2
//   FC      N/n blocks of n(n-1) links of bw_d/(n-1)
//   Switch  one block per index of the outer dimensions, of (the NPUs below it) links of bw_d
// so every kind puts N x bw_d GB/s on links, priced at the dimension's cost class's link $/GB/s;
// a Switch dimension adds as much again at the class's switch $/GB/s and, in the pod class, at
// its NIC $/GB/s.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/system_config.h"

namespace hxemu::sysc {

// One priced item: count x unit price.
struct CostItem {
  std::string key;        // machine name, e.g. "switch_port_radix8", "copper_cable"
  std::string what;       // for people, e.g. "switch ports (radix 8)"
  long long count = 0;
  double unit_usd = 0;
  double usd = 0;         // count x unit_usd
};

// Switches of one radix, by tree level (the multidim routers inside the NPUs are not counted).
struct SwitchCount {
  int single = 0, leaf = 0, spine = 0;   // single-switch trees; two-level trees' leaves and spines
  int total() const { return single + leaf + spine; }
};

// One multidim dimension under LIBRA's model.
struct DimCost {
  std::string name, kind, cost_class;
  int size = 0;
  double bw_gbs = 0;                       // per NPU
  long long blocks = 0, links_per_block = 0;
  double link_gbs = 0;                     // per LIBRA link
  double link_usd_per_gbs = 0, switch_usd_per_gbs = 0, nic_usd_per_gbs = 0;
  double link_usd = 0, switch_usd = 0, nic_usd = 0, usd = 0;
  // What the emulator builds for it (for reference; not priced): links and Switch-dimension switches.
  long long links = 0, switches = 0;
};

struct NetworkCost {
  std::string model;                       // "counts" or "libra"
  int accelerators = 0;
  int nics_per_accelerator = 0;
  double injection_gbs = 0;                // per accelerator: its NICs x the link payload rate
  // Counts ("counts" model; multidim: Switch-dimension switches and NICs for reference only).
  std::map<int, SwitchCount> switches;     // by radix
  long long switch_ports = 0;              // ports of the switches counted (radix each)
  long long switch_ports_used = 0;         // of which connected
  long long pcb_links = 0;                 // on-board router-to-router links
  long long copper_cables = 0;             // board/NIC to switch, board to board, Dragonfly local
  long long optical_cables = 0;            // switch to switch: two-level trees, Dragonfly global
  long long nics = 0;
  std::vector<CostItem> items;             // "counts" model
  std::vector<DimCost> dims;               // "libra" model
  double total_usd = 0;
  double usd_per_accelerator = 0;
  double usd_per_injection_gbs = 0;        // total / (accelerators x injection_gbs)
  PriceTable prices;                       // the prices it was computed with

  nlohmann::json json() const;
  // A few lines, each starting with `indent`.
  std::string text(const std::string& indent = "  ") const;
};

// Throws std::invalid_argument naming the field for what a parsed configuration cannot hold (a
// hand-built one with a Switch dimension in the chiplet class, or a radix without a port price).
NetworkCost network_cost(const SystemConfig& cfg);

// The price table as JSON, in the shape of the configuration's "prices" object.
nlohmann::json prices_json(const PriceTable& p);

}  // namespace hxemu::sysc
