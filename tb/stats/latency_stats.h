// LatencyStats: a distribution of latencies in cycles -- min, mean, percentiles, max and a
// histogram -- computed exactly from the samples (they are kept; sorting happens once, at the end).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace hxemu::tb {

class LatencyStats {
 public:
  void add(std::uint64_t cycles) { samples_.push_back(cycles); sorted_ = false; }
  std::size_t count() const { return samples_.size(); }
  double mean() const;
  std::uint64_t min() const;
  std::uint64_t max() const;
  // q in [0, 1]: the smallest sample with at least q of all samples at or below it.
  std::uint64_t percentile(double q) const;
  // Equal-width bins from min to max (at most `bins`, at least 1 cycle wide): {lower edge, count}.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> histogram(int bins = 20) const;
  nlohmann::json json() const;

 private:
  void sort() const;
  mutable std::vector<std::uint64_t> samples_;
  mutable bool sorted_ = true;
};

}  // namespace hxemu::tb
