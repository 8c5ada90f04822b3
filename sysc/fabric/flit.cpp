#include "sysc/fabric/flit.h"

namespace hxemu::sysc {

std::uint64_t get_field(const Flit& f, Field field) {
  std::uint64_t v = 0;
  for (int i = 0; i < field.width; ++i) {
    const int bit = field.lsb + i;
    v |= static_cast<std::uint64_t>((f.data[bit / 32] >> (bit % 32)) & 1u) << i;
  }
  return v;
}

void set_field(Flit& f, Field field, std::uint64_t value) {
  for (int i = 0; i < field.width; ++i) {
    const int bit = field.lsb + i;
    const std::uint32_t m = 1u << (bit % 32);
    if ((value >> i) & 1u) {
      f.data[bit / 32] |= m;
    } else {
      f.data[bit / 32] &= ~m;
    }
  }
}

}  // namespace hxemu::sysc
