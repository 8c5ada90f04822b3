// Watchdog: stops a run that no longer makes progress -- no flit moved on any link for
// `stall_cycles` while packets are outstanding (deadlock), or a packet older than `max_age`
// cycles (livelock / starvation) -- and explains where flits are stuck as a wait-for list: which
// packet holds which VC of which link, how full it is, and which link's credits its front packet
// waits for (by the routing functions, sysc/system/route_model.h).
#pragma once

#include <cstdint>
#include <string>

#include "sysc/system/system.h"
#include "tb/scoreboard.h"

namespace hxemu::tb {

struct WatchdogConfig {
  std::uint64_t stall_cycles = 20000;   // no flit moved for this long while packets are out
  std::uint64_t max_age = 0;            // 0: no age limit
};

class Watchdog {
 public:
  explicit Watchdog(const WatchdogConfig& cfg) : cfg_(cfg) {}

  // Call at any interval; true once it has fired (and stays so).
  bool check(const sysc::System& sys, const Scoreboard& sb);
  bool fired() const { return fired_; }
  const std::string& reason() const { return reason_; }
  // The wait-for list at the time it fired (or now, if called directly).
  static std::string stuck_report(const sysc::System& sys, const Scoreboard& sb,
                                  std::size_t max_lines = 40);
  const std::string& report() const { return report_; }

 private:
  WatchdogConfig cfg_;
  std::uint64_t last_moved_ = ~0ull;
  std::uint64_t last_progress_cycle_ = 0;
  std::size_t oldest_ = 0;   // scan position over the scoreboard's records
  bool fired_ = false;
  std::string reason_;
  std::string report_;
};

}  // namespace hxemu::tb
