// What `hxemu describe` reports about a system: its size, its links per class, its VCs, its
// bandwidth figures, its route lengths (from the routing model, over all pairs) and, when given,
// the memory the process holds once the system is built.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sysc/system/system.h"

namespace hxemu::tb {

struct SystemDescription {
  nlohmann::json json;   // everything, machine readable
  std::string text;      // the same, for people
};

// The process's memory as the kernel reports it (/proc/self/status): resident now (VmRSS) and the
// peak so far (VmHWM), in bytes; both 0 where /proc is not available.
struct ProcessMemory {
  std::uint64_t resident = 0;
  std::uint64_t peak = 0;
};
ProcessMemory process_memory();

// `memory`: the process's memory right after building `sys` (nullptr: not reported). Reported as
// resident bytes, peak bytes and resident bytes per accelerator (resident / nodes: everything the
// process holds, blocks, links, terminals and tables, shared out over the accelerators).
SystemDescription describe_system(const sysc::System& sys, const ProcessMemory* memory = nullptr);

}  // namespace hxemu::tb
