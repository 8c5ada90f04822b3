// ProgramState: the bookkeeping of one node's Program while a host runs it -- which ops wait for
// dependencies, which are ready, which are running, which finished -- and how completions finish
// them. Shared by HostCpu (programs run in-process, sw/runtime/host_cpu.h) and the remote program
// runner (sw/remote/program_runner.h), so that both react to the same completions in the same
// order and start the same ops in the same order: a schedule takes the same cycles either way.
//
// Per cycle a host: reports what it saw, in HostEngine::collect's order (each rail's TX then RX
// completions, rails in order, then finished reduction-engine jobs), then start_ready().
//   put     running from its start until the rail's TX completion that matches it (the NIC
//           interleaves messages, so completions come in the order puts finish: the oldest running
//           put of the rail with the completion's destination and tag is the one)
//   recv    finishes at start if its message (rail, peer, tag) already arrived, else at the arrival
//   reduce / copy  running until engine_done()
//   join    finishes at start
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/runtime/program.h"
#include "sysc/blocks/nic.h"

namespace hxemu::sw {

class ProgramState {
 public:
  explicit ProgramState(int node = 0) : node_(node) {}

  // Starts `p` at cycle `now` on a host with `rails` NICs (an op on a rail the node does not have
  // is an error and never starts).
  void load(Program p, int rails, std::uint64_t now);
  const Program& program() const { return prog_; }
  bool done() const { return finished_ == prog_.size(); }
  int finished() const { return finished_; }
  std::uint64_t started() const { return started_; }
  std::uint64_t finished_at() const { return finished_at_; }   // cycle the last op finished

  // ---- what the host saw at cycle `now` ----------------------------------------------------
  void tx_completed(int rail, const sysc::TxCompletion& c, std::uint64_t now);
  void rx_arrived(int rail, const sysc::RxCompletion& c, std::uint64_t now);
  void engine_done(int op, std::uint64_t now);

  // Starts every ready op, the most recently readied first; ops finishing at their start (joins,
  // recvs whose message is there) ready more, which start too. `issue(id, op)` is called for
  // every put, reduce and copy: the host performs it now.
  template <class Issue>
  void start_ready(std::uint64_t now, Issue&& issue) {
    while (!ready_.empty()) {
      const int id = ready_.back();
      ready_.pop_back();
      if (start(id, now)) issue(id, prog_.op(id));
    }
  }
  bool has_ready() const { return !ready_.empty(); }

  // Something the program cannot get past: a completion nobody waits for, a wrong TX completion.
  const std::vector<std::string>& errors() const { return errors_; }
  void error(const std::string& what);
  // Ops running, for a stuck report: "recv from 5 tag 12 on rail 0; ...".
  std::string waiting_report(std::size_t max_items = 6) const;

 private:
  static std::uint64_t key(int rail, int peer, std::uint16_t tag) {
    return (static_cast<std::uint64_t>(rail) << 48) | (static_cast<std::uint64_t>(peer & 0xffff) << 16) | tag;
  }
  bool start(int id, std::uint64_t now);   // true: the host must issue it
  void finish(int id, std::uint64_t now);

  int node_;
  int rails_ = 0;
  Program prog_;
  // Per op, two bytes (a 1,024-node collective has ~20,000 ops per node): kReady (waiting, no
  // dependency left), kRunning, kFinished, or kWaitBase + its unfinished dependencies (at least
  // one); kMany: more than fit, counted in many_.
  static constexpr std::uint16_t kReady = 0, kRunning = 1, kFinished = 2, kWaitBase = 2, kMany = 0xFFFF;
  std::vector<std::uint16_t> status_;
  std::unordered_map<std::uint32_t, std::uint32_t> many_;
  void set_missing(std::size_t i, std::uint32_t missing);
  bool running(std::size_t i) const { return status_[i] == kRunning; }
  // Who waits for whom, for the stored ops (the ring phases' own ops follow their rule): pairs
  // (dependency, dependent) sorted, so an op's stored dependents are one equal range, ascending.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stored_dependents_;
  // Ring phases waiting for an op outside them: (op, phase index) sorted.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> phase_watchers_;
  std::vector<int> dependents_scratch_;     // finish()'s list of an op's dependents
  std::vector<int> ready_;
  int finished_ = 0;
  std::vector<std::vector<int>> tx_wait_;   // per rail: puts in posted order; head_ = oldest unfinished
  std::vector<std::size_t> tx_head_;
  // Every stored recv op of the program by (rail, peer, tag), sorted by key then op id (12 bytes per
  // recv, built at load): an arrival finishes the first of its key's recvs that is running
  // (state 1), among these and the ring phases' recvs (RingPhase::recv_for).
  std::vector<std::uint64_t> recv_key_;
  std::vector<std::uint32_t> recv_id_;
  std::unordered_map<std::uint64_t, int> early_;            // arrivals nobody waits for yet
  std::uint64_t started_ = 0, finished_at_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace hxemu::sw
