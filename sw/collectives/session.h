// CollectiveSession: a system whose accelerators have one NIC per network port and a host running
// collective schedules, built once and used for many collectives in a row (as a training job
// would). Each run writes seeded inputs, builds and loads every node's program, runs the emulation
// until every program finished, checks every result element, and reports nccl-tests figures beside
// the algorithm's bound.
//
// The bound: route every put of the schedule through the system's routing (sysc/system/route_model.h)
// and add its bytes to every link it crosses, NIC links included; the busiest link, at full payload
// bandwidth (flit_bits / 8 bytes per cycle), gives the shortest possible time, hence the highest
// possible busbw of that algorithm on that machine ("its busbw if every link it drives ran at full
// payload bandwidth"). For alltoall this is the bound from the pattern's maximum channel load.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/algorithms.h"
#include "sw/runtime/host_cpu.h"
#include "sysc/harness/harness.h"
#include "sysc/host/nic_node.h"
#include "sysc/system/system.h"

namespace hxemu::sw {

struct SessionConfig {
  std::string group = "all";
  DataType type = DataType::kInt32;
  double reduce_cycles_per_byte = 0;     // 0: the memory port (flit_bits / 8 bytes per cycle)
  std::uint64_t max_bytes = 1 << 20;     // largest collective (sizes host memory)
  std::uint64_t seed = 1;
  int rails = 4;                         // NICs per accelerator (one per network port)
  int memory_latency = 8;                // host-memory read latency, cycles
  // Host-memory bandwidth per accelerator, shared by its NICs' DMA and its reduction engines
  // (sysc/host/memory_bandwidth.h); 0: unlimited. Default HBM-class: 2,048 bytes per cycle =
  // 3.2 TB/s at 1.5625 GHz, more than four NIC ports and engines move (it never binds by default).
  double memory_bytes_per_cycle = 2048;
  std::uint64_t stall_cycles = 200000;   // no progress this long = stuck
  sysc::HarnessFactory harness = sysc::make_plain_harness;
  // Progress display (optional): called from the run loop with the session's cycle count once
  // that count reaches the value the previous call returned (0 before the first call); returns
  // the next such count. The loop itself only compares two counters.
  std::function<std::uint64_t(std::uint64_t)> progress;
};

struct CollectiveResult {
  std::string op, algo, type;
  std::string result_digest;   // of every node's data buffer after the run (hex FNV-1a)
  std::uint64_t bytes = 0, count = 0;
  int ranks = 0, communicators = 0;
  std::uint64_t cycles = 0;
  double microseconds = 0;
  double algbw = 0, busbw = 0;           // GB/s (1e9 bytes/s), as nccl-tests
  double bound_busbw = 0;                // GB/s
  double bound_fraction = 0;             // busbw / bound_busbw
  double injection = 0;                  // GB/s: the accelerator's network ports at full rate
  double injection_fraction = 0;         // busbw / injection
  std::uint64_t bound_cycles = 0;        // busiest link's bytes / link payload bytes per cycle
  std::string busiest_link;
  std::uint64_t puts = 0;
  std::uint64_t checked = 0, wrong = 0;
  bool ok = false;
  std::vector<std::string> errors;
  double wall_seconds = 0;
  // Emulation effort: block ticks evaluated and skipped (idle blocks with nothing arriving) in
  // this run, summed over ranks.
  std::uint64_t block_ticks = 0, block_ticks_skipped = 0;
  // Multidim platforms (docs/multidim.md): LIBRA's analytical time (sw/collectives/libra_estimate.h)
  // beside the emulated one, and per dimension the payload bytes per NPU this schedule sends into
  // it and the share of its bandwidth that used over the run (sum over the links leaving the NPUs
  // into the dimension / (links x cycles x flit bytes)); LIBRA's share is its load / bandwidth
  // over its own time.
  struct DimFigure {
    std::string name, kind;
    int size = 0, lanes = 0;
    double libra_load_bytes = 0, libra_cycles = 0, libra_utilisation = 0;
    double sent_bytes_per_npu = 0, utilisation = 0;
  };
  bool has_libra = false;
  double libra_cycles = 0;
  double libra_ratio = 0;          // emulated cycles / LIBRA's
  std::string libra_bottleneck;    // the dimension that sets LIBRA's time
  std::vector<DimFigure> dims;
  nlohmann::json json() const;
};

// What a session allocates, estimated before it is built, so that a run too large for the machine
// is refused with a clear error (sysc/util/memory_limit.h) instead of ending in std::bad_alloc:
//   host      every node's host memory: data and two scratch buffers of the largest size
//             (BufferLayout::for_bytes), shared by the node's rails -- an upper bound: host memory
//             is allocated in pages on first write (sysc/host/host_memory.h), and what a
//             collective never writes costs nothing
//   schedule  the programs of one run and the hosts' bookkeeping of them: about 6 operations per
//             pipelining chunk of a node's buffer (an allreduce sends ~2x the buffer; each chunk is
//             a put, a receive and often a reduction) plus 24 per communicator member (four rings'
//             steps when chunks are few), ~96 bytes each (measured: ~5 and ~72 on hx2mesh-16)
//   routes    the bound's per-(node, peer, rail) route table (up to every pair, for alltoall)
//   system    the verilated blocks, links and harness: a fixed amount per node
// `collectives` is how many collectives one schedule holds (a training job's steps x 2).
struct SessionMemory {
  int nodes = 0;
  std::uint64_t host = 0, schedule = 0, routes = 0, system = 0;
  std::uint64_t total() const { return host + schedule + routes + system; }
  // "16 nodes x (3.0 GiB host memory + 12.3 MiB schedule + ...)"
  std::string detail() const;
};
SessionMemory estimate_session_memory(const sysc::SystemConfig& cfg, const SessionConfig& s,
                                      std::uint32_t chunk_bytes = 0, int collectives = 1);

class CollectiveSession {
 public:
  CollectiveSession(const sysc::SystemConfig& cfg, const SessionConfig& s);
  ~CollectiveSession();

  // bytes: the per-node buffer (a multiple of 4); opt.count is derived from it.
  CollectiveResult run(CollectiveOp op, const std::string& algo, std::uint64_t bytes,
                       BuildOptions opt = {});
  // The same on communicators chosen by the caller (a training step's tensor or data-parallel
  // groups) instead of the session's group; they must be disjoint.
  CollectiveResult run_on(const std::vector<Communicator>& comms, CollectiveOp op, const std::string& algo,
                          std::uint64_t bytes, BuildOptions opt = {});

  // Lower level, for schedules built elsewhere (training jobs): loads every node's program from
  // `b`, runs until all finished (or stalled), and returns the cycle each node finished, relative
  // to the common start; errors go to `errors`.
  std::vector<std::uint64_t> execute(ScheduleBuilder& b, std::vector<std::string>& errors);
  // Digest of every node's data buffer (the result of the last collective), agreed by every rank.
  std::string result_digest(const BufferLayout& layout, std::uint64_t bytes) const;
  sysc::HostMemory& memory(int node) { return nics_->memory(node); }

  sysc::System& system() { return *sys_; }
  const std::vector<Communicator>& communicators() const { return comms_; }
  int rails() const { return rails_; }
  std::uint64_t now() const { return sys_->net().now(); }

 private:
  sysc::SystemConfig cfg_;
  SessionConfig s_;
  std::unique_ptr<sysc::NicFactory> nics_;
  std::unique_ptr<sysc::System> sys_;
  std::vector<std::uint32_t> routes_;
  std::vector<HostCpu*> hosts_;
  std::vector<Communicator> comms_;
  std::unique_ptr<sysc::Harness> harness_;
  int rails_ = 1;
  std::uint64_t progress_next_ = 0;   // see SessionConfig::progress
  // The host-memory layout of a collective of `bytes` with algorithm `algo`: the hierarchical
  // algorithms on a multidim platform take a scratch bank per reduction stage.
  BufferLayout layout_for(const std::vector<Communicator>& comms, const std::string& algo,
                          std::uint64_t bytes) const;
};

}  // namespace hxemu::sw
