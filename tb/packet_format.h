// How the testbench's synthetic packets are laid out in flits. Head flits carry the routing fields
// (sysc/fabric/flit.h) plus the packet's identity; every flit's remaining words are a function of
// (packet id, flit index), so any receiver can check a flit it gets without a copy of the packet.
#pragma once

#include <cstdint>

#include "sysc/fabric/flit.h"

namespace hxemu::tb {

struct PacketSpec {
  std::uint64_t id = 0;          // unique in a run
  int src = 0;
  int dst = 0;
  std::uint32_t route = 0;       // destination coordinates as in head bits [63:32]
  int flits = 1;                 // including the head
  std::uint64_t created = 0;     // cycle the source queued it
};

namespace pkt {
inline constexpr sysc::Field kId{64, 64};
inline constexpr sysc::Field kCreated{128, 32};
inline constexpr sysc::Field kFlits{160, 16};
}  // namespace pkt

// Flit `index` of packet `p` for a `flit_bits`-wide link.
sysc::Flit make_packet_flit(const PacketSpec& p, int index, int flit_bits);
// The word pattern of body flits (and of head words above the header).
std::uint32_t payload_word(std::uint64_t id, int index, int word);
// The packet id a flit belongs to and its index (index 0 for heads).
std::uint64_t flit_packet_id(const sysc::Flit& f);
int flit_index(const sysc::Flit& f);
// True when every payload word of `f` is what make_packet_flit would produce for its id/index.
bool flit_payload_intact(const sysc::Flit& f, int flit_bits);

}  // namespace hxemu::tb
