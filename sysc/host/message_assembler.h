// MessageAssembler: the host's side of RX completion. The NIC reports each packet when its bytes
// are all in host memory (RxLanding: source, sequence number, tag, message length, packet bytes);
// this adds the packets up per message and releases each message, once all its bytes have landed,
// in the order its source posted it (per-source sequence numbers, 16-bit, wrapping).
//
// Why on the host: the count is the only per-message state receiving needs, and kept here it
// grows with the fan-in in host memory instead of filling a table in the NIC that, when full,
// would stop the NIC from draining the network (rtl/nic/hx_nic_rx.sv). Work per landing is a
// binary search over the messages in reassembly and the sources heard from, not per cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sysc/blocks/nic.h"
#include "sysc/fabric/grow_ring.h"

namespace hxemu::sysc {

class MessageAssembler {
 public:
  // Adds one packet. Messages it completes (it and any done successors from the same source) are
  // queued for pop(). A landing that contradicts its message (more bytes than the message has
  // left, or another tag or length for the same source and sequence number) sets error() and is
  // dropped.
  void add(const RxLanding& l);
  bool pop(RxCompletion& c);
  bool ready() const { return !out_.empty(); }

  const std::string& error() const { return error_; }
  // Messages with some but not all bytes landed, or done and waiting for a predecessor.
  std::size_t in_reassembly() const { return open_.size(); }
  std::size_t most_in_reassembly() const { return most_open_; }
  std::size_t sources_heard() const { return sources_.size(); }

 private:
  struct Open {
    std::uint32_t key;          // src << 16 | seq
    std::uint16_t tag;
    std::uint32_t len;
    std::uint32_t landed;
  };
  struct Source {
    std::uint16_t src;
    std::uint16_t expect;       // sequence number completed next
  };
  static std::uint32_t key(std::uint16_t src, std::uint16_t seq) {
    return static_cast<std::uint32_t>(src) << 16 | seq;
  }
  std::vector<Open>::iterator find_open(std::uint32_t k);
  Source& source(std::uint16_t src);

  std::vector<Open> open_;      // sorted by key
  std::vector<Source> sources_; // sorted by src
  GrowRing<RxCompletion> out_;
  std::size_t most_open_ = 0;
  std::string error_;
};

}  // namespace hxemu::sysc
