// HostEngine: what the host of one accelerator does to its hardware -- the op-execution core shared
// by HostCpu (programs run in-process) and the remote host interface (sw/remote/, where outside
// programs issue the same operations over TCP). It owns no policy about what to do next; it
//   - posts puts on a rail's NIC, filling in the destination's routing coordinates
//     (System::route_of); the NIC is offered the put from the next cycle (sysc/host/nic_node.h);
//   - runs reduce and copy jobs on the rail's reduction engine: one engine per rail, serial, a job
//     takes ceil(len * cycles_per_byte) cycles (at least 1) from the cycle it starts, and its data
//     is combined for real (int32 or float32 sums, element by element) in the cycle it finishes;
//     when the node's memory has a bandwidth budget (HostMemory::limit_bandwidth), a job reserves
//     the rate its memory traffic needs (3 x len bytes for a reduce, 2 x len for a copy) for its
//     duration, and runs longer when less is left;
//   - reports, per cycle, what the host sees in a fixed order (collect()).
//
// Per cycle `now` a host calls: collect(now, events); then issues puts and jobs; then
// start_engines(now). Completions the NICs delivered in cycle t are visible from t + 1.
#pragma once

#include <cstdint>
#include <vector>

#include "sw/runtime/program.h"
#include "sysc/fabric/grow_ring.h"
#include "sysc/host/nic_node.h"

namespace hxemu::sw {

// A reduce (dst[i] += src[i] over len / 4 elements of `type`) or a copy (dst = src, len bytes).
struct EngineJob {
  OpKind kind = OpKind::kCopy;   // kReduce or kCopy
  DataType type = DataType::kInt32;
  std::uint32_t dst = 0, src = 0, len = 0;
  std::uint64_t token = 0;       // the issuer's name for it, returned on completion
};

// What collect() reports, in this order: for each rail in order, its TX completions then its RX
// completions (oldest first); then, for each rail in order, the engine job that finished.
class HostEvents {
 public:
  virtual ~HostEvents() = default;
  virtual void tx_done(int rail, const sysc::TxCompletion& c) = 0;
  virtual void rx_done(int rail, const sysc::RxCompletion& c) = 0;
  // ok == false: the job reached outside host memory and did nothing.
  virtual void job_done(int rail, const EngineJob& job, bool ok) = 0;
};

class HostEngine {
 public:
  // `routes[n]`: node n's routing coordinates; the vector must outlive the engine.
  HostEngine(std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
             const std::vector<std::uint32_t>& routes, double reduce_cycles_per_byte);

  int rails() const { return static_cast<int>(rails_.size()); }
  sysc::NicNode& nic(int rail) { return *rails_[rail]; }
  const sysc::NicNode& nic(int rail) const { return *rails_[rail]; }
  sysc::HostMemory& memory() { return mem_; }
  double reduce_cycles_per_byte() const { return cycles_per_byte_; }
  // Cycles a job of `len` bytes occupies its engine.
  std::uint64_t job_cycles(std::uint32_t len) const;

  void put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len, std::uint16_t tag);
  void submit(int rail, const EngineJob& job);

  void collect(std::uint64_t now, HostEvents& out);
  void start_engines(std::uint64_t now);

  // A NIC completion is visible now.
  bool completions_visible() const;
  // An engine job is running or queued.
  bool engines_busy() const;
  // Drops every running and queued job (a new program, or the remote client that issued them left
  // and the jobs are wanted no more). Their data is not touched.
  void clear_jobs();

 private:
  struct Engine {
    bool active = false;
    EngineJob job;
    std::uint64_t busy_until = 0;
    double reserved = 0;   // memory bandwidth the running job holds (bytes per cycle)
    sysc::GrowRing<EngineJob> queue;
  };
  std::uint64_t last_now_ = 0;   // the latest cycle the host stepped the engines in
  bool run_job(const EngineJob& job);

  std::vector<sysc::NicNode*> rails_;
  sysc::HostMemory& mem_;
  const std::vector<std::uint32_t>& routes_;
  double cycles_per_byte_;
  std::vector<Engine> engines_;
};

}  // namespace hxemu::sw
