// HostCpu: the host of one accelerator running a Program against the node's NICs (one per rail)
// and its host memory. It is a block without links that the System steps with the node's board,
// so host reactions are cycle-accurate: a completion delivered in cycle t is seen in t + 1, the put
// it triggers is offered to the NIC in t + 2 (sysc/host/nic_node.h).
//
// It is ProgramState (what to do next) driving HostEngine (doing it to the hardware); the remote
// host interface (sw/remote/) drives the same HostEngine for programs that run outside, and its
// program runner uses the same ProgramState, so a schedule takes the same cycles either way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/runtime/host_engine.h"
#include "sw/runtime/program.h"
#include "sw/runtime/program_state.h"
#include "sysc/host/nic_node.h"

namespace hxemu::sw {

struct HostCpuConfig {
  DataType type = DataType::kInt32;
  double reduce_cycles_per_byte = 1.0 / 32;   // default: the memory port, W/8 bytes per cycle
};

class HostCpu final : public sysc::PortlessBlock, private HostEvents {
 public:
  // `routes[n]` is node n's routing coordinates (System::route_of), which puts carry.
  HostCpu(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
          const std::vector<std::uint32_t>& routes, const std::uint64_t* clock,
          const HostCpuConfig& cfg);

  // Starts `p` (the previous program must be done).
  void load(Program p);
  bool done() const { return state_.done(); }
  int node() const { return node_; }
  std::uint64_t started() const { return state_.started(); }
  std::uint64_t finished_at() const { return state_.finished_at(); }
  // Something the program cannot get past: a completion nobody waits for, a wrong TX completion.
  const std::vector<std::string>& errors() const { return state_.errors(); }
  // Ops not finished, for a stuck report: "recv from 5 tag 12 on rail 0", ...
  std::string waiting_report(std::size_t max_items = 6) const { return state_.waiting_report(max_items); }

  // PortlessBlock
  void tick() override;
  bool idle() const override;
  bool error() const override { return !state_.errors().empty(); }

 private:
  // HostEvents: what the engine reports at the current cycle.
  void tx_done(int rail, const sysc::TxCompletion& c) override { state_.tx_completed(rail, c, *clock_); }
  void rx_done(int rail, const sysc::RxCompletion& c) override { state_.rx_arrived(rail, c, *clock_); }
  void job_done(int rail, const EngineJob& job, bool ok) override;

  int node_;
  const std::uint64_t* clock_;
  HostCpuConfig cfg_;
  HostEngine engine_;
  ProgramState state_;
};

}  // namespace hxemu::sw
