// Test harness of the NIC unit tests: verilated NICs (through NicBlock) with a HostMemory each,
// joined by sysc::Link delay lines and a choice of small C++ network models:
//   - back to back: NIC A's injection link is NIC B's ejection link and vice versa;
//   - Pipe: forwards one direction, can withhold credits (a stalled network);
//   - Reorderer: holds A's packets and delivers them to B in a chosen order, interleaving two
//     packets on two VCs (out-of-order arrival);
//   - Crossbar: N ports, per-VC input buffers, wormhole, random VC allocation and arbitration.
// Everything is stepped cycle by cycle in plain C++; a cycle is: every NIC reads its inputs and
// ticks, then every network model steps. Link latency makes the order irrelevant.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sysc/host/host_memory.h"
#include "sysc/host/message_assembler.h"
#include "sysc/fabric/link.h"
#include "sysc/blocks/nic.h"

namespace hxemu::nictest {

using sysc::Credit;
using sysc::Flit;
using sysc::HostMemory;
using sysc::Link;
using sysc::NicBlock;
using sysc::NicCommand;
using sysc::NicSetup;
using sysc::RxCompletion;
using sysc::TxCompletion;

inline constexpr int kFlitBits = 256;
inline constexpr int kB = kFlitBits / 8;   // bytes per flit / DMA word

// What the math says a put costs (NIC segmentation rules, docs/nic-and-host-memory.md).
struct PutCost {
  int packets = 0;
  int flits = 0;         // heads + body flits
  int reads = 0;         // DMA reads (aligned source words)
  int writes = 0;        // DMA writes (destination words touched, per packet)
};
PutCost put_cost(std::uint32_t src, std::uint32_t dst, std::uint32_t len, int pkt_flits, int b = kB);

// Deterministic byte pattern for source buffers and untouched memory.
std::uint8_t pattern(std::uint32_t seed, std::uint32_t addr);

struct FlitRecord {
  std::uint64_t cycle;   // cycle in which the flit is on the NIC's output
  Flit flit;
};

class NicNode {
 public:
  NicNode(int vcs, const NicSetup& setup, std::size_t mem_bytes, int read_latency);
  // Any NIC model (e.g. a test-only variant); the memory's word is the NIC's flit width.
  NicNode(std::unique_ptr<NicBlock> nic, const NicSetup& setup, std::size_t mem_bytes,
          int read_latency);

  NicBlock& nic() { return *nic_; }
  HostMemory& mem() { return mem_; }
  const NicSetup& setup() const { return setup_; }
  int node() const { return setup_.node; }

  // Links: tx carries this NIC's flits out (credits back in), rx brings flits in (credits out).
  Link* tx = nullptr;
  Link* rx = nullptr;

  // Commands waiting to be posted (one per cycle while cmd_ready).
  std::deque<NicCommand> pending;
  // Ready policies of the completion queues and DMA ports (default: always ready).
  std::function<bool(std::uint64_t)> txc_ready = [](std::uint64_t) { return true; };
  std::function<bool(std::uint64_t)> rxc_ready = [](std::uint64_t) { return true; };
  std::function<bool(std::uint64_t)> rd_ready = [](std::uint64_t) { return true; };
  std::function<bool(std::uint64_t)> wr_ready = [](std::uint64_t) { return true; };
  // Skip the clock edge while the NIC is idle and no input is valid.
  bool skip_when_idle = false;
  // Also skip edges while the NIC waits (wait_o) up to the cycle its next DMA read word is due.
  bool skip_when_waiting = false;
  bool record_flits = false;

  struct Posted { std::uint64_t cycle; NicCommand cmd; };
  struct TxRec { std::uint64_t cycle; TxCompletion c; };
  struct RxRec { std::uint64_t cycle; RxCompletion c; };
  std::vector<Posted> posted;
  std::vector<TxRec> txcs;
  std::vector<RxRec> rxcs;              // messages, as the host's assembler releases them
  std::vector<std::uint64_t> landing_cycles;   // cycle of each RX landing record (one per packet)
  sysc::MessageAssembler assembler;
  std::vector<FlitRecord> flits_out;   // when record_flits
  std::vector<FlitRecord> heads_in;    // head flits taken from rx, when record_flits
  std::uint64_t flits_sent = 0;
  std::uint64_t heads_sent = 0;
  std::uint64_t first_flit_cycle = UINT64_MAX;
  std::uint64_t last_flit_cycle = 0;
  std::uint64_t ticks = 0;
  std::uint64_t skipped = 0;
  std::uint64_t busy_cycles = 0;       // cycles in which idle() was low

  void step(std::uint64_t now);
  // Every posted put has exactly one TX completion (destination and tag), whatever their order.
  bool tx_completed_each_once() const;
  // The cycle of the TX completion of the put to `dst` with `tag` (UINT64_MAX: none).
  std::uint64_t tx_completion_cycle(std::uint16_t dst, std::uint16_t tag) const;

 private:
  NicSetup setup_;
  std::unique_ptr<NicBlock> nic_;
  HostMemory mem_;
};

// Forwards flits from `in` (a NIC's tx link) to `out` (another NIC's rx link) and credits back.
// While hold(now) is true, credits coming back are kept and released afterwards, one per cycle.
class Pipe {
 public:
  Pipe(Link& in, Link& out) : in_(in), out_(out) {}
  std::function<bool(std::uint64_t)> hold = [](std::uint64_t) { return false; };
  void step(std::uint64_t now);
  // Every posted put has exactly one TX completion (destination and tag), whatever their order.
  bool tx_completed_each_once() const;
  // The cycle of the TX completion of the put to `dst` with `tag` (UINT64_MAX: none).
  std::uint64_t tx_completion_cycle(std::uint16_t dst, std::uint16_t tag) const;
  std::size_t held() const { return credits_.size(); }

 private:
  Link& in_;
  Link& out_;
  std::deque<Credit> credits_;
};

// Absorbs packets from `in` (returning credits at once), holds them until release(), then sends
// them to `out` in the given order: packets are taken in pairs, the first of a pair on VC 0 and
// the second on VC 1, their flits alternating on the link (respecting the receiver's credits).
class Reorderer {
 public:
  Reorderer(Link& in, Link& out, int vcs, int out_credits);
  void step(std::uint64_t now);
  // Every posted put has exactly one TX completion (destination and tag), whatever their order.
  bool tx_completed_each_once() const;
  // The cycle of the TX completion of the put to `dst` with `tag` (UINT64_MAX: none).
  std::uint64_t tx_completion_cycle(std::uint16_t dst, std::uint16_t tag) const;
  const std::vector<std::vector<Flit>>& packets() const { return packets_; }
  void release(const std::vector<int>& order);
  bool done() const { return queue_.empty() && lane_[0].empty() && lane_[1].empty(); }

 private:
  Link& in_;
  Link& out_;
  std::vector<std::vector<Flit>> packets_;
  std::vector<Flit> cur_;
  std::vector<int> credits_;
  std::deque<int> queue_;
  std::deque<Flit> lane_[2];
  int turn_ = 0;
};

// N-port crossbar: per input VC a buffer of `depth` flits (the NICs' inj_depth), wormhole switching,
// output VC chosen at random among free ones with a credit, random arbitration per output. The
// destination node id in the head is the output port.
class Crossbar {
 public:
  Crossbar(int ports, int vcs, int depth, int out_credits, std::uint32_t seed);
  void connect(int port, Link* from_nic, Link* to_nic);
  void step(std::uint64_t now);
  // Every posted put has exactly one TX completion (destination and tag), whatever their order.
  bool tx_completed_each_once() const;
  // The cycle of the TX completion of the put to `dst` with `tag` (UINT64_MAX: none).
  std::uint64_t tx_completion_cycle(std::uint16_t dst, std::uint16_t tag) const;
  const std::vector<std::string>& errors() const { return errors_; }
  std::uint64_t flits() const { return flits_; }
  bool empty() const;
  void dump(std::ostream& os) const;

 private:
  struct InVc {
    std::deque<Flit> buf;
    bool active = false;
    int out = 0;
    int out_vc = 0;
  };
  int ports_;
  int vcs_;
  int depth_;
  int out_credits_;
  std::vector<Link*> from_;
  std::vector<Link*> to_;
  std::vector<std::vector<InVc>> in_;
  std::vector<std::vector<int>> owner_;     // [out][vc]: input*vcs + vc, or -1
  std::vector<std::vector<int>> credits_;   // [out][vc]
  std::mt19937 rng_;
  std::vector<std::string> errors_;
  std::uint64_t flits_ = 0;
};

// A set of NICs, links and network models stepped together. Every node's memory starts filled with
// pattern(node, addr); expected() is the image each memory must end with, updated by expect_put().
class World {
 public:
  NicNode& add_node(int vcs, const NicSetup& setup, std::size_t mem_bytes, int read_latency);
  NicNode& add_node(std::unique_ptr<NicBlock> nic, const NicSetup& setup, std::size_t mem_bytes,
                    int read_latency);
  Link& add_link(int latency);
  // A's injection link is B's ejection link and vice versa.
  void connect_back_to_back(NicNode& a, NicNode& b, int latency);
  // Bytes that must end up in node i's memory at `addr` (for packets a test makes up itself).
  void expect_bytes(int node, std::uint32_t addr, const std::uint8_t* data, std::size_t n);
  // Queue a put at `from` and record what it must do to the destination's memory.
  void put(NicNode& from, const NicCommand& c);

  std::vector<std::function<void(std::uint64_t)>> fabrics;   // stepped after the nodes
  std::uint64_t now = 0;

  void step();
  // Steps until pred() holds (checked before each cycle); false if max_cycles ran out.
  bool run_until(const std::function<bool()>& pred, std::uint64_t max_cycles);
  // Every queued put completed at its destination and at its source.
  bool all_done() const;
  // Every memory equals its expected image; the first mismatches are described in `why`.
  bool memories_match(std::string& why) const;

  NicNode& node(int i) { return *nodes_.at(i); }
  std::size_t size() const { return nodes_.size(); }
  const std::vector<std::uint8_t>& expected(int i) const { return expected_.at(i); }
  std::uint64_t puts_queued(int i) const { return queued_.at(i); }
  // Puts queued at `src` for `dst` in posted order.
  const std::vector<NicCommand>& puts(int src, int dst) const;

 private:
  std::vector<std::unique_ptr<NicNode>> nodes_;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::vector<std::uint8_t>> expected_;
  std::vector<std::uint64_t> queued_;
  std::vector<std::vector<std::vector<NicCommand>>> puts_;   // [src][dst]
  NicNode& adopt(std::unique_ptr<NicNode> n);
};

}  // namespace hxemu::nictest
