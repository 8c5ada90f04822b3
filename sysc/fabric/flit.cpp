#include "sysc/fabric/flit.h"

#include <algorithm>

namespace hxemu::sysc {

namespace {

// Visits a field word by word (it spans at most three 32-bit words): fn(word, offset in the word,
// mask of the bits taken there, bits of the field done before). The testbench reads and writes
// header fields of every flit it sends and receives.
template <class Fn>
void for_each_word_of(Field field, Fn&& fn) {
  int done = 0;
  while (done < field.width) {
    const int bit = field.lsb + done;
    const int off = bit % 32;
    const int take = std::min(32 - off, field.width - done);
    const std::uint64_t mask = (take == 32) ? 0xffffffffull : ((1ull << take) - 1);
    fn(bit / 32, off, mask, done);
    done += take;
  }
}

}  // namespace

std::uint64_t get_field(const Flit& f, Field field) {
  std::uint64_t v = 0;
  for_each_word_of(field, [&](int word, int off, std::uint64_t mask, int done) {
    v |= ((static_cast<std::uint64_t>(f.data[word]) >> off) & mask) << done;
  });
  return v;
}

void set_field(Flit& f, Field field, std::uint64_t value) {
  for_each_word_of(field, [&](int word, int off, std::uint64_t mask, int done) {
    const auto m = static_cast<std::uint32_t>(mask << off);
    const auto bits = static_cast<std::uint32_t>(((value >> done) & mask) << off);
    f.data[word] = (f.data[word] & ~m) | bits;
  });
}

}  // namespace hxemu::sysc
