// Synthetic traffic patterns: where each source sends (BookSim's set).
// Defined on the LogicalGrid: bit patterns act on the row-major logical index, geometric ones on
// (row, col).
//   uniform          any node, the source included
//   uniform-noself   any other node
//   transpose        (r, c) -> (c, r)                 square grid
//   bitcomp          index -> ~index                  power-of-two node count
//   bitrev           index -> bit-reversed index      power-of-two node count
//   shuffle          index -> index rotated left by 1 bit
//   tornado          (r, c) -> ((r + ceil(R/2) - 1) % R, (c + ceil(C/2) - 1) % C)
//   neighbor         (r, c) -> ((r + 1) % R, (c + 1) % C)
//   shift:K          index -> (index + K) % nodes; on a Dragonfly (or fat tree) the index is the node
//                    id, so K = nodes per group sends every group to the next one (adversarial)
//   hotspot:F:N,...  a fraction F of packets to the listed hot nodes (uniformly), the rest uniform
//   randperm         a random permutation (seeded), fixed for the run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tb/traffic/logical_grid.h"

namespace hxemu::tb {

class TrafficPattern {
 public:
  // Parses `spec` for `grid`; throws std::invalid_argument naming the pattern and what it needs.
  TrafficPattern(const std::string& spec, const LogicalGrid& grid, std::uint64_t seed);

  int destination(int src_node, std::mt19937_64& rng) const;
  const std::string& name() const { return name_; }
  // Human-readable, including whether a node may send to itself.
  std::string description() const;
  bool includes_self() const { return self_; }
  static std::vector<std::string> names();

 private:
  enum class Kind { kUniform, kTranspose, kBitComp, kBitRev, kShuffle, kTornado, kNeighbor, kShift,
                    kHotspot, kPermutation };
  int uniform(int src, std::mt19937_64& rng) const;

  Kind kind_ = Kind::kUniform;
  std::string name_;
  const LogicalGrid* grid_;
  bool self_ = true;
  int bits_ = 0;
  int shift_ = 0;
  double hot_fraction_ = 0;
  std::vector<int> hot_nodes_;
  std::vector<int> perm_;   // logical index -> logical index
};

}  // namespace hxemu::tb
