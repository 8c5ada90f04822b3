// Progress of a long command on a terminal: one line on stderr, rewritten in place with '\r',
//   "sweep load 0.300 (3/10): 41,216 / 120,000 cycles, 8,410 cycles/s, 9 s left"
// It is silent when stderr is not a terminal or the user passed --quiet (see `wanted`).
//
// The hot path is `cycles(n)`: an inline compare of n against the next cycle worth looking at.
// Only past that does it read the clock, and it writes at most once per `interval` seconds.
//
// Time left comes from, in this order: the expected total cycles (set_total_cycles), or the
// fraction of weighted work items done (set_work: e.g. bytes of the collectives finished so far);
// neither known, no estimate is shown.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace hxemu::tb {

class Progress {
 public:
  using Clock = std::function<double()>;                 // seconds, monotonic
  using Sink = std::function<void(std::string_view)>;    // where the line goes

  // True when progress should be shown: not --quiet and file descriptor `fd` is a terminal.
  static bool wanted(bool quiet, int fd = 2);

  // A disabled Progress does nothing (every call returns at the first compare). By default it
  // writes to stderr and reads std::chrono::steady_clock.
  explicit Progress(bool enabled, Sink sink = {}, Clock clock = {}, double interval = 0.25);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }

  // What is running now ("load 0.300 (3/10)", "allreduce ring 256K (3/17)"), and the phase within
  // it that a lower layer sets ("warm-up", "drain"); stage() clears the phase. Keeps the counts.
  void stage(std::string text);
  void phase(std::string text);
  // Expected cycles of the whole command (0: unknown); past it, neither it nor an estimate shows.
  void set_total_cycles(std::uint64_t total) { total_cycles_ = total; }
  // Cycles reported by cycles() are added to this (for commands made of several runs whose
  // cycle counters each start at 0).
  void set_cycle_base(std::uint64_t base) {
    base_ = base;
    if (enabled_) next_check_ = 0;   // the caller's counter starts again
  }
  std::uint64_t cycle_base() const { return base_; }
  // Weighted work done so far and in all, for the estimate when the total cycles are unknown:
  // call it when an item starts; the estimate is the pace so far applied to the rest.
  void set_work(double done, double total);

  // The command has run `n` cycles (since the cycle base). Cheap unless an update is due.
  void cycles(std::uint64_t n) {
    if (n >= next_check_) poll(n);
  }
  // The next cycle count at which cycles() does any work (for callers that keep their own
  // counter compare, e.g. sw::SessionConfig::progress).
  std::uint64_t next_check() const { return next_check_; }

  // Erases the line (before the command prints to stdout or stderr); the next update redraws it.
  void clear();

  // The line for the given state (no '\r'); public for tests.
  static std::string format(const std::string& stage, std::uint64_t done, std::uint64_t total,
                            double cycles_per_second, double seconds_left);

 private:
  void poll(std::uint64_t n);
  void draw(std::uint64_t done, double now);
  double seconds_left(std::uint64_t done, double rate, double now) const;

  bool enabled_;
  Sink sink_;
  Clock clock_;
  double interval_;
  std::string stage_, phase_;
  std::uint64_t base_ = 0, total_cycles_ = 0;
  double work_done_ = 0, work_total_ = 0, work_time_ = 0;
  double start_ = 0, last_draw_ = -1e300;
  // The rate: cycles and time at the previous draw.
  std::uint64_t rate_cycles_ = 0;
  double rate_time_ = 0, rate_ = 0;
  std::uint64_t next_check_;
  std::uint64_t check_step_ = 256;     // cycles between clock reads; adapts to the speed
  std::size_t shown_ = 0;              // characters on the line now
};

}  // namespace hxemu::tb
