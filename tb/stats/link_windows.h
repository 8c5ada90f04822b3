// LinkWindows: per-link load over time windows (docs/network-picture.md). Every W cycles it reads
// the Network's cumulative counters -- flits each directed link carried (Network::link_flits) and
// the stall cycles at the input port the link feeds (Network::stalls_credit / stalls_sa) -- and
// keeps the difference, so a run yields, per link and window, flits, utilisation (flits / window
// cycles) and stall counts, plus totals over the whole observed span.
//
// Nothing here runs per cycle: the caller steps its network as before and calls sample(now) after
// each step (one compare unless a window edge was passed). A caller that can cut its steps at the
// window edges (run(): TrafficSystem, the NIC traffic run) gets exact windows; one that cannot
// (a collective session steps 64 cycles at a time) gets windows that end at the first sample at
// or after each edge, and every window records its real length.
//
// The Network has no per-VC flit or stall counters, so there are none here; its stall counters
// are per input port, i.e. per link that feeds a router or switch (a terminal's input counts none).
//
// Under mpirun each rank counts the links its partitions send on; finish() sums them, so every
// rank must call it at the same point of its run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/system.h"

namespace hxemu::tb {

// "router5.E", "rowtree1.p3", "node7.nic2.p0": a block port as reports name it (router ports by
// their mesh or local name, every other block's by number).
std::string link_end_label(const sysc::System& sys, sysc::PortRef p);

class LinkWindows {
 public:
  // window_cycles 0: no windows, only the totals between attach() and finish().
  explicit LinkWindows(std::uint64_t window_cycles) : w_(window_cycles) {}

  // Starts observing `sys` at its current cycle (the counters there are the baseline). Until
  // then sample() does nothing, so a hook may be installed before the system exists.
  void attach(const sysc::System& sys);
  bool attached() const { return sys_ != nullptr; }

  // Call after every step of the network, with the cycle reached.
  void sample(std::uint64_t now) {
    if (sys_ && w_ > 0 && now >= next_edge_) close_window(now);
  }
  // The next cycle at which sample() does any work (for hooks that keep their own compare).
  std::uint64_t next_edge() const { return w_ > 0 ? next_edge_ : ~std::uint64_t{0}; }
  // Steps `cycles` cycles through `step(k)` (which must advance the network by k), cut at the
  // window edges and sampled after each piece: exact windows.
  template <class Step>
  void run(std::uint64_t now, std::uint64_t cycles, Step&& step) {
    while (cycles > 0) {
      const std::uint64_t k = w_ > 0 && next_edge_ > now ? std::min(cycles, next_edge_ - now) : cycles;
      step(k);
      now += k;
      cycles -= k;
      sample(now);
    }
  }
  // The caller is about to call Network::reset_link_counters() / reset_stall_counters(): what
  // the counters hold since the last window edge is kept, and the baseline becomes 0.
  void before_counter_reset();
  // Closes the last (partial) window, adds up the ranks' counts and keeps the links' names: the
  // figures outlive the system. Call once, at the end.
  void finish(std::uint64_t now);

  std::uint64_t window_cycles() const { return w_; }
  // Window k spans cycles [edges()[k], edges()[k + 1]); the totals span front() .. back().
  const std::vector<std::uint64_t>& edges() const { return edges_; }
  int windows() const { return edges_.empty() ? 0 : static_cast<int>(edges_.size()) - 1; }
  int links() const { return links_; }
  std::uint64_t flits(int link, int window) const { return flits_[idx(link, window)]; }
  std::uint64_t stall_credit(int link, int window) const { return stall_credit_[idx(link, window)]; }
  std::uint64_t stall_sa(int link, int window) const { return stall_sa_[idx(link, window)]; }
  double utilisation(int link, int window) const;
  // Per link, flits / cycles over the whole observed span (the picture's colours).
  std::vector<double> total_utilisation() const;
  std::uint64_t total_flits(int link) const;

  // {"window_cycles", "start", "end", "edges", "links": [{"id", "from", "to", "class", "flits",
  //  "utilisation", "stall_credit", "stall_sa", "total_flits", "total_utilisation"}], "totals"}.
  // After finish().
  nlohmann::json json() const;

 private:
  void close_window(std::uint64_t now);
  std::size_t idx(int link, int window) const {
    return static_cast<std::size_t>(window) * static_cast<std::size_t>(links_) + static_cast<std::size_t>(link);
  }

  std::uint64_t w_;
  const sysc::System* sys_ = nullptr;
  int links_ = 0;
  std::uint64_t next_edge_ = 0;
  bool finished_ = false;
  struct LinkName {
    std::string from, to, cls;
  };
  std::vector<LinkName> names_;   // per link, kept by finish()
  // Per link: the counters at the last window edge, and what a counter reset since then took.
  std::vector<std::uint64_t> base_flits_, base_credit_, base_sa_;
  std::vector<std::uint64_t> carry_flits_, carry_credit_, carry_sa_;
  std::vector<std::uint64_t> edges_;
  // Window-major: window k's links at [k * links_, (k + 1) * links_).
  std::vector<std::uint64_t> flits_, stall_credit_, stall_sa_;
};

}  // namespace hxemu::tb
