// System::build_multidim: a multi-dimensional platform (docs/multidim.md; Won et al., LIBRA) out of
// the same switch blocks as the trees: every NPU's router is an hx_switch with the multidim route
// computer (kind_i = 4, rtl/route/hx_route_multidim.sv), the smallest radix built that holds its
// ports; a Switch dimension's groups sit on hx_switch trees routing by the destination's index in
// that dimension (kind_i = 5), one tree per lane.
//
// Router ports: the NPU's NICs (port r = rail r), then per dimension, in dimension order: Ring 2L
// (L lanes to coordinate +1, L to -1), FC (n-1)L (L to each other member in coordinate order),
// Switch L (lane l to the group's l-th switch).
//
// Partitions: one per index of the outermost dimension (its NPUs, their NICs and the switches of
// inner Switch dimensions); the switches of an outermost Switch dimension form one tree partition
// per group and lane. Partitions meet only at the outermost dimension's links.
#include <algorithm>

#include "sysc/system/system.h"

namespace hxemu::sysc {

namespace {

// The smallest switch radix this build provides that holds `ports`.
int router_radix(int ports, int vcs, int flit_bits) {
  int best = 0;
  for (const auto& v : switch_variants()) {
    if (v.vcs == vcs && v.flit_bits == flit_bits && v.ports >= ports && (best == 0 || v.ports < best)) {
      best = v.ports;
    }
  }
  if (best == 0) {
    throw std::invalid_argument("multidim: no switch variant with at least " + std::to_string(ports) +
                                " ports and " + std::to_string(vcs) + " VCs is built (-DHX_SWITCH_RADICES=...)");
  }
  return best;
}

}  // namespace

int System::md_coord(int node, int d) const {
  return (node / cfg_.md_stride(d)) % cfg_.md_dims.at(d).size;
}

int System::md_port_base(int d) const { return md_base_.at(d); }

int System::md_npu_link_dim(int link) const {
  if (cfg_.topology != Topology::kMultidim) return -1;
  const PortRef from = net_.link_info(link).from;
  const auto& rec = blocks_.at(from.block);
  if (rec.kind != BlockKind::kSwitch || switch_setup_.at(rec.index).kind != TreeKind::kMultidim) return -1;
  for (std::size_t d = 0; d < cfg_.md_dims.size(); ++d) {
    if (from.port >= md_base_[d] && from.port < md_base_[d] + cfg_.md_dims[d].ports()) return static_cast<int>(d);
  }
  return -1;
}

void System::build_multidim(TerminalFactory& terminals) {
  const auto& dims = cfg_.md_dims;
  const int D = static_cast<int>(dims.size());
  const int n = nodes();
  md_base_.assign(4, 0);
  int ports = rails_;
  for (int d = 0; d < D; ++d) {
    md_base_[d] = ports;
    ports += dims[d].ports();
  }
  const int radix = router_radix(ports, vc_.vcs, cfg_.flit_bits);
  router_block_.assign(n, -1);
  node_partition_.assign(n, 0);

  const int outer = D - 1;
  const int per_part = cfg_.md_stride(outer);

  // NPU routers and their NICs, one partition per outermost index.
  for (int k = 0; k < dims[outer].size; ++k) {
    Partition part;
    part.name = dims[outer].name + std::to_string(k);
    for (int node = k * per_part; node < (k + 1) * per_part; ++node) {
      SwitchSetup s;
      s.kind = TreeKind::kMultidim;
      s.level = SwitchLevel::kSingle;
      for (int d = 0; d < D; ++d) {
        s.md_size[d] = dims[d].size;
        s.md_kind[d] = static_cast<int>(dims[d].kind);
        s.md_lanes[d] = dims[d].lanes;
        s.md_base[d] = md_base_[d];
        s.md_pos[d] = md_coord(node, d);
        s.md_order[d] = cfg_.md_order.at(d);
      }
      // Absent dimensions (size 1) never differ; their order slots repeat dimension 0.
      for (int d = D; d < 4; ++d) s.md_order[d] = cfg_.md_order.at(0);
      s.vc = vc_;
      s.out_depth.assign(radix, cfg_.board_depth);
      for (int d = 0; d < D; ++d) {
        for (int p = 0; p < dims[d].ports(); ++p) s.out_depth[md_base_[d] + p] = dims[d].depth;
      }
      auto r = make_switch(radix, vc_.vcs, cfg_.flit_bits);
      r->reset(s);
      const int b = net_.add_block(std::move(r), "npu" + std::to_string(node));
      record_block(b, {BlockKind::kSwitch, -1, -1, static_cast<int>(switch_setup_.size())});
      switch_setup_.push_back(s);
      router_block_[node] = b;
      part.blocks.push_back(b);
      node_partition_[node] = static_cast<int>(partitions_.size());
    }
    for (int node = k * per_part; node < (k + 1) * per_part; ++node) {
      for (int rail = 0; rail < rails_; ++rail) {
        const int t = add_terminal(terminals, node, rail, cfg_.board_depth);
        net_.connect({t, 0}, {router_block_[node], rail}, cfg_.terminal_latency, LinkClass::kTerminal);
        attach_[node * rails_ + rail] = {router_block_[node], rail};
        part.blocks.push_back(t);
      }
    }
    partitions_.push_back(std::move(part));
  }

  // Links and switches of each dimension, group by group (a group: the NPUs that differ only in
  // coordinate d; its first member has coordinate 0 there).
  for (int d = 0; d < D; ++d) {
    const MdDimension& dim = dims[d];
    const int stride = cfg_.md_stride(d), L = dim.lanes, base = md_base_[d];
    const LinkClass cls = dim.cable ? LinkClass::kCable : LinkClass::kBoard;
    int group = 0;
    for (int first = 0; first < n; ++first) {
      if (md_coord(first, d) != 0) continue;
      auto member = [&](int i) { return router_block_[first + i * stride]; };
      if (dim.kind == DimKind::kRing) {
        // Lane l of "+" at member i joins lane l of "-" at member i+1 (mod size).
        for (int i = 0; i < dim.size; ++i) {
          for (int l = 0; l < L; ++l) {
            net_.connect({member(i), base + l}, {member((i + 1) % dim.size), base + L + l}, dim.latency, cls);
          }
        }
      } else if (dim.kind == DimKind::kFullyConnected) {
        auto peer_port = [&](int from, int to) { return base + (to < from ? to : to - 1) * L; };
        for (int i = 0; i < dim.size; ++i) {
          for (int j = i + 1; j < dim.size; ++j) {
            for (int l = 0; l < L; ++l) {
              net_.connect({member(i), peer_port(i, j) + l}, {member(j), peer_port(j, i) + l}, dim.latency, cls);
            }
          }
        }
      } else {
        for (int l = 0; l < L; ++l) {
          // The system's tree settings (radix, taper, up-port policy, VCs), with the dimension's
          // latency and buffers.
          TreeSpec spec = tree_spec(dim.name + ".g" + std::to_string(group) + (L > 1 ? ".l" + std::to_string(l) : ""),
                                    TreeKind::kMultidimSwitch, dim.size);
          spec.md_dim = d;
          spec.internal_latency = dim.latency;
          spec.depth = dim.depth;
          spec.edge_depth = dim.depth;
          const BuiltTree t = build_tree(net_, spec);
          Partition tree_part;
          std::vector<int>& into = d == outer ? tree_part.blocks : partitions_[node_partition_[first]].blocks;
          add_switches(t, spec, into);
          for (int i = 0; i < dim.size; ++i) {
            net_.connect({member(i), base + l}, t.tree_ports[i], dim.latency, cls);
          }
          trees_.push_back({spec.name, TreeKind::kMultidimSwitch, group * L + l, t});
          if (d == outer) {
            tree_part.name = spec.name;
            tree_part.is_tree = true;
            partitions_.push_back(std::move(tree_part));
          }
        }
      }
      ++group;
    }
  }
}

}  // namespace hxemu::sysc
