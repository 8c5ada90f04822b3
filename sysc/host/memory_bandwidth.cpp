#include "sysc/host/memory_bandwidth.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hxemu::sysc {

MemoryBandwidth::MemoryBandwidth(double bytes_per_cycle) : rate_(bytes_per_cycle), tokens_(bytes_per_cycle) {
  if (!(bytes_per_cycle >= 1 && bytes_per_cycle <= 1e6)) {
    throw std::invalid_argument("host memory bandwidth " + std::to_string(bytes_per_cycle) +
                                " bytes per cycle: allowed 1..1000000 (0 elsewhere means unlimited)");
  }
}

void MemoryBandwidth::settle(std::uint64_t now) {
  if (now <= last_) return;
  const double free = std::max(0.0, rate_ - reserved_);
  tokens_ = std::min(rate_, tokens_ + free * static_cast<double>(now - last_));
  last_ = now;
}

bool MemoryBandwidth::can_start(std::uint64_t now) {
  settle(now);
  if (tokens_ >= 0) return true;
  ++stalls_;
  return false;
}

void MemoryBandwidth::spend(std::uint64_t now, std::uint32_t bytes) {
  settle(now);
  tokens_ -= bytes;
}

double MemoryBandwidth::reserve(std::uint64_t now, double wanted) {
  settle(now);
  const double got = std::max(rate_ / 16, std::min(wanted, rate_ - reserved_));
  reserved_ += got;
  return got;
}

void MemoryBandwidth::release(std::uint64_t now, double rate) {
  settle(now);
  reserved_ = std::max(0.0, reserved_ - rate);
}

}  // namespace hxemu::sysc
