// HostCpu: the host of one accelerator running a Program against the node's NICs (one per rail)
// and its host memory. It is a block without links that the System steps with the node's board,
// so host reactions are cycle-accurate: a completion delivered in cycle t is seen in t + 1, the put
// it triggers is offered to the NIC in t + 2 (sysc/nic_node.h).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/runtime/program.h"
#include "sysc/nic_node.h"

namespace hxemu::sw {

struct HostCpuConfig {
  DataType type = DataType::kInt32;
  double reduce_cycles_per_byte = 1.0 / 32;   // default: the memory port, W/8 bytes per cycle
};

class HostCpu final : public sysc::LinkBlock {
 public:
  // `routes[n]` is node n's routing coordinates (System::route_of), which puts carry.
  HostCpu(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
          const std::vector<std::uint32_t>& routes, const std::uint64_t* clock,
          const HostCpuConfig& cfg);

  // Starts `p` (the previous program must be done).
  void load(Program p);
  bool done() const { return finished_ == static_cast<int>(prog_.ops().size()); }
  int node() const { return node_; }
  std::uint64_t started() const { return started_; }
  std::uint64_t finished_at() const { return finished_at_; }
  // Something the program cannot get past: a completion nobody waits for, a wrong TX completion.
  const std::vector<std::string>& errors() const { return errors_; }
  // Ops not finished, for a stuck report: "recv from 5 tag 12 on rail 0", ...
  std::string waiting_report(std::size_t max_items = 6) const;

  // LinkBlock (no ports)
  int ports() const override { return 0; }
  int vcs() const override { return 0; }
  int flit_bits() const override { return 0; }
  void clear_inputs() override {}
  void set_flit_in(int, const sysc::Flit&) override {}
  void set_credit_in(int, sysc::Credit) override {}
  void tick() override;
  bool flit_out(int, sysc::Flit&) const override { return false; }
  bool flit_out_valid(int) const override { return false; }
  sysc::Credit credit_out(int) const override { return {}; }
  bool idle() const override;
  bool drained() const override { return idle(); }
  bool error() const override { return !errors_.empty(); }

 private:
  struct Engine {          // a rail's reduction engine
    int op = -1;
    std::uint64_t busy_until = 0;
    std::vector<int> queue;
    std::size_t queue_head = 0;
  };
  static std::uint64_t key(int rail, int peer, std::uint16_t tag) {
    return (static_cast<std::uint64_t>(rail) << 48) | (static_cast<std::uint64_t>(peer & 0xffff) << 16) | tag;
  }
  void finish(int op);
  void start(int op);
  void run_engine_op(int op);
  void error(const std::string& what);

  int node_;
  std::vector<sysc::NicNode*> rails_;
  sysc::HostMemory& mem_;
  const std::vector<std::uint32_t>& routes_;
  const std::uint64_t* clock_;
  HostCpuConfig cfg_;

  Program prog_;
  std::vector<std::uint32_t> missing_;      // unfinished dependencies per op
  std::vector<std::uint32_t> dependents_;   // CSR: ops waiting on op i
  std::vector<std::uint32_t> dep_start_;
  std::vector<std::uint8_t> state_;         // 0 waiting, 1 running, 2 finished
  std::vector<int> ready_;
  int finished_ = 0;
  std::vector<std::vector<int>> tx_wait_;   // per rail: puts posted, awaiting TX completion in order
  std::vector<std::size_t> tx_head_;
  std::unordered_multimap<std::uint64_t, int> recv_wait_;   // (rail, peer, tag) -> recv op
  std::unordered_map<std::uint64_t, int> early_;            // arrivals nobody waits for yet
  std::vector<Engine> engines_;
  std::uint64_t started_ = 0, finished_at_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace hxemu::sw
