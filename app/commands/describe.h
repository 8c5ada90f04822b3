// What `hxemu describe` reports about a system: its size, its links per class, its VCs, its
// bandwidth figures, its route lengths (from the routing model, over all pairs) and, when given,
// the memory the process holds once the system is built.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sysc/system/deadlock_check.h"
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

// Adds a deadlock check's verdict (sysc/system/deadlock_check.h) to `d`: JSON key "deadlock_check"
// and a text line "deadlock check: channel-dependency graph of N channels, E dependencies:
// acyclic" (or the cycle, one channel per line, or the routing error).
void add_deadlock_check(const sysc::System& sys, const sysc::DeadlockReport& r,
                        SystemDescription& d);

}  // namespace hxemu::tb
