// PriceTable: the unit prices the network's cost is computed from (sysc/system/network_cost.h,
// docs/cost.md). A configuration's optional "prices" object overrides any of them, and so does
// `--set prices.<field>=<value>`.
//
// Two models, one per kind of platform:
//   - HammingMesh, torus, fat tree, Dragonfly: $ per item -- switch chassis, switch port (by the
//     switch's radix), on-board (PCB) link, passive copper cable, optical cable, NIC. These defaults
//     are illustrative, not published figures (docs/cost.md says why each is where it is).
//   - multidim: LIBRA's $ per GB/s of per-NPU bandwidth, per cost class (Won et al., LIBRA ISPASS'24,
//     its public cost-model files): chiplet link 2; package link 4, switch 13; node link 4, switch
//     13; pod link 7.8, switch 18, NIC 31.6.
#pragma once

#include <map>

namespace hxemu::sysc {

struct PriceTable {
  // $ per item.
  double switch_chassis = 4000;   // per switch of any radix: enclosure, power, fans, management
  // $ per switch port, keyed by the switch's radix (every radix a configuration may give).
  std::map<int, double> switch_port = {{4, 1200}, {8, 1100}, {16, 1000}, {32, 900}, {64, 800}};
  double pcb_link = 10;           // an on-board trace between two routers
  double copper_cable = 150;      // passive copper: board to switch, NIC to switch, board to board
  double optical_cable = 800;     // optical: switch to switch
  double nic = 500;               // per NIC (one per network port of an accelerator)
  // LIBRA's $ per GB/s of per-NPU bandwidth, per cost class. The chiplet class has no switch
  // price (a Switch dimension there is refused) and only the pod class has NICs.
  double chiplet_link = 2;
  double package_link = 4, package_switch = 13;
  double node_link = 4, node_switch = 13;
  double pod_link = 7.8, pod_switch = 18, pod_nic = 31.6;
};

// A multidim dimension's cost class when the configuration gives none, by position counted from
// the outermost (pod, node, package, chiplet; innermost of 5 or more: chiplet), as in LIBRA's
// example networks: [package, node, pod] for 3 dimensions, [chiplet, package, node, pod] for 4.
inline const char* default_cost_class(int dim, int dims) {
  static const char* const kFromOutside[] = {"pod", "node", "package", "chiplet"};
  const int k = dims - 1 - dim;
  return kFromOutside[k < 0 ? 0 : k > 3 ? 3 : k];
}

}  // namespace hxemu::sysc
