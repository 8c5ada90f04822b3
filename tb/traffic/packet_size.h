// Packet length in flits (head included): fixed, or drawn per packet.
//   "4"                 every packet 4 flits
//   "uniform:2:8"       uniformly 2..8 flits
//   "bimodal:2:16:0.8"  2 flits with probability 0.8, else 16
#pragma once

#include <random>
#include <string>

namespace hxemu::tb {

class PacketSize {
 public:
  // Throws std::invalid_argument naming the spec and the allowed forms; lengths must be in
  // 1..max_flits.
  PacketSize(const std::string& spec, int max_flits);
  int draw(std::mt19937_64& rng) const;
  double mean() const;
  const std::string& spec() const { return spec_; }
  int max() const { return std::max(a_, b_); }
  int min() const { return std::min(a_, b_); }

 private:
  enum class Kind { kFixed, kUniform, kBimodal };
  Kind kind_ = Kind::kFixed;
  std::string spec_;
  int a_ = 1, b_ = 1;
  double p_ = 1.0;
};

}  // namespace hxemu::tb
