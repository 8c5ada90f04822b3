// The NIC's end-to-end packet CRC (rtl/nic/hx_nic.sv with crc_en_i; rtl/common/hx_crc32.svh) as a
// C++ reference for tests: CRC-32, polynomial 0x04C11DB7, initial value 0xFFFFFFFF, not reflected,
// fed bit by bit with each flit's `flit_bits`-bit payload from bit 0 up (bit i of a payload is bit
// i % 32 of data[i / 32]), final XOR 0xFFFFFFFF. A packet's CRC covers its head and its data
// flits, as sent on the link (the last data flit whole, bytes past the packet's end included),
// not its trailer; the trailer carries it in payload bits [31:0], the other bits 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sysc/fabric/flit.h"

namespace hxemu::sysc {

// The running value after feeding `f`'s payload into `crc` (no initial value, no final XOR).
std::uint32_t packet_crc_update(std::uint32_t crc, const Flit& f, int flit_bits);

// The CRC the trailer of a packet with these flits (head first, then the data flits; the trailer
// excluded) carries.
std::uint32_t packet_crc(const Flit* flits, std::size_t n, int flit_bits);
inline std::uint32_t packet_crc(const std::vector<Flit>& flits, int flit_bits) {
  return packet_crc(flits.data(), flits.size(), flit_bits);
}

}  // namespace hxemu::sysc
