// ServerOptions: the limits and timeouts of the remote host interface's server
// (docs/remote-protocol.md, "Limits and timeouts"), with their defaults and their checks.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace hxemu::sw::remote {

// Host memory over all nodes of a served machine. The rails of a node share one memory, so the
// total is nodes x memory_bytes; it is checked before anything is allocated.
inline constexpr std::uint64_t kMaxTotalMemory = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kMemoryGranule = 4096;       // memory_bytes is a multiple of this
inline constexpr std::uint64_t kDefaultNodeMemory = 4u << 20;

// The largest memory_bytes for `nodes` nodes (a multiple of kMemoryGranule; 0 if not even one
// granule per node fits), and the default: kDefaultNodeMemory, less where that would not fit.
std::uint64_t max_memory_per_node(int nodes);
std::uint64_t default_memory_per_node(int nodes);

struct ServerOptions {
  using Duration = std::chrono::milliseconds;

  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;                   // 0: any free port
  int max_clients = 0;                      // open connections; 0: nodes + 16
  std::size_t max_frame = 4u << 20;         // bytes of one request line, newline included
  // Bytes of requests read from a connection and not handled yet (a parked wait holds back those
  // behind it); at the bound the server stops reading that socket. 0: max_frame. At least max_frame.
  std::size_t max_backlog = 0;
  std::size_t max_read = 1u << 20;          // bytes one read request may return
  std::size_t max_events = 1u << 20;        // events queued per client (older ones are dropped)
  std::size_t max_pipeline = 256;           // requests read ahead per connection
  std::uint64_t memory_bytes = 0;           // host memory per node; 0: default_memory_per_node
  int rails = 4;                            // NICs per node
  int memory_latency = 8;                   // host-memory read latency, cycles
  double reduce_cycles_per_byte = 0;        // 0: the memory port, 8 / flit_bits
  // Timeouts (0: none). handshake: a connection without a completed hello is closed. idle: a
  // connection that sends no complete request (and has no wait parked) is closed. hold: an
  // attached client that neither waits nor sends a request while another attached client waits
  // (so simulated time stands still for it) is detached.
  Duration handshake_timeout{10'000};
  Duration idle_timeout{300'000};
  Duration hold_timeout{60'000};

  // The user's name for a field in error messages (the command line passes its flag names).
  using FieldName = std::function<std::string(const std::string& field)>;
  // Throws std::invalid_argument naming a bad field and its allowed values; `nodes` is the size of
  // the machine to serve (memory_bytes is capped over all of them).
  void validate(int nodes, const FieldName& name = {}) const;
  // The options with every 0-means-default field filled in for a machine of `nodes` nodes.
  ServerOptions resolved(int nodes) const;
};

}  // namespace hxemu::sw::remote
