#include "sysc/fabric/packet_crc.h"

#include <stdexcept>
#include <string>

namespace hxemu::sysc {

std::uint32_t packet_crc_update(std::uint32_t crc, const Flit& f, int flit_bits) {
  if (flit_bits < 0 || flit_bits > kMaxFlitBits) {
    throw std::invalid_argument("packet_crc: flit_bits must be 0.." + std::to_string(kMaxFlitBits));
  }
  for (int i = 0; i < flit_bits; ++i) {
    const std::uint32_t bit = (f.data[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1u;
    const bool feedback = ((crc >> 31) ^ bit) != 0;
    crc <<= 1;
    if (feedback) crc ^= 0x04C11DB7u;
  }
  return crc;
}

std::uint32_t packet_crc(const Flit* flits, std::size_t n, int flit_bits) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t k = 0; k < n; ++k) crc = packet_crc_update(crc, flits[k], flit_bits);
  return crc ^ 0xFFFFFFFFu;
}

}  // namespace hxemu::sysc
