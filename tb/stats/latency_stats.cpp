#include "tb/stats/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hxemu::tb {

void LatencyStats::sort() const {
  if (!sorted_) {
    std::sort(samples_.begin(), samples_.end());
    sorted_ = true;
  }
}

double LatencyStats::mean() const {
  if (samples_.empty()) return 0;
  const long double sum = std::accumulate(samples_.begin(), samples_.end(), 0.0L);
  return static_cast<double>(sum / static_cast<long double>(samples_.size()));
}

std::uint64_t LatencyStats::min() const {
  if (samples_.empty()) return 0;
  sort();
  return samples_.front();
}

std::uint64_t LatencyStats::max() const {
  if (samples_.empty()) return 0;
  sort();
  return samples_.back();
}

std::uint64_t LatencyStats::percentile(double q) const {
  if (samples_.empty()) return 0;
  sort();
  const double rank = std::ceil(q * static_cast<double>(samples_.size()));
  const std::size_t i = rank <= 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return samples_[std::min(i, samples_.size() - 1)];
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> LatencyStats::histogram(int bins) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> h;
  if (samples_.empty()) return h;
  sort();
  const std::uint64_t lo = samples_.front(), hi = samples_.back();
  const std::uint64_t width =
      std::max<std::uint64_t>(1, (hi - lo + static_cast<std::uint64_t>(bins)) / static_cast<std::uint64_t>(bins));
  for (std::uint64_t edge = lo; edge <= hi; edge += width) h.push_back({edge, 0});
  for (std::uint64_t s : samples_) ++h[(s - lo) / width].second;
  return h;
}

nlohmann::json LatencyStats::json() const {
  nlohmann::json hist = nlohmann::json::array();
  for (const auto& [edge, n] : histogram()) hist.push_back({edge, n});
  return {{"count", count()},         {"min", min()},
          {"mean", mean()},           {"p50", percentile(0.50)},
          {"p99", percentile(0.99)},  {"p99_9", percentile(0.999)},
          {"max", max()},             {"histogram", hist}};
}

}  // namespace hxemu::tb
