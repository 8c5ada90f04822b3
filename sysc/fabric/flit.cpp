#include "sysc/fabric/flit.h"

#include <algorithm>

namespace hxemu::sysc {

// Word by word (a field spans at most three 32-bit words): the testbench reads and writes header
// fields of every flit it sends and receives.
std::uint64_t get_field(const Flit& f, Field field) {
  std::uint64_t v = 0;
  int done = 0;
  while (done < field.width) {
    const int bit = field.lsb + done;
    const int off = bit % 32;
    const int take = std::min(32 - off, field.width - done);
    const std::uint64_t mask = (take == 32) ? 0xffffffffull : ((1ull << take) - 1);
    v |= ((static_cast<std::uint64_t>(f.data[bit / 32]) >> off) & mask) << done;
    done += take;
  }
  return v;
}

void set_field(Flit& f, Field field, std::uint64_t value) {
  int done = 0;
  while (done < field.width) {
    const int bit = field.lsb + done;
    const int off = bit % 32;
    const int take = std::min(32 - off, field.width - done);
    const std::uint64_t mask = (take == 32) ? 0xffffffffull : ((1ull << take) - 1);
    const std::uint32_t m = static_cast<std::uint32_t>(mask << off);
    const std::uint32_t bits = static_cast<std::uint32_t>(((value >> done) & mask) << off);
    f.data[bit / 32] = (f.data[bit / 32] & ~m) | bits;
    done += take;
  }
}

}  // namespace hxemu::sysc
