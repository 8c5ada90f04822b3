// System: a whole emulated machine built from a SystemConfig (docs/topology.md) inside a
// Network -- board routers wired as 2D meshes on their boards, boards joined by row and column
// trees (HammingMesh) or edge to edge with wrap-around (torus), or endpoints under one fat tree,
// or Dragonfly groups of routers (switches) -- with a terminal (NIC or testbench endpoint, made by
// a TerminalFactory) at every accelerator.
//
// Numbering: boards row-major in the grid, accelerators row-major in a board:
//   node = board * (a*b) + local_row * b + local_col,  board = grid_row * y + grid_col.
// Dragonfly: node = (group * routers_per_group + router) * terminals_per_router + terminal.
// Multidim: node = sum over dimensions of coordinate x stride (dimension 0 innermost, stride 1).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sysc/blocks/board_router.h"
#include "sysc/fabric/coord_word.h"
#include "sysc/fabric/network.h"
#include "sysc/blocks/switch_block.h"
#include "sysc/system/system_config.h"
#include "sysc/system/tree_builder.h"

namespace hxemu::sysc {

// What a terminal (the block at an accelerator's router local port, or at a fat-tree leaf port)
// needs to know.
struct TerminalSpec {
  int node = 0;
  int rail = 0;             // which of the node's local ports (0 .. rails-1)
  VcPlan vc;
  int inject_credits = 8;   // input buffer depth per VC of the block it injects into
  int eject_depth = 8;      // its own receive buffer per VC (the network's credits toward it)
  int flit_bits = 256;
  int max_packet_flits = 16;
  bool nic_crc = false;     // NICs end every packet with a CRC trailer (SystemConfig::nic_crc)
  const std::uint64_t* clock = nullptr;   // its partition's cycle counter (stable within a cycle)
  int partition = 0;                       // the partition (System::partitions()) it belongs to
};

class TerminalFactory {
 public:
  virtual ~TerminalFactory() = default;
  // Terminals wanted per node, one per router local port (a rail): 1 for synthetic traffic, 4 for
  // an accelerator with one NIC per network port. Fat-tree endpoints have one port: always 1.
  virtual int rails() const { return 1; }
  virtual std::unique_ptr<LinkBlock> make_terminal(const TerminalSpec& spec) = 0;
};

class System {
 public:
  System(const SystemConfig& cfg, TerminalFactory& terminals);

  const SystemConfig& config() const { return cfg_; }
  const VcPlan& vc_plan() const { return vc_; }
  Network& net() { return net_; }
  const Network& net() const { return net_; }

  int nodes() const { return cfg_.nodes(); }
  NodeCoord coord(int node) const;
  // The global accelerator grid: row = grid_row * a + local_row, col = grid_col * b + local_col
  // (x*a rows, y*b columns). A fat tree's nodes form a square grid by id when their count is a
  // perfect square, else one row; so do a Dragonfly's.
  int global_rows() const { return global_rows_; }
  int global_cols() const { return global_cols_; }
  int global_row(int node) const { return global_index_[node] / global_cols_; }
  int global_col(int node) const { return global_index_[node] % global_cols_; }
  int node_at_global(int row, int col) const { return node_at_global_[row * global_cols_ + col]; }
  // Multidim: the node's index in dimension d, and the first router port of dimension d.
  int md_coord(int node, int d) const;
  int md_port_base(int d) const;
  // The dimension whose bandwidth link `link` carries when it leaves an NPU's router into a
  // dimension (to a neighbour, or up to a Switch dimension's switch); -1 for every other link.
  int md_npu_link_dim(int link) const;
  // The node's coordinate word (sysc/fabric/coord_word.h): head-flit bits [63:32] of packets to it.
  std::uint32_t route_of(int node) const;
  // Terminals (NICs) per node: one per router local port.
  int rails() const { return rails_; }
  int terminal_block(int node, int rail = 0) const { return terminal_block_[node * rails_ + rail]; }
  // Block and port the terminal of `node` on `rail` is attached to.
  PortRef attach_point(int node, int rail = 0) const { return attach_[node * rails_ + rail]; }
  int rail_of_block(int block) const { return blocks_[block].rail; }
  int router_block(int node) const { return router_block_.empty() ? -1 : router_block_[node]; }
  // Node of a terminal block, -1 for routers and switches.
  int node_of_block(int block) const { return blocks_[block].node; }

  enum class BlockKind { kRouter, kSwitch, kTerminal };
  BlockKind block_kind(int block) const { return blocks_[block].kind; }
  const RouterSetup& router_setup(int block) const { return router_setup_.at(blocks_[block].index); }
  const SwitchSetup& switch_setup(int block) const { return switch_setup_.at(blocks_[block].index); }

  int routers() const { return static_cast<int>(router_setup_.size()); }
  // Some board router is a DOR-only variant (SystemConfig::link_failures): links cannot fail.
  bool dor_only_routers() const { return dor_only_routers_; }
  int switches() const { return static_cast<int>(switch_setup_.size()); }
  struct TreeInfo {
    std::string name;
    TreeKind kind;
    int index;            // global accelerator row / column (row / column trees); plane (fat tree)
    BuiltTree built;
  };
  const std::vector<TreeInfo>& trees() const { return trees_; }
  // Bidirectional connections per link class.
  std::array<int, 3> connections_per_class() const;

  // The SystemC partitions: one per board (its routers and terminals) and one per tree; for the
  // fat tree, the tree and one group of terminals per leaf; for the Dragonfly, one per group (its
  // routers on every plane and its terminals), so partitions meet only at cables.
  struct Partition {
    std::string name;
    bool is_tree = false;
    std::vector<int> blocks;
  };
  const std::vector<Partition>& partitions() const { return partitions_; }

  // The clock of the partition `node` belongs to (Network::domain_clock): what a C++ block of the
  // node reads as the current cycle.
  const std::uint64_t* node_clock(int node) { return net_.domain_clock(node_partition_.at(node)); }

  // Adds a block that belongs to `node` but has no links (e.g. the host program driving its NICs);
  // it joins the node's board partition. Call before making a SystemC harness.
  int add_node_block(int node, std::unique_ptr<LinkBlock> block, const std::string& name);

  // Processes (sysc/dist/ranks.h): every rank builds the whole System and steps the partitions it
  // owns. Board (and endpoint-group) partitions are split into contiguous runs over the ranks, and
  // so are tree partitions, so each rank gets a share of each. One process owns everything.
  int ranks() const { return ranks_; }
  int partition_rank(int p) const { return partition_rank_.at(p); }
  bool owns_partition(int p) const { return partition_rank_.at(p) == rank_; }
  // -1 for a block in no partition (added to the network behind the System's back).
  int partition_of_block(int b) const {
    return b >= 0 && b < static_cast<int>(block_partition_.size()) ? block_partition_[b] : -1;
  }
  bool owns_block(int b) const { return owns_partition(block_partition_.at(b)); }
  bool owns_node(int node) const { return owns_partition(node_partition_.at(node)); }

  // These three are agreed by every rank (each rank looks at what it owns, then they combine), so
  // every rank must call them at the same point of its run.
  // True when every block is drained and no flit is on any link.
  bool quiet() const;
  // Any block flagged a credit-protocol error.
  bool any_error() const;
  // Flits put on links so far (a watchdog's progress measure).
  std::uint64_t flits_moved() const;

 private:
  void build_hxmesh_or_torus(TerminalFactory& terminals);
  void build_fat_tree(TerminalFactory& terminals);
  void build_dragonfly(TerminalFactory& terminals);
  void build_multidim(TerminalFactory& terminals);   // system_multidim.cpp
  int add_dragonfly_router(int plane, int group, int router);
  // `remote`: another rank steps it. Its model is then not built (a ghost stands in) once this
  // rank has built one real router, which checks that the build has the variant.
  int add_router(const NodeCoord& c, int node, bool remote = false);
  int add_terminal(TerminalFactory& terminals, int node, int rail, int inject_credits);
  int add_switches(const BuiltTree& t, const TreeSpec& spec, std::vector<int>& partition);
  // A row or column tree joining, per board along it, two edge ports (W/E or N/S): tree ports
  // 2k and 2k + 1.
  void add_board_tree(TreeKind kind, int index, const std::vector<std::pair<PortRef, PortRef>>& edges);
  TreeSpec tree_spec(const std::string& name, TreeKind kind, int ports) const;

  // What the system knows of each block of its network, indexed by block id.
  struct BlockRecord {
    BlockKind kind = BlockKind::kTerminal;
    int node = -1;    // terminals and node blocks: their node
    int rail = -1;    // terminals: their rail
    int index = -1;   // routers: into router_setup_; switches: into switch_setup_
  };
  void record_block(int block, const BlockRecord& rec);

  SystemConfig cfg_;
  VcPlan vc_;
  Network net_;
  std::vector<int> terminal_block_;
  std::vector<int> router_block_;
  std::vector<PortRef> attach_;
  int rails_ = 1;
  std::vector<BlockRecord> blocks_;
  std::vector<RouterSetup> router_setup_;
  bool dor_only_routers_ = false;
  bool router_built_ = false;   // a real router model built on this rank (add_router)
  bool switch_built_ = false;   // a real switch model built on this rank (add_board_tree)
  std::vector<SwitchSetup> switch_setup_;
  std::vector<TreeInfo> trees_;
  std::vector<Partition> partitions_;
  std::vector<int> node_partition_;
  void assign_ranks();
  // The rank of board (endpoint-group) partition `index` of `boards`, or of tree partition `index`
  // of `trees`: contiguous runs.
  int rank_for(bool is_tree, int index, int boards, int trees) const;
  // Replaces the routers and switches of a partition another rank steps by ghosts.
  void ghost_if_remote(const Partition& p, int rank);
  int rank_ = 0, ranks_ = 1;
  int expected_trees_ = 0, tree_partitions_ = 0;
  std::vector<int> partition_rank_;
  std::vector<int> block_partition_;
  int global_rows_ = 1, global_cols_ = 1;
  std::vector<int> global_index_, node_at_global_;
  std::vector<int> md_base_;
};

}  // namespace hxemu::sysc
