// Access to slices of verilated ports. Verilator maps a port of up to 64 bits to an integer and a
// wider one to VlWide<N> (32-bit words); the flat packed ports of hxemu's RTL put port p's field at
// bits [p*w +: w]. These helpers read and write such slices for either representation.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "verilated.h"

namespace hxemu::sysc {

template <class T>
inline std::enable_if_t<std::is_integral_v<T>, std::uint64_t> get_bits(const T& port, int lsb,
                                                                       int width) {
  const std::uint64_t v = static_cast<std::uint64_t>(port) >> lsb;
  return width >= 64 ? v : (v & ((std::uint64_t{1} << width) - 1));
}

template <class T>
inline std::enable_if_t<std::is_integral_v<T>> set_bits(T& port, int lsb, int width,
                                                        std::uint64_t value) {
  const std::uint64_t mask =
      (width >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << width) - 1)) << lsb;
  port = static_cast<T>((static_cast<std::uint64_t>(port) & ~mask) | ((value << lsb) & mask));
}

template <std::size_t N>
inline std::uint64_t get_bits(const VlWide<N>& port, int lsb, int width) {
  std::uint64_t v = 0;
  for (int done = 0; done < width;) {
    const int bit = lsb + done;
    const int word = bit / 32;
    const int off = bit % 32;
    const int take = std::min(32 - off, width - done);
    const std::uint64_t chunk = (static_cast<std::uint64_t>(port[word]) >> off) &
                                ((std::uint64_t{1} << take) - 1);
    v |= chunk << done;
    done += take;
  }
  return v;
}

template <std::size_t N>
inline void set_bits(VlWide<N>& port, int lsb, int width, std::uint64_t value) {
  for (int done = 0; done < width;) {
    const int bit = lsb + done;
    const int word = bit / 32;
    const int off = bit % 32;
    const int take = std::min(32 - off, width - done);
    const std::uint32_t mask = static_cast<std::uint32_t>(((std::uint64_t{1} << take) - 1) << off);
    const std::uint32_t chunk = static_cast<std::uint32_t>((value >> done) << off) & mask;
    port[word] = (port[word] & ~mask) | chunk;
    done += take;
  }
}

// One bit, and a field of a width fixed when the block is built (`mask` = its low bits set), of a
// per-port vector: the link interface's per-flit accesses (sysc/blocks/link_ports.h). For a port of
// up to 64 bits these are a shift and a mask each, where get_bits/set_bits work out the width's mask
// and test for 64 on every call (about 130 instructions a router-cycle on mesh-8x8).
template <class T>
inline std::enable_if_t<std::is_integral_v<T>, unsigned> bit_at(const T& port, int p) {
  return static_cast<unsigned>(static_cast<std::uint64_t>(port) >> p) & 1u;
}
template <std::size_t N>
inline unsigned bit_at(const VlWide<N>& port, int p) {
  return (port[static_cast<std::size_t>(p / 32)] >> (p % 32)) & 1u;
}
template <class T>
inline std::enable_if_t<std::is_integral_v<T>> put_bit(T& port, int p, unsigned v) {
  const std::uint64_t bit = std::uint64_t{1} << p;
  port = static_cast<T>((static_cast<std::uint64_t>(port) & ~bit) | (std::uint64_t{v & 1u} << p));
}
template <std::size_t N>
inline void put_bit(VlWide<N>& port, int p, unsigned v) {
  std::uint32_t& w = port[static_cast<std::size_t>(p / 32)];
  w = (w & ~(std::uint32_t{1} << (p % 32))) | (std::uint32_t{v & 1u} << (p % 32));
}
template <class T>
inline std::enable_if_t<std::is_integral_v<T>, std::uint64_t> field_at(const T& port, int lsb,
                                                                      std::uint64_t mask) {
  return (static_cast<std::uint64_t>(port) >> lsb) & mask;
}
template <std::size_t N>
inline std::uint64_t field_at(const VlWide<N>& port, int lsb, std::uint64_t mask) {
  return get_bits(port, lsb, __builtin_popcountll(mask));
}
template <class T>
inline std::enable_if_t<std::is_integral_v<T>> put_field(T& port, int lsb, std::uint64_t mask,
                                                         std::uint64_t value) {
  port = static_cast<T>((static_cast<std::uint64_t>(port) & ~(mask << lsb)) | ((value & mask) << lsb));
}
template <std::size_t N>
inline void put_field(VlWide<N>& port, int lsb, std::uint64_t mask, std::uint64_t value) {
  set_bits(port, lsb, __builtin_popcountll(mask), value);
}

// Whether any bit of a port is set.
template <class T>
inline std::enable_if_t<std::is_integral_v<T>, bool> any_bit_set(const T& port) {
  return port != 0;
}
template <std::size_t N>
inline bool any_bit_set(const VlWide<N>& port) {
  std::uint32_t any = 0;
  for (std::size_t i = 0; i < N; ++i) any |= port[i];
  return any != 0;
}

// Copy `words` 32-bit words between a wide port and a plain array, starting at word `first`.
// They move every flit's payload into and out of the models, two or three times a router-cycle:
// a 256-bit payload (every shipped configuration) is one copy of constant size, which the
// compiler turns into two vector moves (a word loop cost about 75 instructions a router-cycle
// each way on mesh-8x8).
inline void copy_words(std::uint32_t* dst, const std::uint32_t* src, int words) {
  if (words == 8) {
    std::memcpy(dst, src, 8 * sizeof(std::uint32_t));
  } else {
    std::memcpy(dst, src, static_cast<std::size_t>(words) * sizeof(std::uint32_t));
  }
}
template <std::size_t N>
inline void read_words(const VlWide<N>& port, int first, int words, std::uint32_t* out) {
  copy_words(out, port.data() + first, words);
}
template <std::size_t N>
inline void write_words(VlWide<N>& port, int first, int words, const std::uint32_t* in) {
  copy_words(port.data() + first, in, words);
}

}  // namespace hxemu::sysc
