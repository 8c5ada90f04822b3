// Progress of the commands that run collectives (collective, run, jobs): the session's cycle hook
// and time left estimated from weighted items (a collective weighs its size in bytes; emulation
// time grows about linearly with it).
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "tb/progress.h"

namespace hxemu::cli {

// sw::SessionConfig::progress for `p` (none when p is disabled: the run loop then skips it).
inline std::function<std::uint64_t(std::uint64_t)> progress_hook(tb::Progress& p) {
  if (!p.enabled()) return {};
  return [&p](std::uint64_t now) {
    p.cycles(now);
    return p.next_check();
  };
}

inline double sum_of(const std::vector<std::uint64_t>& v) {
  return static_cast<double>(std::accumulate(v.begin(), v.end(), std::uint64_t{0}));
}

// A sequence of items of known weights: each next() names the item about to run ("allreduce ring
// 256K (3/17)") and credits the previous one as done.
class ItemProgress {
 public:
  ItemProgress(tb::Progress& p, double total_weight, int items)
      : p_(p), total_(total_weight), items_(items) {}
  void next(const std::string& what, double weight) {
    done_ += current_;
    current_ = weight;
    ++index_;
    p_.set_work(done_, total_);
    if (p_.enabled()) p_.stage(fmt::format("{} ({}/{})", what, index_, items_));
  }

 private:
  tb::Progress& p_;
  double total_, done_ = 0, current_ = 0;
  int items_, index_ = 0;
};

}  // namespace hxemu::cli
