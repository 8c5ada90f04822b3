// LatencyStats: a distribution of latencies in cycles -- min, mean, percentiles, max and a
// histogram -- computed exactly from the samples. Samples are kept as counts per value (dense up
// to kDense cycles, a list beyond), so a run of 10^8 measured packets costs the width of its
// latency range, not 8 bytes per packet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hxemu::tb {

class LatencyStats {
 public:
  void add(std::uint64_t cycles) {
    if (cycles < kDense) {
      if (cycles >= dense_.size()) dense_.resize(static_cast<std::size_t>(cycles) + 1, 0);
      ++dense_[cycles];
    } else {
      sparse_.push_back(cycles);
      sorted_ = false;
    }
    ++count_;
    sum_ += cycles;
  }
  // Adds every sample of `other`.
  void merge(const LatencyStats& other);
  // A byte string another process decodes with merge_encoded (MPI gathers).
  std::string encode() const;
  void merge_encoded(const std::string& bytes);

  std::size_t count() const { return static_cast<std::size_t>(count_); }
  double mean() const;
  std::uint64_t min() const;
  std::uint64_t max() const;
  // q in [0, 1]: the smallest sample with at least q of all samples at or below it.
  std::uint64_t percentile(double q) const;
  // Equal-width bins from min to max (at most `bins`, at least 1 cycle wide): {lower edge, count}.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> histogram(int bins = 20) const;
  nlohmann::json json() const;

 private:
  static constexpr std::uint64_t kDense = 1u << 16;
  void sort() const;
  // Calls f(value, count) for every distinct value in increasing order.
  template <class F>
  void each(F&& f) const;
  std::vector<std::uint64_t> dense_;           // count per value below kDense
  mutable std::vector<std::uint64_t> sparse_;  // values from kDense on
  mutable bool sorted_ = true;
  std::uint64_t count_ = 0;
  unsigned __int128 sum_ = 0;
};

}  // namespace hxemu::tb
