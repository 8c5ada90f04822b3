// Network: LinkBlocks (verilated routers, switches, NICs, or C++ endpoints) joined by Links, stepped
// one cycle at a time. This is the plain-C++ fabric; the SystemC modules (board, tree) step
// partitions of the same blocks (see sysc/harness/sc_system.h).
//
// Per block and cycle (step_block): gather the flits and credits arriving on its ports, tick it,
// put its registered outputs onto its links. A block that reports idle() and has nothing arriving
// is not ticked at all: its state could not change (see LinkBlock::idle).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sysc/fabric/link.h"
#include "sysc/fabric/link_block.h"
#include "sysc/fabric/vc_track.h"

namespace hxemu::sysc {

struct PortRef {
  int block = -1;
  int port = -1;
};

// Links are grouped into classes for reporting and latency (on-board trace, board-to-switch cable,
// endpoint attachment).
enum class LinkClass : int { kBoard = 0, kCable = 1, kTerminal = 2 };
const char* link_class_name(LinkClass c);

class Network {
 public:
  Network() = default;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  int add_block(std::unique_ptr<LinkBlock> block, std::string name);
  // Puts `block` (same port count) in place of block i, e.g. a ghost for a block another process
  // steps (sysc/dist/ghost_block.h). Links and counters stay.
  void replace_block(int i, std::unique_ptr<LinkBlock> block);
  // Joins a.port and b.port in both directions with `latency` cycles each way. Returns the index
  // of the a->b link; the b->a link is the next index.
  int connect(PortRef a, PortRef b, int latency, LinkClass cls);

  int blocks() const { return static_cast<int>(blocks_.size()); }
  LinkBlock& block(int i) { return *blocks_[i].block; }
  const LinkBlock& block(int i) const { return *blocks_[i].block; }
  const std::string& block_name(int i) const { return blocks_[i].name; }

  // A directed link: flits from `from` to `to`, credits back.
  struct LinkInfo {
    PortRef from;
    PortRef to;
    LinkClass cls;
  };
  int links() const { return static_cast<int>(links_.size()); }
  const LinkInfo& link_info(int i) const { return link_info_[i]; }
  Link& link(int i) { return *links_[i]; }
  const Link& link(int i) const { return *links_[i]; }
  // The link leaving / entering a block port, or -1 when the port is not connected.
  int link_out(PortRef p) const { return blocks_[p.block].ports[p.port].tx; }
  int link_in(PortRef p) const { return blocks_[p.block].ports[p.port].rx; }

  // Flits each directed link has carried (counted when the sender puts them on the link).
  std::uint64_t link_flits(int i) const { return link_flits_[i]; }
  void reset_link_counters();

  // One cycle of one block, at cycle `now`. Any order of blocks within a cycle gives the same
  // result, because every block output is registered and every link is at least one slot deep.
  // The block steps itself (LinkBlock::step): through step_as with its own type, or LinkBlock.
  void step_block(int i, std::uint64_t now) { blocks_[i].block->step(*this, i, now); }
  // step_block's body for block i, which is `b` (sysc/fabric/network_step.h).
  template <class B>
  void step_as(B& b, int i, std::uint64_t now);
  // step_block for each of `blocks` in turn, at cycle `now`. While one block ticks, the link lines
  // the next one reads first (its links' counters, the flit and credit slots arriving now) are
  // fetched: on a large system they are cache misses, each a stall of step_block's otherwise.
  void step_blocks(const std::vector<int>& blocks, std::uint64_t now) {
    step_blocks_through(blocks, now, now + 1);
  }
  // Each of `blocks` in turn through cycles [t0, t1), for a harness that knows no flit or credit
  // sent in those cycles arrives before t1 (sysc/harness/parallel_harness.h, partition spans).
  void step_blocks_through(const std::vector<int>& blocks, std::uint64_t t0, std::uint64_t t1) {
    step_in_turn(blocks.size(), [&](std::size_t k) { return blocks[k]; }, t0, t1);
  }
  // One cycle of every block (the plain C++ harness), advancing now().
  void step();
  std::uint64_t now() const { return now_; }
  // The current cycle, for C++ blocks that time-stamp what they see (stable during a cycle). Only
  // right while every block is stepped in the same cycle (the plain loop); a block that a windowed
  // harness may step ahead of others reads its domain's clock instead (domain_clock).
  const std::uint64_t* clock() const { return &now_; }
  // Between runs every partition is at the same cycle: setting it sets every domain clock too.
  void set_now(std::uint64_t now) {
    now_ = now;
    for (auto& c : domain_clocks_) c = now;
  }

  // Clock domains: a partition's own cycle counter. A windowed harness steps partitions up to a
  // lookahead window apart, so a C++ block that reads the cycle (an endpoint, a NIC's host side)
  // is given its partition's clock, which step_block sets to the cycle it steps.
  std::uint64_t* domain_clock(int domain);
  // step_block(block, now) sets *clock = now before stepping the block.
  void bind_clock(int block, std::uint64_t* clock) { block_clock_.at(block) = clock; }

  // Each VC of each directed link as the sender sees it (sysc/fabric/vc_track.h): its flits on
  // the link or in the receiver's buffer, and the packets they belong to. For a watchdog's
  // wait-for report and the fault logs. vc < the sending block's vcs().
  using VcPacket = sysc::VcPacket;
  const VcTrack& vc_state(int link, int vc) const {
    return vc_track_[vc_base_[link] + static_cast<std::size_t>(vc)];
  }

  // Ticks skipped because a block was idle with nothing arriving (harness statistics).
  std::uint64_t ticks_skipped() const;
  std::uint64_t ticks_done() const;
  // Per block input port: cycles a flit waited for want of a credit / lost switch allocation.
  std::uint64_t stalls_credit(PortRef p) const { return stalls_credit_[port_base_[p.block] + p.port]; }
  std::uint64_t stalls_sa(PortRef p) const { return stalls_sa_[port_base_[p.block] + p.port]; }
  void reset_stall_counters();

  // Head flits sent on cable links (for the on-board / tree latency split).
  class HeadObserver {
   public:
    virtual ~HeadObserver() = default;
    virtual void head_on_cable(int link, const Flit& f, std::uint64_t now) = 0;
  };
  void set_head_observer(HeadObserver* obs) { head_observer_ = obs; }

  // Fault injection (for testing the checkers): the next flit sent on `link` is dropped, or has one
  // payload bit flipped.
  // kFlipBit flips a bit of the next flit's upper payload; kFlipBodyBit waits for a body or tail
  // flit (a head's upper bits may be unused by the packet's format).
  enum class LinkFault { kNone, kDrop, kFlipBit, kFlipBodyBit };
  void inject_fault(int link, LinkFault f) { fault_link_ = link; fault_ = f; }

  // Flits on links plus flits moved by blocks since the last call: progress for a watchdog.
  std::uint64_t flits_moved() const;

  // ---- Failed links and bit errors (docs/faults.md) -------------------------------------------
  // Every decision is a function of the cycle and the link alone, so a run with faults gives the
  // same result for any partitioning, thread count or rank count.
  //
  // From cycle `at` on, directed link `i` carries nothing: flits its sender puts on it then, flits
  // on it that would arrive then or later, and credits either way are lost (logged below). Set it
  // before the run reaches `at`.
  void fail_link(int i, std::uint64_t at);
  std::uint64_t link_down_from(int i) const { return down_from_[i]; }
  // In cycle `at` (before its tick), block `b` is told that the link behind `port` is down
  // (port >= 0) and that the board-edge cables in `edges` are down (LinkBlock::set_port_down,
  // set_edges_down): what a fabric manager tells the routers when a link fails.
  void schedule_block_fault(int b, std::uint64_t at, int port, std::uint32_t edges);
  // Bit errors: each payload bit of every body or tail flit sent on a link whose class is in
  // `classes` (bit 1 << LinkClass) flips with probability `rate`. Head flits are spared: their
  // routing fields are assumed protected hop by hop (a flipped destination would misroute, which
  // is not modelled). Each link draws from its own generator seeded from `seed` and its index.
  void set_bit_flips(double rate, unsigned classes, std::uint64_t seed);

  // What the faults did, one record per flit: lost (put on a dead link, or on it when it died) or
  // hit by a flipped bit. `packet` is the packet the flit belonged to as the sender tracks it
  // (vc_state); for a flit lost in flight only a head names its packet (packet.src < 0 otherwise).
  struct FaultEvent {
    enum class Kind : std::uint8_t { kLostSent, kLostInFlight, kFlipped };
    Kind kind = Kind::kLostSent;
    int link = -1;
    std::uint64_t cycle = 0;
    int vc = 0;
    bool head = false;
    bool tail = false;
    int bit = -1;                  // kFlipped: the payload bit flipped
    int flit = -1;                 // kFlipped: which flit of its packet (0: the head)
    VcPacket packet;
  };
  // Every event of every link, ordered by cycle, then link, then kind.
  std::vector<FaultEvent> fault_events() const;
  bool faults_configured() const { return faults_on_; }

 private:
  struct PortLinks {
    int tx = -1;   // link this port sends flits on (and receives credits from)
    int rx = -1;   // link this port receives flits from (and returns credits on)
  };
  // A connected port as step_block walks it: its links and where their rings are (fixed once
  // connected), one array per block so that the walk and prefetch_block chase no pointers.
  struct PortRoute {
    Link* rx = nullptr;             // flits in, credits back out
    Link* tx = nullptr;             // flits out, credits in
    const Flit* rx_flits = nullptr;
    const Credit* tx_credits = nullptr;
    const Flit* tx_flits = nullptr;
    const Credit* rx_credits = nullptr;
    std::uint32_t mask = 0;         // slot mask of all four rings (both directions: one latency)
    int latency = 0;                // of both directions
    int port = -1;
    int rx_id = -1, tx_id = -1;
    std::size_t tx_vc = 0;          // vc_base_[tx_id]: the tx link's VC 0 in vc_track_
    int tx_lines = 0;               // cache lines its sender's (this block's) VC records span
  };
  struct BlockEntry {
    std::unique_ptr<LinkBlock> block;
    std::string name;
    std::vector<PortLinks> ports;
    std::vector<PortRoute> routes;   // ports with links, ascending
    std::vector<std::int8_t> route_of_port;   // port -> its index in routes, -1: no links
    std::uint64_t linked_ports = 0;           // bit p: port p has links (a route)
    // The route of a port with links (a bit of linked_ports).
    const PortRoute& route_at(int port) const {
      return routes[static_cast<std::size_t>(route_of_port[static_cast<std::size_t>(port)])];
    }
    // Scheduled link-state changes for the block (schedule_block_fault), in cycle order.
    struct Pending {
      std::uint64_t at;
      int port;
      std::uint32_t edges;
    };
    std::vector<Pending> faults;
    std::size_t next_fault = 0;
    std::uint64_t next_fault_at = ~0ull;
  };
  void apply_block_faults(BlockEntry& e, std::uint64_t now);
  // step_block for blocks block_at(0 .. n-1), each through cycles [t0, t1) while the next one's
  // lines for t0 are fetched.
  template <class BlockAt>
  void step_in_turn(std::size_t n, BlockAt block_at, std::uint64_t t0, std::uint64_t t1) {
    for (std::size_t k = 0; k < n; ++k) {
      if (k + 1 < n) prefetch_block(block_at(k + 1), t0);
      for (std::uint64_t now = t0; now < t1; ++now) step_block(block_at(k), now);
    }
  }
  // A hint only: reads nothing the result depends on.
  void prefetch_block(int i, std::uint64_t now) const {
    for (const PortRoute& r : blocks_[i].routes) {
      __builtin_prefetch(r.rx);
      __builtin_prefetch(r.tx);
      const char* slot = reinterpret_cast<const char*>(r.rx_flits + (now & r.mask));
      __builtin_prefetch(slot);
      __builtin_prefetch(slot + sizeof(Flit) - 1);
      __builtin_prefetch(r.tx_credits + (now & r.mask));
      // The records of the VCs its flits and credits are counted on: a line per two VCs, up to
      // eight VCs (tx_lines, worked out once).
      const char* vcs = reinterpret_cast<const char*>(vc_track_.data() + r.tx_vc);
      __builtin_prefetch(vcs, 1);
      if (r.tx_lines > 1) __builtin_prefetch(vcs + 64, 1);
      if (r.tx_lines > 2) __builtin_prefetch(vcs + 128, 1);
      if (r.tx_lines > 3) __builtin_prefetch(vcs + 192, 1);
      // The slots its outputs are written to (a write miss stalls as a read one does).
      const std::uint64_t out = now + 1 + static_cast<std::uint64_t>(r.latency);
      const char* out_slot = reinterpret_cast<const char*>(r.tx_flits + (out & r.mask));
      __builtin_prefetch(out_slot, 1);
      __builtin_prefetch(out_slot + sizeof(Flit) - 1, 1);
      __builtin_prefetch(r.rx_credits + (out & r.mask), 1);
    }
  }
  // The fields of the packet a head flit starts, as vc_state tracks it. Word reads for hdr::kDst
  // (bits 0-15), hdr::kSrc (16-31), bits 64-127, hdr::kRail.
  static VcTrack::Head head_of(const Flit& f) {
    VcTrack::Head h;
    h.src = static_cast<std::int32_t>(f.data[0] >> 16);
    h.dst = static_cast<std::int32_t>(f.data[0] & 0xffffu);
    h.key = (static_cast<std::uint64_t>(f.data[3]) << 32) | f.data[2];
    h.rail = static_cast<std::int32_t>((f.data[5] >> 16) & 3u);
    return h;
  }
  void flip_bits(int link, Flit& f, int flit_bits, std::uint64_t now);
  void log_fault(std::vector<FaultEvent>& log, FaultEvent::Kind kind, int link, std::uint64_t now,
                 const Flit& f, const std::optional<VcPacket>& pk);

  std::vector<BlockEntry> blocks_;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<LinkInfo> link_info_;
  std::vector<std::uint64_t> link_flits_;
  std::vector<VcTrack> vc_track_;
  std::vector<std::size_t> vc_base_;   // per directed link: its sender's VC 0 in vc_track_
  std::vector<int> port_base_;
  std::vector<std::uint64_t> stalls_credit_, stalls_sa_;
  HeadObserver* head_observer_ = nullptr;
  int fault_link_ = -1;
  LinkFault fault_ = LinkFault::kNone;
  // Failed links and bit errors: per directed link, the first dead cycle (~0: never), the flip
  // generator state and the bits to the next flip; the logs of what the sender's side and the
  // receiver's side saw (each written only by the thread stepping that side).
  bool faults_on_ = false;
  std::vector<std::uint64_t> down_from_;
  // Link `l` is dead in cycle `now` (down_from_ is read only when faults are configured: one load
  // per link and event less on the per-cycle path of every other run).
  bool link_down(int l, std::uint64_t now) const { return faults_on_ && now >= down_from_[l]; }
  double flip_rate_ = 0.0;
  unsigned flip_classes_ = 0;
  std::vector<std::uint64_t> flip_rng_, flip_gap_;
  std::vector<std::vector<FaultEvent>> send_log_, recv_log_;
  std::uint64_t now_ = 0;
  std::deque<std::uint64_t> domain_clocks_;   // deque: pointers stay valid as it grows
  std::vector<std::uint64_t*> block_clock_;
  // Harness statistics, per block (each written only by the thread stepping that block).
  std::vector<std::uint64_t> ticks_skipped_, ticks_done_;
};

}  // namespace hxemu::sysc
