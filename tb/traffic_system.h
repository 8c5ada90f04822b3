// TrafficSystem: a System whose terminals are PacketEndpoints, with a Scoreboard, a harness and a
// watchdog -- the testbench's view of a whole emulated machine.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sysc/system/system.h"
#include "sysc/harness/harness.h"
#include "tb/event_log.h"
#include "tb/packet_endpoint.h"
#include "tb/scoreboard.h"
#include "tb/watchdog.h"

namespace hxemu::tb {

class LinkWindows;   // tb/stats/link_windows.h

class EndpointFactory final : public sysc::TerminalFactory {
 public:
  // Endpoints report to their partition's log in `events`.
  explicit EndpointFactory(PartitionEvents* events) : events_(events) {}
  std::unique_ptr<sysc::LinkBlock> make_terminal(const sysc::TerminalSpec& spec) override;
  std::vector<PacketEndpoint*>& endpoints() { return endpoints_; }

 private:
  PartitionEvents* events_;
  std::vector<PacketEndpoint*> endpoints_;
};

class TrafficSystem {
 public:
  explicit TrafficSystem(const sysc::SystemConfig& cfg, sysc::HarnessFactory harness = sysc::make_plain_harness);

  sysc::System& sys() { return *sys_; }
  const sysc::System& sys() const { return *sys_; }
  Scoreboard& scoreboard() { return sb_; }
  const Scoreboard& scoreboard() const { return sb_; }
  PacketEndpoint& endpoint(int node) { return *factory_->endpoints()[node]; }
  sysc::Harness& harness() { return *harness_; }
  std::uint64_t now() const { return sys_->net().now(); }
  int nodes() const { return sys_->nodes(); }

  // Flits each node's endpoint has received (agreed by every rank under mpirun).
  std::vector<std::uint64_t> flits_received() const;
  // Takes back every packet not yet started at its source and marks it withdrawn in the
  // scoreboard; returns their ids (from every rank under mpirun).
  std::vector<std::uint64_t> withdraw_pending();

  // Creates a packet now at `src` for `dst` (queued at the source) and returns its id.
  std::uint64_t send(int src, int dst, int flits);
  // Runs the harness, then hands what the endpoints saw to the scoreboard (tb/event_log.h).
  // `beside`, if given, runs once meanwhile (Harness::run_beside): it may create packets for later
  // cycles in the scoreboard, but must not touch the endpoints or the network.
  void run(std::uint64_t cycles, const std::function<void()>& beside = nullptr) {
    if (windows_) {
      if (beside) beside();
      run_windowed(cycles);
    } else {
      harness_->run_beside(cycles, beside);
    }
    events_.flush(sb_);
  }
  // Per-window link counters (optional, not owned): run() then cuts its steps at the window edges
  // and samples after each piece. Without them run() pays one compare.
  void set_link_windows(LinkWindows* w) { windows_ = w; }
  // Per-partition logs (for observers a run attaches, e.g. a cable tap).
  PartitionEvents& events() { return events_; }

  // Runs until every packet is delivered and the network is quiet, checking the watchdog every
  // `check_every` cycles. False if the watchdog fired or max_cycles passed (see watchdog()).
  bool drain(std::uint64_t max_cycles, const WatchdogConfig& wd = {}, std::uint64_t check_every = 16);
  const Watchdog* watchdog() const { return watchdog_.get(); }
  std::string stuck_report() const { return Watchdog::stuck_report(*sys_, sb_); }

 private:
  Scoreboard sb_;
  PartitionEvents events_;
  std::unique_ptr<EndpointFactory> factory_;
  std::unique_ptr<sysc::System> sys_;
  std::unique_ptr<sysc::Harness> harness_;
  std::unique_ptr<Watchdog> watchdog_;
  LinkWindows* windows_ = nullptr;
  void run_windowed(std::uint64_t cycles);
};

}  // namespace hxemu::tb
