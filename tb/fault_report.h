// What injected faults did in a run (docs/faults.md): the failed links and where they were, every
// packet that lost a flit (on which link, in which cycle), every packet hit by a flipped bit, and
// from the endpoints' side which packets never arrived -- lost (a flit of theirs was dropped) or
// stuck (none was, and they are still in the network) -- and whether every packet sent after the
// first failure was delivered. Built from the Network's fault log (sysc/fabric/network.h) after a
// run; runs with faults are single-process (the log is per process).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/link_faults.h"

namespace hxemu::tb {

class Scoreboard;

struct FaultPacket {
  int src = -1, dst = -1, rail = 0;
  std::uint64_t key = 0;        // head bits 64..127: the testbench's packet id, or a NIC's tag/seq/len
  std::uint64_t cycle = 0;      // first loss or flip
  std::string link;             // "<from> -> <to>" of that link
  int flits = 0;                // flits of it lost / bits of it flipped
};

struct FaultReport {
  std::vector<sysc::AppliedFailure> failures;
  sysc::BitFlipSpec flips;
  std::uint64_t first_failure = ~0ull;     // cycle of the earliest failure (~0: none)
  std::uint64_t flits_lost_sent = 0;       // put on a dead link
  std::uint64_t flits_lost_in_flight = 0;  // on a link when it died
  std::uint64_t bits_flipped = 0;
  std::vector<FaultPacket> lost_packets;     // named by the sender's view of the link
  std::uint64_t unnamed_lost_flits = 0;      // body flits lost in flight (their packet: see stuck)
  // Distinct packets whose flips leave a bit changed. A bit flipped twice (on two links) is back
  // as sent: such packets arrive intact and are counted apart.
  std::vector<FaultPacket> flipped_packets;
  std::uint64_t flips_cancelled_packets = 0;

  // Synthetic endpoints (set by add_scoreboard): packets created at or after the first failure, and
  // how many of them arrived; the packets that never arrived, lost or stuck.
  bool endpoints_seen = false;
  std::uint64_t sent_after_failure = 0, delivered_after_failure = 0;
  std::vector<std::string> lost_lines, stuck_lines;   // one line per undelivered packet
  std::uint64_t lost_undelivered = 0, stuck_undelivered = 0;

  // NIC endpoints: the NICs' CRC count (packets whose CRC did not match).
  bool crc_on = false;
  std::uint64_t crc_errors = 0;

  bool any() const { return !failures.empty() || flips.rate > 0.0; }
  std::string text() const;          // the report as printed
  nlohmann::json json() const;
};

// The Network's log of `sys`, summarised against the failures applied.
FaultReport collect_fault_report(const sysc::System& sys, const std::vector<sysc::AppliedFailure>& applied,
                                 const sysc::FaultPlan& plan);
// Adds the endpoints' view: which packets never arrived (lost: a flit of theirs was dropped; stuck:
// none was) and the count of packets sent after the first failure that arrived.
void add_scoreboard(FaultReport& r, const Scoreboard& sb);

}  // namespace hxemu::tb
