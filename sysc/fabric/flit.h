// Flit and credit as they travel on a link (docs/link-interface.md), and the head-flit field
// layout. The bit positions mirror rtl/common/hx_flit.svh; tests/sysc/fabric/flit_format_test.cpp
// checks that the two agree by reading the RTL header.
#pragma once

#include <array>
#include <cstdint>

namespace hxemu::sysc {

// Widest payload the C++ side carries (the RTL width is a build variant, see HxVariants.cmake).
inline constexpr int kMaxFlitBits = 512;
inline constexpr int kMaxFlitWords = kMaxFlitBits / 32;

struct Flit {
  bool valid = false;
  bool head = false;
  bool tail = false;
  std::uint8_t vc = 0;
  std::array<std::uint32_t, kMaxFlitWords> data{};
};

struct Credit {
  bool valid = false;
  std::uint8_t vc = 0;
};

// Head-flit fields: bit position and width inside the payload.
struct Field {
  int lsb;
  int width;
};

namespace hdr {
inline constexpr Field kDst{0, 16};
inline constexpr Field kSrc{16, 16};
inline constexpr Field kDstGridRow{32, 8};
inline constexpr Field kDstGridCol{40, 8};
inline constexpr Field kDstLocalRow{48, 8};
inline constexpr Field kDstLocalCol{56, 8};
inline constexpr Field kTag{64, 16};
inline constexpr Field kSeq{80, 16};
inline constexpr Field kMsgLen{96, 32};
inline constexpr Field kPacketAddr{128, 32};
inline constexpr Field kPacketBytes{160, 16};
inline constexpr Field kRail{176, 2};
inline constexpr int kRouteBits = 64;
inline constexpr int kMsgBits = 192;
}  // namespace hdr

// Read / write a field of at most 64 bits in a flit payload.
std::uint64_t get_field(const Flit& f, Field field);
void set_field(Flit& f, Field field, std::uint64_t value);

}  // namespace hxemu::sysc
