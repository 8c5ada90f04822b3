// LinkExchange: the links whose two ends are stepped by different ranks. After a rank has stepped
// its partitions through cycles [t0, t1) -- one lookahead window, so nothing sent in it can arrive
// before t1 (sysc/harness/parallel_harness.h) -- it sends each peer the flits its blocks put on
// links toward that peer's blocks and the credits they returned on links from them, and puts what
// the peers sent into its own copies of those links, at the cycles they arrive. Every rank lists a
// peer's links in link-index order, so the two sides agree on the message layout without a header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::sysc {

class System;

class LinkExchange {
 public:
  explicit LinkExchange(System& sys);
  bool active() const { return !peers_.empty(); }
  void exchange(std::uint64_t t0, std::uint64_t t1);
  // Flits and credits this rank sent to other ranks so far.
  std::uint64_t flits_sent() const { return flits_sent_; }

 private:
  struct Peer {
    int rank = -1;
    std::vector<int> send_flits, send_credits;   // links: this rank sends flits / returns credits
    std::vector<int> recv_flits, recv_credits;   // links: the peer sends flits / returns credits
  };
  System& sys_;
  std::vector<Peer> peers_;
  std::vector<int> peer_ranks_;
  std::vector<std::string> out_, in_;
  std::uint64_t flits_sent_ = 0;
};

}  // namespace hxemu::sysc
