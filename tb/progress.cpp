#include "tb/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

namespace hxemu::tb {

namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
// A '\r' only returns to the start of the last row of a wrapped line: stay within 80 columns.
constexpr std::size_t kMaxWidth = 79;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void write_stderr(std::string_view s) {
  std::fwrite(s.data(), 1, s.size(), stderr);
  std::fflush(stderr);
}

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string duration_text(double s) {
  const auto t = static_cast<std::uint64_t>(s + 0.5);
  if (t < 60) return fmt::format("{} s", t);
  if (t < 3600) return fmt::format("{} min {:02} s", t / 60, t % 60);
  return fmt::format("{} h {:02} min", t / 3600, t % 3600 / 60);
}

}  // namespace

bool Progress::wanted(bool quiet, int fd) { return !quiet && ::isatty(fd) == 1; }

Progress::Progress(bool enabled, Sink sink, Clock clock, double interval)
    : enabled_(enabled),
      sink_(sink ? std::move(sink) : Sink(write_stderr)),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      interval_(interval),
      next_check_(enabled ? 0 : kNever) {
  if (enabled_) {
    start_ = clock_();
    rate_time_ = start_;
  }
}

Progress::~Progress() { clear(); }

void Progress::stage(std::string text) {
  if (!enabled_) return;
  stage_ = std::move(text);
  phase_.clear();
  next_check_ = 0;   // look at the clock at the next cycles() call
}

void Progress::phase(std::string text) {
  if (!enabled_) return;
  phase_ = std::move(text);
  next_check_ = 0;
}

void Progress::set_work(double done, double total) {
  if (!enabled_) return;
  work_done_ = done;
  work_total_ = total;
  work_time_ = clock_();   // at item boundaries only, not on the hot path
}

void Progress::poll(std::uint64_t n) {
  if (!enabled_) return;
  const double now = clock_();
  if (now - last_draw_ >= interval_) draw(base_ + n, now);
  // Read the clock about 20 times per interval at the current speed (a clock read costs far less
  // than the cycles between two reads).
  if (rate_ > 0) {
    const double step = rate_ * interval_ / 20;
    check_step_ = step < 1 ? 1 : step > 1e6 ? 1000000 : static_cast<std::uint64_t>(step);
  }
  next_check_ = n + check_step_;
}

void Progress::draw(std::uint64_t done, double now) {
  if (done > rate_cycles_ && now > rate_time_) {
    const double inst = static_cast<double>(done - rate_cycles_) / (now - rate_time_);
    rate_ = rate_ > 0 ? 0.6 * rate_ + 0.4 * inst : inst;
  }
  rate_cycles_ = done;
  rate_time_ = now;
  last_draw_ = now;
  const std::string label = phase_.empty() ? stage_ : stage_.empty() ? phase_ : stage_ + ", " + phase_;
  const std::string line = format(label, done, total_cycles_, rate_, seconds_left(done, rate_, now));
  std::string out = "\r" + line;
  if (line.size() < shown_) out.append(shown_ - line.size(), ' ');
  shown_ = line.size();
  sink_(out);
}

double Progress::seconds_left(std::uint64_t done, double rate, double now) const {
  if (total_cycles_ > 0 && done <= total_cycles_ && rate > 0) {
    return static_cast<double>(total_cycles_ - done) / rate;
  }
  if (work_total_ > 0 && work_done_ > 0 && work_done_ <= work_total_) {
    // The pace of the work done so far, for the rest, counting down within the current item.
    const double left = (work_time_ - start_) * (work_total_ - work_done_) / work_done_ - (now - work_time_);
    return left > 0 ? left : 0;
  }
  return -1;
}

void Progress::clear() {
  if (!enabled_ || shown_ == 0) return;
  sink_("\r" + std::string(shown_, ' ') + "\r");
  shown_ = 0;
  last_draw_ = -1e300;   // redraw at the next look at the clock
  next_check_ = 0;
}

std::string Progress::format(const std::string& stage, std::uint64_t done, std::uint64_t total,
                             double cycles_per_second, double seconds_left) {
  std::string tail = grouped(done);
  if (total > 0 && done <= total) tail += " / " + grouped(total);   // past it: the total was an estimate
  tail += " cycles";
  if (cycles_per_second > 0) {
    tail += cycles_per_second >= 1e6 ? fmt::format(", {:.2f} M cycles/s", cycles_per_second / 1e6)
                                     : ", " + grouped(static_cast<std::uint64_t>(cycles_per_second + 0.5)) +
                                           " cycles/s";
  }
  if (seconds_left >= 0) tail += ", ~" + duration_text(seconds_left) + " left";
  if (stage.empty()) return tail.substr(0, kMaxWidth);
  std::string head = stage;
  const std::size_t room = kMaxWidth > tail.size() + 2 ? kMaxWidth - tail.size() - 2 : 0;
  if (head.size() > room) head = room > 3 ? head.substr(0, room - 3) + "..." : "";
  return head.empty() ? tail.substr(0, kMaxWidth) : head + ": " + tail;
}

}  // namespace hxemu::tb
