// RouterBench: one verilated board router with a C++ model of its neighbours.
//
// Upstream of every input port sits a Sender (a packet queue per VC, a credit counter per VC for
// the router's input buffer, one flit per cycle, packets contiguous per VC, VCs interleaved on the
// link). Downstream of every output port sits a Receiver (a buffer of `out_depth` flits per VC that
// fails the test on overflow, drains at most one flit per cycle unless stalled, and returns a credit
// per drained flit). Links between them are sysc::Link delay lines.
//
// The Receivers check every flit against the packet it belongs to: the right output port, payload
// intact, exactly once, flits of a packet in order and contiguous on their VC.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sysc/blocks/board_router.h"
#include "sysc/fabric/link.h"

namespace hxemu::tb {

struct RouterBenchConfig {
  int vcs = 2;
  int in_depth = 8;        // router input buffer depth the senders are given as credits
  int out_depth = 8;       // receiver buffer depth per VC (the router's initial credits)
  int link_latency = 1;
  int board_rows = 3;      // the router sits inside a board of this size, alone in its grid
  int board_cols = 3;
  int row = 1;
  int col = 1;
  std::uint64_t seed = 1;
  bool adaptive = false;   // router.routing "adaptive": the Y-first port is allowed too
  int margin_eighths = -1; // router.adaptive_margin in eighths (-1: the system default)
};

struct BenchPacket {
  std::uint32_t id = 0;
  int in_port = 0;
  int in_vc = 0;
  int dst_row = 0;
  int dst_col = 0;
  int flits = 1;
  int expected_port = 0;   // where DOR must send it
  int alt_port = -1;       // adaptive: the Y-first port it may take instead (-1: none)
  std::uint64_t created = 0;  // cycle send() queued it
};

// One flit seen at a receiver.
struct Arrival {
  std::uint32_t packet = 0;
  int flit = 0;
  int port = 0;
  int vc = 0;
  std::uint64_t cycle = 0;        // cycle the flit was on the router's output
};

class RouterBench {
 public:
  explicit RouterBench(const RouterBenchConfig& cfg);

  // Packet to (dst_row, dst_col) entering on input `port`, VC `vc`; returns its id.
  std::uint32_t send(int port, int vc, int dst_row, int dst_col, int flits);
  // The output DOR must choose from this router toward (dst_row, dst_col).
  int dor_port(int dst_row, int dst_col) const;
  // A destination (row, col) one step away through output `out` (the router itself for the local
  // port): the router must sit away from the board's edges.
  std::pair<int, int> dst_for(int out) const;
  // Outputs dimension-order routing allows after arriving on `in` (X first, then Y, then eject):
  // from the local port any, from W or E onward or turning to N, S, L, from N or S onward or L.
  static std::vector<int> legal_outputs(int in);

  void step();
  // Steps until every sent packet has fully arrived and the router is quiet; false on timeout.
  bool drain(std::uint64_t max_cycles);

  // Receiver behaviour: stalled receivers drain nothing; otherwise each cycle a receiver drains one
  // flit with probability drain_prob.
  void set_stalled(int port, bool stalled) { rx_[port].stalled = stalled; }
  void set_drain_probability(double p) { drain_prob_ = p; }
  // The link behind output `port` fails (hx_board_router port_down_i): from now on its receiver is
  // gone -- what the router sends there is counted as sent and dropped, no credit comes back.
  void set_port_down(int port) {
    router_->set_port_down(port);
    rx_[port].dead = true;
    for (auto& q : rx_[port].buf) q.clear();   // what it held is lost with it
  }

  std::uint64_t now() const { return now_; }
  const std::vector<Arrival>& arrivals() const { return arrivals_; }
  // Cycle each packet's head was on the router's input (keyed by packet id).
  const std::map<std::uint32_t, std::uint64_t>& head_in_cycle() const { return head_in_; }
  const std::vector<std::string>& errors() const { return errors_; }
  std::size_t packets_sent() const { return packets_.size(); }
  std::size_t packets_done() const { return done_packets_; }
  std::uint64_t flits_out(int port) const { return flits_out_[port]; }
  bool router_error() const { return router_->error(); }
  // Sender credits all back (every flit the router took was acknowledged).
  bool all_credits_home() const;
  // Router credits all back: the receivers hold nothing (what it sent was drained and credited).
  bool receivers_empty() const;
  const BenchPacket& packet(std::uint32_t id) const { return packets_.at(id); }
  sysc::BoardRouterBlock& router() { return *router_; }

  static std::uint32_t payload_word(std::uint32_t packet, int flit, int word);

 private:
  struct Sender {
    std::array<std::deque<std::uint32_t>, 8> queue;   // packet ids per VC
    std::array<int, 8> next_flit{};                   // next flit of the front packet
    std::array<int, 8> credits{};
    int rr = 0;
  };
  struct Receiver {
    std::array<std::deque<sysc::Flit>, 8> buf;
    std::array<std::int64_t, 8> open_packet{};        // packet being received on each VC, -1 none
    std::array<int, 8> next_flit{};
    bool stalled = false;
    bool dead = false;
    int rr = 0;
  };

  sysc::Flit make_flit(const BenchPacket& p, int index) const;
  void receive(int port, const sysc::Flit& f, std::uint64_t out_cycle);
  void error(const std::string& what);

  RouterBenchConfig cfg_;
  sysc::RouterSetup setup_;
  std::unique_ptr<sysc::BoardRouterBlock> router_;
  std::vector<sysc::Link> in_links_;    // sender -> router, credits back
  std::vector<sysc::Link> out_links_;   // router -> receiver, credits back
  std::array<Sender, 5> tx_;
  std::array<Receiver, 5> rx_;
  std::vector<BenchPacket> packets_;
  std::vector<std::vector<bool>> seen_;  // [packet][flit]
  std::vector<int> flits_seen_;
  std::size_t done_packets_ = 0;
  std::map<std::uint32_t, std::uint64_t> head_in_;
  std::vector<Arrival> arrivals_;
  std::array<std::uint64_t, 5> flits_out_{};
  std::vector<std::string> errors_;
  std::mt19937_64 rng_;
  double drain_prob_ = 1.0;
  std::uint64_t now_ = 0;
};

}  // namespace hxemu::tb
