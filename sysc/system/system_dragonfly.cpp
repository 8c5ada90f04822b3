// System::build_dragonfly: the Dragonfly baseline (docs/topology.md) out of the same switch blocks
// as the trees (rtl/switch/hx_switch.sv with the Dragonfly route computer, kind_i = 3).
//
// Per plane (one per NIC rail, each an independent Dragonfly): g groups of a routers; router ports
// 0 .. p-1 go to its terminals, p .. p+a-2 to the other routers of its group (index order, itself
// skipped), p+a-1 .. p+a-1+h-1 are global. Global port k of a group is slot k % h of router k / h,
// and group i reaches group j through k = (j < i ? j : j - 1); spare global ports stay unconnected.
// Local and global links are cables; terminals sit at terminal latency.
//
// One partition per group, holding its routers on every plane and its accelerators' terminals, so
// partitions meet only at cables (the lookahead window of docs/threads-and-processes.md).
#include "sysc/system/system.h"

namespace hxemu::sysc {

int System::add_dragonfly_router(int plane, int group, int router) {
  const int p = cfg_.df_terminals, a = cfg_.df_routers;
  SwitchSetup s;
  s.kind = TreeKind::kDragonfly;
  s.level = SwitchLevel::kSingle;
  s.df_groups = cfg_.df_groups;
  s.df_routers = a;
  s.df_terminals = p;
  s.df_globals = cfg_.df_globals;
  s.df_group = group;
  s.df_router = router;
  s.adaptive = cfg_.adaptive;
  s.ugal_threshold = cfg_.ugal_threshold;
  s.vc = vc_;
  // Terminal ports face a NIC's receive buffer; local and global ports face a router's cable input.
  s.out_depth.assign(cfg_.radix, cfg_.cable_depth);
  for (int t = 0; t < p; ++t) s.out_depth[t] = cfg_.board_depth;
  auto sw = make_switch(cfg_.radix, vc_.vcs, cfg_.flit_bits);
  sw->reset(s);
  const std::string name = (rails_ > 1 ? "df.p" + std::to_string(plane) + ".g" : "df.g") +
                           std::to_string(group) + ".r" + std::to_string(router);
  const int b = net_.add_block(std::move(sw), name);
  record_block(b, {BlockKind::kSwitch, -1, -1, static_cast<int>(switch_setup_.size())});
  switch_setup_.push_back(s);
  return b;
}

void System::build_dragonfly(TerminalFactory& terminals) {
  const int g = cfg_.df_groups, a = cfg_.df_routers, p = cfg_.df_terminals, h = cfg_.df_globals;
  const int local0 = p, global0 = p + a - 1;
  node_partition_.assign(nodes(), 0);
  // routers[plane][group * a + router]: block ids.
  std::vector<std::vector<int>> routers(rails_, std::vector<int>(static_cast<std::size_t>(g) * a, -1));
  for (int grp = 0; grp < g; ++grp) {
    Partition part;
    part.name = "group" + std::to_string(grp);
    for (int k = 0; k < rails_; ++k) {
      for (int r = 0; r < a; ++r) {
        const int b = add_dragonfly_router(k, grp, r);
        routers[k][grp * a + r] = b;
        part.blocks.push_back(b);
      }
    }
    for (int r = 0; r < a; ++r) {
      for (int t = 0; t < p; ++t) {
        const int node = (grp * a + r) * p + t;
        node_partition_[node] = static_cast<int>(partitions_.size());
        for (int k = 0; k < rails_; ++k) {
          // A switch input holds cable_depth flits per VC, as for the fat tree's endpoints.
          const int tb = add_terminal(terminals, node, k, cfg_.cable_depth);
          const PortRef at{routers[k][grp * a + r], t};
          net_.connect({tb, 0}, at, cfg_.terminal_latency, LinkClass::kTerminal);
          attach_[node * rails_ + k] = at;
          part.blocks.push_back(tb);
        }
      }
    }
    partitions_.push_back(std::move(part));
  }
  // The local port of router `from` that leads to router `to` of the same group.
  auto local_port = [local0](int from, int to) { return local0 + (to < from ? to : to - 1); };
  for (int k = 0; k < rails_; ++k) {
    for (int grp = 0; grp < g; ++grp) {
      for (int r = 0; r < a; ++r) {
        for (int q = r + 1; q < a; ++q) {
          net_.connect({routers[k][grp * a + r], local_port(r, q)}, {routers[k][grp * a + q], local_port(q, r)},
                       cfg_.cable_latency, LinkClass::kCable);
        }
      }
      // Global links to the higher-numbered groups (the lower ones connected this group already).
      for (int j = grp + 1; j < g; ++j) {
        const int ki = j - 1;    // this group's global port toward j (j > grp)
        const int kj = grp;      // j's global port toward this group (grp < j)
        net_.connect({routers[k][grp * a + ki / h], global0 + ki % h},
                     {routers[k][j * a + kj / h], global0 + kj % h}, cfg_.cable_latency, LinkClass::kCable);
      }
    }
  }
}

}  // namespace hxemu::sysc
