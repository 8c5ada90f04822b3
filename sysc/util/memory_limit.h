// How much memory one run may plan to use: commands estimate what a run allocates (host memory of
// every node, schedules) before allocating, and refuse a run above this limit with a clear error
// instead of ending in std::bad_alloc or the kernel's out-of-memory killer.
//
// The limit is 3/4 of the machine's physical memory, or the environment variable
// HXEMU_MEMORY_LIMIT (bytes, K/M/G suffixes, e.g. 8G) when it is set.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sysc/util/parse_number.h"

namespace hxemu::sysc {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  std::string source;   // where the figure comes from, for messages
};

inline std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

// Throws std::invalid_argument when HXEMU_MEMORY_LIMIT is set but is not a byte count.
inline MemoryLimit memory_limit() {
  if (const char* env = std::getenv("HXEMU_MEMORY_LIMIT")) {
    const auto b = parse_bytes(env);
    if (!b || *b == 0) {
      throw std::invalid_argument(std::string("HXEMU_MEMORY_LIMIT='") + env +
                                  "': expected a byte count such as 8G, 512M (K, M, G suffixes)");
    }
    return {*b, "HXEMU_MEMORY_LIMIT"};
  }
  const std::uint64_t phys = physical_memory_bytes();
  if (phys == 0) return {UINT64_MAX, "physical memory unknown"};
  return {phys / 4 * 3, "3/4 of this machine's physical memory; HXEMU_MEMORY_LIMIT overrides it"};
}

}  // namespace hxemu::sysc
