// Fnv64: FNV-1a over bytes, for the digests reports carry to show two runs computed the same thing
// (every packet's arrival cycles, every node's result buffer). Not a cryptographic hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace hxemu::sysc {

class Fnv64 {
 public:
  void add_bytes(const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 1099511628211ull;
  }
  // The value's 8 bytes, least significant first (the same digest on any host byte order).
  void add(std::uint64_t v) {
    for (int k = 0; k < 8; ++k) h_ = (h_ ^ ((v >> (8 * k)) & 0xffu)) * 1099511628211ull;
  }
  std::uint64_t value() const { return h_; }
  std::string hex() const {
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(h_));
    return s;
  }

 private:
  std::uint64_t h_ = 1469598103934665603ull;
};

}  // namespace hxemu::sysc
