#include "tb/packet_format.h"

namespace hxemu::tb {

namespace {
constexpr int kHeadFirstFreeWord = 6;   // words 0-5: routing fields, id, created, flits
}

std::uint32_t payload_word(std::uint64_t id, int index, int word) {
  std::uint64_t x = id * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(index) * 0xBF58476D1CE4E5B9ull +
                    static_cast<std::uint64_t>(word) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return static_cast<std::uint32_t>(x);
}

sysc::Flit make_packet_flit(const PacketSpec& p, int index, int flit_bits) {
  sysc::Flit f;
  f.valid = true;
  f.head = index == 0;
  f.tail = index == p.flits - 1;
  const int words = flit_bits / 32;
  if (f.head) {
    sysc::set_field(f, sysc::hdr::kDst, static_cast<std::uint64_t>(p.dst));
    sysc::set_field(f, sysc::hdr::kSrc, static_cast<std::uint64_t>(p.src));
    f.data[1] = p.route;
    sysc::set_field(f, pkt::kId, p.id);
    sysc::set_field(f, pkt::kCreated, p.created);
    sysc::set_field(f, pkt::kFlits, static_cast<std::uint64_t>(p.flits));
    for (int w = kHeadFirstFreeWord; w < words; ++w) f.data[w] = payload_word(p.id, 0, w);
  } else {
    f.data[0] = static_cast<std::uint32_t>(p.id);
    f.data[1] = static_cast<std::uint32_t>(p.id >> 32);
    f.data[2] = static_cast<std::uint32_t>(index);
    for (int w = 3; w < words; ++w) f.data[w] = payload_word(p.id, index, w);
  }
  return f;
}

std::uint64_t flit_packet_id(const sysc::Flit& f) {
  if (f.head) return sysc::get_field(f, pkt::kId);
  return (static_cast<std::uint64_t>(f.data[1]) << 32) | f.data[0];
}

int flit_index(const sysc::Flit& f) { return f.head ? 0 : static_cast<int>(f.data[2]); }

bool flit_payload_intact(const sysc::Flit& f, int flit_bits) {
  const int words = flit_bits / 32;
  const std::uint64_t id = flit_packet_id(f);
  const int index = flit_index(f);
  for (int w = f.head ? kHeadFirstFreeWord : 3; w < words; ++w) {
    if (f.data[w] != payload_word(id, index, w)) return false;
  }
  return true;
}

}  // namespace hxemu::tb
