#include "tb/stats/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace hxemu::tb {

void LatencyStats::sort() const {
  if (!sorted_) {
    std::sort(sparse_.begin(), sparse_.end());
    sorted_ = true;
  }
}

template <class F>
void LatencyStats::each(F&& f) const {
  for (std::size_t v = 0; v < dense_.size(); ++v) {
    if (dense_[v]) f(static_cast<std::uint64_t>(v), dense_[v]);
  }
  sort();
  for (std::size_t i = 0; i < sparse_.size();) {
    std::size_t j = i;
    while (j < sparse_.size() && sparse_[j] == sparse_[i]) ++j;
    f(sparse_[i], static_cast<std::uint64_t>(j - i));
    i = j;
  }
}

void LatencyStats::merge(const LatencyStats& other) {
  if (other.dense_.size() > dense_.size()) dense_.resize(other.dense_.size(), 0);
  for (std::size_t v = 0; v < other.dense_.size(); ++v) dense_[v] += other.dense_[v];
  sparse_.insert(sparse_.end(), other.sparse_.begin(), other.sparse_.end());
  sorted_ = sorted_ && other.sparse_.empty();
  count_ += other.count_;
  sum_ += other.sum_;
}

std::string LatencyStats::encode() const {
  std::vector<std::uint64_t> pairs;
  each([&](std::uint64_t v, std::uint64_t n) {
    pairs.push_back(v);
    pairs.push_back(n);
  });
  return std::string(reinterpret_cast<const char*>(pairs.data()), pairs.size() * sizeof(std::uint64_t));
}

void LatencyStats::merge_encoded(const std::string& bytes) {
  if (bytes.size() % (2 * sizeof(std::uint64_t)) != 0) {
    throw std::invalid_argument("LatencyStats::merge_encoded: not an encoded distribution");
  }
  std::vector<std::uint64_t> pairs(bytes.size() / sizeof(std::uint64_t));
  std::memcpy(pairs.data(), bytes.data(), bytes.size());
  for (std::size_t i = 0; i < pairs.size(); i += 2) {
    const std::uint64_t v = pairs[i], n = pairs[i + 1];
    if (v < kDense) {
      if (v >= dense_.size()) dense_.resize(static_cast<std::size_t>(v) + 1, 0);
      dense_[v] += n;
    } else {
      sparse_.insert(sparse_.end(), static_cast<std::size_t>(n), v);
      sorted_ = false;
    }
    count_ += n;
    sum_ += static_cast<unsigned __int128>(v) * n;
  }
}

double LatencyStats::mean() const {
  if (count_ == 0) return 0;
  return static_cast<double>(static_cast<long double>(sum_) / static_cast<long double>(count_));
}

std::uint64_t LatencyStats::min() const {
  if (count_ == 0) return 0;
  for (std::size_t v = 0; v < dense_.size(); ++v) {
    if (dense_[v]) return v;
  }
  sort();
  return sparse_.front();
}

std::uint64_t LatencyStats::max() const {
  if (count_ == 0) return 0;
  sort();
  if (!sparse_.empty()) return sparse_.back();
  for (std::size_t v = dense_.size(); v-- > 0;) {
    if (dense_[v]) return v;
  }
  return 0;
}

std::uint64_t LatencyStats::percentile(double q) const {
  if (count_ == 0) return 0;
  const double rank = std::ceil(q * static_cast<double>(count_));
  const std::uint64_t want = rank <= 1 ? 1 : std::min(static_cast<std::uint64_t>(rank), count_);
  std::uint64_t seen = 0, found = 0;
  bool done = false;
  each([&](std::uint64_t v, std::uint64_t n) {
    if (done) return;
    seen += n;
    if (seen >= want) {
      found = v;
      done = true;
    }
  });
  return found;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> LatencyStats::histogram(int bins) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> h;
  if (count_ == 0) return h;
  const std::uint64_t lo = min(), hi = max();
  const std::uint64_t width =
      std::max<std::uint64_t>(1, (hi - lo + static_cast<std::uint64_t>(bins)) / static_cast<std::uint64_t>(bins));
  for (std::uint64_t edge = lo; edge <= hi; edge += width) h.push_back({edge, 0});
  each([&](std::uint64_t v, std::uint64_t n) { h[(v - lo) / width].second += n; });
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
