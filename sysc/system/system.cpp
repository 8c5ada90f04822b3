#include "sysc/system/system.h"

#include <algorithm>
#include <stdexcept>

#include "sysc/dist/ghost_block.h"
#include "sysc/dist/ranks.h"

namespace hxemu::sysc {

namespace {
}  // namespace

System::System(const SystemConfig& cfg, TerminalFactory& terminals)
    : cfg_(cfg), vc_(cfg.vc_plan()), rank_(Ranks::rank()), ranks_(Ranks::size()) {
  // A fat tree has a plane per rail (as many as both the configuration and the terminals have).
  // So does a Dragonfly.
  const bool planes = cfg_.topology == Topology::kFatTree || cfg_.topology == Topology::kDragonfly;
  const bool multidim = cfg_.topology == Topology::kMultidim;
  rails_ = planes     ? std::clamp(std::min(terminals.rails(), cfg_.planes), 1, 4)
           : multidim ? std::clamp(std::min(terminals.rails(), cfg_.md_nics), 1, 4)
                      : std::clamp(terminals.rails(), 1, 4);
  terminal_block_.assign(static_cast<std::size_t>(cfg_.nodes()) * rails_, -1);
  attach_.assign(static_cast<std::size_t>(cfg_.nodes()) * rails_, PortRef{});
  const int n = cfg_.nodes();
  global_index_.assign(n, 0);
  node_at_global_.assign(n, 0);
  if (planes) {
    int k = 1;
    while ((k + 1) * (k + 1) <= n) ++k;
    global_rows_ = k * k == n ? k : 1;
    global_cols_ = k * k == n ? k : n;
    for (int i = 0; i < n; ++i) global_index_[i] = node_at_global_[i] = i;
  } else if (multidim) {
    // The innermost dimension along a row: node = row * size_0 + col.
    global_cols_ = cfg_.md_dims.front().size;
    global_rows_ = n / global_cols_;
    for (int i = 0; i < n; ++i) global_index_[i] = node_at_global_[i] = i;
  } else {
    global_rows_ = cfg_.grid_rows * cfg_.board_rows;
    global_cols_ = cfg_.grid_cols * cfg_.board_cols;
    for (int node = 0; node < n; ++node) {
      const NodeCoord c = coord(node);
      const int idx = (c.grid_row * cfg_.board_rows + c.local_row) * global_cols_ +
                      c.grid_col * cfg_.board_cols + c.local_col;
      global_index_[node] = idx;
      node_at_global_[idx] = node;
    }
  }
  if (cfg_.topology == Topology::kFatTree) {
    build_fat_tree(terminals);
  } else if (cfg_.topology == Topology::kDragonfly) {
    build_dragonfly(terminals);
  } else if (multidim) {
    build_multidim(terminals);
  } else {
    build_hxmesh_or_torus(terminals);
  }
  assign_ranks();
}

int System::rank_for(bool is_tree, int index, int boards, int trees) const {
  return is_tree ? index * ranks_ / std::max(trees, 1) : index * ranks_ / std::max(boards, 1);
}

void System::ghost_if_remote(const Partition& p, int rank) {
  if (rank == rank_) return;
  for (int b : p.blocks) {
    if (blocks_.at(b).kind == BlockKind::kTerminal) continue;   // testbench/NIC objects stay
    LinkBlock& blk = net_.block(b);
    if (dynamic_cast<GhostBlock*>(&blk) != nullptr) continue;     // built as a ghost
    net_.replace_block(b, std::make_unique<GhostBlock>(blk.ports(), blk.vcs(), blk.flit_bits()));
  }
}

void System::assign_ranks() {
  int boards = 0, trees = 0;
  for (const auto& p : partitions_) (p.is_tree ? trees : boards)++;
  const bool ghost_here = cfg_.topology == Topology::kFatTree || cfg_.topology == Topology::kDragonfly ||
                          cfg_.topology == Topology::kMultidim;
  if (!ghost_here && trees != expected_trees_) {
    throw std::logic_error("System: built " + std::to_string(trees) + " tree partitions, expected " +
                           std::to_string(expected_trees_) + " (rank assignment would disagree)");
  }
  partition_rank_.assign(partitions_.size(), 0);
  int bi = 0, ti = 0;
  for (std::size_t p = 0; p < partitions_.size(); ++p) {
    const bool tree = partitions_[p].is_tree;
    partition_rank_[p] = rank_for(tree, tree ? ti++ : bi++, boards, trees);
    // The HammingMesh and torus builders ghost as they go (peak memory); the fat tree's and the
    // Dragonfly's here.
    if (ghost_here) ghost_if_remote(partitions_[p], partition_rank_[p]);
  }
  block_partition_.assign(static_cast<std::size_t>(net_.blocks()), -1);
  for (std::size_t p = 0; p < partitions_.size(); ++p) {
    for (int b : partitions_[p].blocks) block_partition_[b] = static_cast<int>(p);
  }
}

NodeCoord System::coord(int node) const {
  NodeCoord c;
  if (cfg_.topology == Topology::kFatTree) return c;
  if (cfg_.topology == Topology::kMultidim) {
    // {dim 0, dim 1, dim 2, dim 3}: the route word hx_route_multidim reads.
    int idx[4] = {0, 0, 0, 0};
    for (std::size_t d = 0; d < cfg_.md_dims.size(); ++d) idx[d] = md_coord(node, static_cast<int>(d));
    return {idx[0], idx[1], idx[2], idx[3]};
  }
  if (cfg_.topology == Topology::kDragonfly) {
    // {group, router in the group, terminal, 0}: the route word hx_route_dragonfly reads.
    const int per_router = cfg_.df_terminals;
    const int router = node / per_router;
    c.grid_row = router / cfg_.df_routers;
    c.grid_col = router % cfg_.df_routers;
    c.local_row = node % per_router;
    return c;
  }
  const int per_board = cfg_.board_rows * cfg_.board_cols;
  const int board = node / per_board;
  const int local = node % per_board;
  c.grid_row = board / cfg_.grid_cols;
  c.grid_col = board % cfg_.grid_cols;
  c.local_row = local / cfg_.board_cols;
  c.local_col = local % cfg_.board_cols;
  return c;
}

std::uint32_t System::route_of(int node) const {
  return pack_coord(coord(node));
}

std::array<int, 3> System::connections_per_class() const {
  std::array<int, 3> n{};
  for (int l = 0; l < net_.links(); l += 2) ++n[static_cast<int>(net_.link_info(l).cls)];
  return n;
}

int System::add_node_block(int node, std::unique_ptr<LinkBlock> block, const std::string& name) {
  if (node < 0 || node >= nodes()) throw std::out_of_range("add_node_block: no node " + std::to_string(node));
  const int b = net_.add_block(std::move(block), name);
  net_.bind_clock(b, net_.domain_clock(node_partition_[node]));
  record_block(b, {BlockKind::kTerminal, node, -1, -1});
  partitions_[node_partition_[node]].blocks.push_back(b);
  block_partition_.resize(static_cast<std::size_t>(net_.blocks()), -1);
  block_partition_[b] = node_partition_[node];
  return b;
}

void System::record_block(int block, const BlockRecord& rec) {
  if (static_cast<int>(blocks_.size()) < net_.blocks()) blocks_.resize(net_.blocks());
  blocks_.at(block) = rec;
}

bool System::quiet() const {
  bool q = true;
  for (int b = 0; b < net_.blocks() && q; ++b) {
    if (owns_block(b) && !net_.block(b).drained()) q = false;
  }
  for (int l = 0; l < net_.links() && q; ++l) {
    if (owns_block(net_.link_info(l).to.block) && net_.link(l).flits_in_flight() != 0) q = false;
  }
  return ranks_ > 1 ? Ranks::all(q) : q;
}

bool System::any_error() const {
  bool e = false;
  for (int b = 0; b < net_.blocks() && !e; ++b) {
    if (owns_block(b) && net_.block(b).error()) e = true;
  }
  return ranks_ > 1 ? Ranks::any(e) : e;
}

std::uint64_t System::flits_moved() const {
  const std::uint64_t m = net_.flits_moved();
  return ranks_ > 1 ? Ranks::sum(m) : m;
}

int System::add_terminal(TerminalFactory& terminals, int node, int rail, int inject_credits) {
  TerminalSpec ts;
  ts.node = node;
  ts.rail = rail;
  ts.vc = vc_;
  ts.inject_credits = inject_credits;
  ts.eject_depth = cfg_.board_depth;
  ts.flit_bits = cfg_.flit_bits;
  ts.max_packet_flits = cfg_.max_packet_flits;
  ts.nic_crc = cfg_.nic_crc;
  std::uint64_t* clock = net_.domain_clock(node_partition_.at(node));
  ts.clock = clock;
  ts.partition = node_partition_.at(node);
  auto t = terminals.make_terminal(ts);
  if (!t || t->ports() != 1) throw std::logic_error("a terminal must be a one-port block");
  const int b = net_.add_block(std::move(t), rails_ > 1 ? "node" + std::to_string(node) + ".nic" +
                                                             std::to_string(rail)
                                                       : "node" + std::to_string(node));
  net_.bind_clock(b, clock);
  record_block(b, {BlockKind::kTerminal, node, rail, -1});
  terminal_block_[node * rails_ + rail] = b;
  return b;
}

int System::add_router(const NodeCoord& c, int node, bool remote) {
  RouterSetup s;
  s.mode = cfg_.topology == Topology::kTorus ? RouteMode::kTorus : RouteMode::kHammingMesh;
  s.adaptive = cfg_.adaptive;
  s.margin_eighths = cfg_.adaptive_margin_eighths;
  s.grid_row = c.grid_row;
  s.grid_col = c.grid_col;
  s.local_row = c.local_row;
  s.local_col = c.local_col;
  s.grid_rows = cfg_.grid_rows;
  s.grid_cols = cfg_.grid_cols;
  s.board_rows = cfg_.board_rows;
  s.board_cols = cfg_.board_cols;
  s.vc = vc_;
  // Credits toward each neighbour: on-board neighbours and the NIC have board-depth buffers; an
  // edge port faces a cable (a tree switch, or in the torus the next board), cable depth.
  const bool hx = cfg_.topology == Topology::kHammingMesh;
  const bool row_trees = hx && cfg_.grid_cols > 1;
  const bool col_trees = hx && cfg_.grid_rows > 1;
  const bool torus = cfg_.topology == Topology::kTorus;
  auto edge_depth = [&](bool trees) { return (trees || torus) ? cfg_.cable_depth : cfg_.board_depth; };
  s.out_depth[kPortN] = c.local_row == 0 ? edge_depth(col_trees) : cfg_.board_depth;
  s.out_depth[kPortS] = c.local_row == cfg_.board_rows - 1 ? edge_depth(col_trees) : cfg_.board_depth;
  s.out_depth[kPortW] = c.local_col == 0 ? edge_depth(row_trees) : cfg_.board_depth;
  s.out_depth[kPortE] = c.local_col == cfg_.board_cols - 1 ? edge_depth(row_trees) : cfg_.board_depth;
  for (int k = 0; k < rails_; ++k) s.out_depth[kPortLocal + k] = cfg_.board_depth;
  // Every link is symmetric (a neighbour's buffers toward us are as deep as ours toward it), so the
  // deepest of these is the most a neighbour fills of a router's buffers. All routers of a system
  // take the smallest built variant that holds the deepest of any router (one model's code in the
  // caches, not two: on hx4mesh-1024 mixing 8-slot and 32-slot routers cost 5% CPU).
  int slots = cfg_.board_depth;
  if (row_trees || col_trees || torus) slots = std::max(slots, cfg_.cable_depth);
  for (int p = 0; p < kMeshPorts + rails_; ++p) slots = std::max(slots, s.out_depth[p]);
  // Deterministic HammingMesh / mesh routing with every link up: the variant without the torus,
  // adaptive and failed-link logic, when the build has one (the same routes, cycle for cycle).
  const bool dor = cfg_.specialised_models && s.mode == RouteMode::kHammingMesh && !s.adaptive &&
                   !cfg_.link_failures;
  const std::string name = "router" + std::to_string(node);
  int b = -1;
  if (remote && router_built_) {
    // Stepped by another rank: no model. Building and dropping 8,192 of them cost each rank of
    // hx4mesh-16k under mpirun -np 2 about 0.1 s of CPU (describe: 2.72 s -> 2.55 s whole). Every
    // router of a system has the same shape.
    b = net_.add_block(std::make_unique<GhostBlock>(kMeshPorts + rails_, vc_.vcs, cfg_.flit_bits), name);
  } else {
    auto r = make_board_router(vc_.vcs, cfg_.flit_bits, rails_, slots, dor);
    dor_only_routers_ = dor_only_routers_ || r->dor_only();
    router_built_ = true;
    r->reset(s);
    b = net_.add_block(std::move(r), name);
  }
  record_block(b, {BlockKind::kRouter, -1, -1, static_cast<int>(router_setup_.size())});
  router_setup_.push_back(s);
  return b;
}

TreeSpec System::tree_spec(const std::string& name, TreeKind kind, int ports) const {
  TreeSpec t;
  t.name = name;
  t.kind = kind;
  t.tree_ports = ports;
  t.radix = cfg_.radix;
  t.up_ports = cfg_.up_ports;
  t.up_hash = cfg_.up_hash;
  t.grid_rows = cfg_.grid_rows;
  t.grid_cols = cfg_.grid_cols;
  t.board_rows = cfg_.board_rows;
  t.board_cols = cfg_.board_cols;
  t.vc = vc_;
  t.flit_bits = cfg_.flit_bits;
  t.internal_latency = cfg_.cable_latency;
  t.depth = cfg_.cable_depth;
  t.edge_depth = kind == TreeKind::kFatTree ? cfg_.board_depth : cfg_.cable_depth;
  return t;
}

int System::add_switches(const BuiltTree& t, const TreeSpec& spec, std::vector<int>& partition) {
  (void)spec;
  for (std::size_t i = 0; i < t.switches.size(); ++i) {
    record_block(t.switches[i], {BlockKind::kSwitch, -1, -1, static_cast<int>(switch_setup_.size())});
    switch_setup_.push_back(t.setups[i]);
    partition.push_back(t.switches[i]);
  }
  return static_cast<int>(t.switches.size());
}

void System::build_hxmesh_or_torus(TerminalFactory& terminals) {
  const int a = cfg_.board_rows, b = cfg_.board_cols, x = cfg_.grid_rows, y = cfg_.grid_cols;
  const int per_board = a * b;
  router_block_.assign(nodes(), -1);
  // Row trees (one per accelerator row) and column trees, in the order they are built below.
  expected_trees_ = cfg_.topology == Topology::kHammingMesh ? (y > 1 ? x * a : 0) + (x > 1 ? y * b : 0) : 0;

  // Boards: routers, their terminals, on-board links.
  for (int board = 0; board < x * y; ++board) {
    const int board_rank = rank_for(false, board, x * y, expected_trees_);
    Partition part;
    part.name = "board" + std::to_string(board);
    for (int local = 0; local < per_board; ++local) {
      const int node = board * per_board + local;
      const NodeCoord c = coord(node);
      router_block_[node] = add_router(c, node, board_rank != rank_);
      part.blocks.push_back(router_block_[node]);
    }
    for (int local = 0; local < per_board; ++local) {
      const int node = board * per_board + local;
      node_partition_.resize(nodes(), 0);
      node_partition_[node] = static_cast<int>(partitions_.size());
      for (int rail = 0; rail < rails_; ++rail) {
        const int t = add_terminal(terminals, node, rail, cfg_.board_depth);
        net_.connect({t, 0}, {router_block_[node], kPortLocal + rail}, cfg_.terminal_latency,
                     LinkClass::kTerminal);
        attach_[node * rails_ + rail] = {router_block_[node], kPortLocal + rail};
        part.blocks.push_back(t);
      }
    }
    for (int r = 0; r < a; ++r) {
      for (int col = 0; col < b; ++col) {
        const int node = board * per_board + r * b + col;
        if (col + 1 < b) {
          net_.connect({router_block_[node], kPortE}, {router_block_[node + 1], kPortW},
                       cfg_.board_latency, LinkClass::kBoard);
        }
        if (r + 1 < a) {
          net_.connect({router_block_[node], kPortS}, {router_block_[node + b], kPortN},
                       cfg_.board_latency, LinkClass::kBoard);
        }
      }
    }
    ghost_if_remote(part, board_rank);
    partitions_.push_back(std::move(part));
  }

  auto node_at = [&](int gr, int gc, int lr, int lc) {
    return (gr * y + gc) * per_board + lr * b + lc;
  };

  if (cfg_.topology == Topology::kTorus) {
    // Board edges joined to the neighbouring boards, wrapping around, by cables.
    for (int gr = 0; gr < x; ++gr) {
      for (int gc = 0; gc < y; ++gc) {
        for (int lr = 0; lr < a; ++lr) {
          const int from = node_at(gr, gc, lr, b - 1);
          const int to = node_at(gr, (gc + 1) % y, lr, 0);
          net_.connect({router_block_[from], kPortE}, {router_block_[to], kPortW}, cfg_.cable_latency,
                       LinkClass::kCable);
        }
        for (int lc = 0; lc < b; ++lc) {
          const int from = node_at(gr, gc, a - 1, lc);
          const int to = node_at((gr + 1) % x, gc, 0, lc);
          net_.connect({router_block_[from], kPortS}, {router_block_[to], kPortN}, cfg_.cable_latency,
                       LinkClass::kCable);
        }
      }
    }
    return;
  }

  // HammingMesh row trees: one per global accelerator row, tree port 2*gc = W edge, 2*gc+1 = E.
  if (y > 1) {
    for (int gr = 0; gr < x; ++gr) {
      for (int lr = 0; lr < a; ++lr) {
        std::vector<std::pair<PortRef, PortRef>> edges;   // (first edge, second edge) per board
        for (int gc = 0; gc < y; ++gc) {
          edges.push_back({{router_block_[node_at(gr, gc, lr, 0)], kPortW},
                           {router_block_[node_at(gr, gc, lr, b - 1)], kPortE}});
        }
        add_board_tree(TreeKind::kRow, gr * a + lr, edges);
      }
    }
  }
  // Column trees: one per global accelerator column, tree port 2*gr = N edge, 2*gr+1 = S.
  if (x > 1) {
    for (int gc = 0; gc < y; ++gc) {
      for (int lc = 0; lc < b; ++lc) {
        std::vector<std::pair<PortRef, PortRef>> edges;
        for (int gr = 0; gr < x; ++gr) {
          edges.push_back({{router_block_[node_at(gr, gc, 0, lc)], kPortN},
                           {router_block_[node_at(gr, gc, a - 1, lc)], kPortS}});
        }
        add_board_tree(TreeKind::kColumn, gc * b + lc, edges);
      }
    }
  }
}

void System::add_board_tree(TreeKind kind, int index,
                            const std::vector<std::pair<PortRef, PortRef>>& edges) {
  const std::string name = (kind == TreeKind::kRow ? "rowtree" : "coltree") + std::to_string(index);
  TreeSpec spec = tree_spec(name, kind, 2 * static_cast<int>(edges.size()));
  const int rank = rank_for(true, tree_partitions_, 0, expected_trees_);
  // Stepped by another rank: ghosts instead of switch models, once this rank has built a real
  // switch (which checks that the build has the variant; every tree's switches have one shape).
  spec.ghost_switches = rank != rank_ && switch_built_;
  const BuiltTree t = build_tree(net_, spec);
  switch_built_ = switch_built_ || !spec.ghost_switches;
  Partition part;
  part.name = spec.name;
  part.is_tree = true;
  add_switches(t, spec, part.blocks);
  for (std::size_t k = 0; k < edges.size(); ++k) {
    net_.connect(edges[k].first, t.tree_ports[2 * k], cfg_.cable_latency, LinkClass::kCable);
    net_.connect(edges[k].second, t.tree_ports[2 * k + 1], cfg_.cable_latency, LinkClass::kCable);
  }
  trees_.push_back({spec.name, kind, index, t});
  ghost_if_remote(part, rank);
  ++tree_partitions_;
  partitions_.push_back(std::move(part));
}

void System::build_fat_tree(TerminalFactory& terminals) {
  // One tree per plane; a node's terminal on rail k sits on plane k's tree port `node`.
  std::vector<BuiltTree> planes;
  std::vector<Partition> tree_parts;
  for (int k = 0; k < rails_; ++k) {
    const std::string name = rails_ > 1 ? "fattree.p" + std::to_string(k) : "fattree";
    const TreeSpec spec = tree_spec(name, TreeKind::kFatTree, cfg_.fat_tree_nodes);
    planes.push_back(build_tree(net_, spec));
    Partition tree_part;
    tree_part.name = spec.name;
    tree_part.is_tree = true;
    add_switches(planes.back(), spec, tree_part.blocks);
    trees_.push_back({spec.name, TreeKind::kFatTree, k, planes.back()});
    tree_parts.push_back(std::move(tree_part));
  }
  const TreeShape shape = tree_shape(cfg_.fat_tree_nodes, cfg_.radix, cfg_.up_ports);
  const int group = shape.single ? cfg_.fat_tree_nodes : shape.down;
  Partition part;
  node_partition_.resize(nodes(), 0);
  for (int node = 0; node < cfg_.fat_tree_nodes; ++node) {
    if (node % group == 0) {
      if (!part.blocks.empty()) partitions_.push_back(std::move(part));
      part = Partition{};
      part.name = "endpoints" + std::to_string(node / group);
    }
    node_partition_[node] = static_cast<int>(partitions_.size());
    for (int k = 0; k < rails_; ++k) {
      const int tb = add_terminal(terminals, node, k, cfg_.cable_depth);
      net_.connect({tb, 0}, planes[k].tree_ports[node], cfg_.terminal_latency, LinkClass::kTerminal);
      attach_[node * rails_ + k] = planes[k].tree_ports[node];
      part.blocks.push_back(tb);
    }
  }
  if (!part.blocks.empty()) partitions_.push_back(std::move(part));
  for (auto& p : tree_parts) partitions_.push_back(std::move(p));
}

}  // namespace hxemu::sysc
