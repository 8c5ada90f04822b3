#include "sw/remote/server_options.h"

#include <algorithm>
#include <stdexcept>

namespace hxemu::sw::remote {

namespace {

constexpr std::chrono::milliseconds kMaxTimeout{24 * 3600 * 1000};

// "1 GiB", "64 MiB", "4 KiB" where exact, else "4097 bytes".
std::string bytes_text(std::uint64_t b) {
  if (b >= (1u << 30) && b % (1u << 30) == 0) return std::to_string(b >> 30) + " GiB";
  if (b >= (1u << 20) && b % (1u << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

}  // namespace

std::uint64_t max_memory_per_node(int nodes) {
  if (nodes < 1) return 0;
  return kMaxTotalMemory / static_cast<std::uint64_t>(nodes) / kMemoryGranule * kMemoryGranule;
}

std::uint64_t default_memory_per_node(int nodes) {
  return std::min(kDefaultNodeMemory, max_memory_per_node(nodes));
}

void ServerOptions::validate(int nodes, const FieldName& name) const {
  const auto field = [&](const std::string& f) { return name ? name(f) : f; };
  auto bad = [](const std::string& what) { throw std::invalid_argument("remote server: " + what); };
  if (max_clients < 0) bad(field("max_clients") + " must be >= 0 (0: nodes + 16)");
  if (max_frame < 256) bad(field("max_frame") + " must be at least 256 bytes");
  if (max_backlog != 0 && max_backlog < max_frame) {
    bad(field("max_backlog") + " (" + std::to_string(max_backlog) + " bytes) must be 0 (the same as " +
        field("max_frame") + ") or at least " + field("max_frame") + " (" + std::to_string(max_frame) +
        " bytes): one whole request must fit");
  }
  if (max_read < 1) bad(field("max_read") + " must be at least 1 byte");
  if (max_events < 1) bad(field("max_events") + " must be at least 1");
  if (max_pipeline < 1) bad(field("max_pipeline") + " must be at least 1");
  if (memory_bytes != 0) {
    const std::uint64_t most = max_memory_per_node(nodes);
    if (memory_bytes % kMemoryGranule != 0 || memory_bytes < kMemoryGranule || memory_bytes > most) {
      bad(field("memory_bytes") + " = " + bytes_text(memory_bytes) + " is out of range: a multiple of " +
          bytes_text(kMemoryGranule) + " from " + bytes_text(kMemoryGranule) + " to " + bytes_text(most) +
          " per node on this machine (at most " + bytes_text(kMaxTotalMemory) + " of host memory over its " +
          std::to_string(nodes) + " nodes; the rails of a node share its memory)");
    }
  } else if (max_memory_per_node(nodes) < kMemoryGranule) {
    bad("the machine has " + std::to_string(nodes) + " nodes: not even " + bytes_text(kMemoryGranule) +
        " of host memory each fits in " + bytes_text(kMaxTotalMemory));
  }
  if (rails < 1 || rails > 4) bad(field("rails") + " must be 1..4, got " + std::to_string(rails));
  if (memory_latency < 1 || memory_latency > 1000) bad(field("memory_latency") + " must be 1..1000");
  if (!(reduce_cycles_per_byte >= 0 && reduce_cycles_per_byte <= 1000)) {
    bad(field("reduce_cycles_per_byte") + " must be 0..1000 (0: the memory port)");
  }
  const std::pair<const char*, Duration> timeouts[] = {
      {"handshake_timeout", handshake_timeout}, {"idle_timeout", idle_timeout}, {"hold_timeout", hold_timeout}};
  for (const auto& [f, t] : timeouts) {
    if (t.count() < 0 || t > kMaxTimeout) {
      bad(field(f) + " must be 0 (none) to 86400 seconds, got " + std::to_string(t.count()) + " ms");
    }
  }
}

ServerOptions ServerOptions::resolved(int nodes) const {
  ServerOptions o = *this;
  if (o.max_clients == 0) o.max_clients = nodes + 16;
  if (o.max_backlog == 0) o.max_backlog = o.max_frame;
  if (o.memory_bytes == 0) o.memory_bytes = default_memory_per_node(nodes);
  return o;
}

}  // namespace hxemu::sw::remote
