// The testbench's random draws from a std::mt19937_64 (or any 64-bit generator).
//
// unit_uniform: a draw in [0, 1), the same value
// std::uniform_real_distribution<double>(0, 1) gives for the same generator state, without its
// per-draw cost. libstdc++'s generate_canonical works out log2 of the generator's range with two
// long-double logarithms on every call (0.6% of a mesh-8x8 traffic run, the arrival process's one
// draw per packet); for a 64-bit generator the rest is one conversion and an exact scaling by 2^-64.
// Same values, so a run's packets, reports and digests are unchanged (tests/tb/traffic/pieces_test.cpp
// compares the two over a million draws).
#pragma once

#include <cmath>
#include <cstdint>

namespace hxemu::tb {

// G: a generator of 64-bit numbers over the whole range (std::mt19937_64).
template <class G>
double unit_uniform(G& rng) {
  static_assert(G::min() == 0 && G::max() == ~std::uint64_t{0},
                "unit_uniform: a generator of 64-bit numbers over the whole range");
  // generate_canonical<double, 53>: one draw (64 bits cover 53), the sum (double)draw * 1, divided
  // by the range 2^64 (exact: a power of two); a result rounded up to 1 is replaced by the largest
  // double below 1. uniform_real_distribution(0, 1) then scales by (1 - 0) and adds 0 (exact).
  const double u = static_cast<double>(rng()) * 0x1p-64;
  return u >= 1.0 ? std::nextafter(1.0, 0.0) : u;
}

// Bernoulli arrivals, one with probability p per cycle: the cycles until the next one (geometric,
// drawn by inversion from one unit_uniform draw). log_q is log1p(-p), which a caller drawing many
// gaps with one p works out once. p >= 1: 0 (every cycle); p <= 0: 2^62 - 1 (never, in any run).
template <class G>
std::uint64_t geometric_gap(G& rng, double p, double log_q) {
  if (p >= 1.0) return 0;
  if (p <= 0.0) return ~0ull >> 2;
  return static_cast<std::uint64_t>(std::floor(std::log1p(-unit_uniform(rng)) / log_q));
}

}  // namespace hxemu::tb
