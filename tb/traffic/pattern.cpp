#include "tb/traffic/pattern.h"

#include "sysc/util/parse_number.h"
#include "tb/traffic/random_draw.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace hxemu::tb {

namespace {
int log2_exact(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return (1 << b) == n ? b : -1;
}
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}
}  // namespace

std::vector<std::string> TrafficPattern::names() {
  return {"uniform", "uniform-noself", "transpose", "bitcomp", "bitrev", "shuffle",
          "tornado", "neighbor", "shift:K", "hotspot:F:N[,N...]", "randperm"};
}

TrafficPattern::TrafficPattern(const std::string& spec, const LogicalGrid& grid, std::uint64_t seed)
    : grid_(&grid) {
  const auto parts = split(spec, ':');
  name_ = parts.empty() ? spec : parts[0];
  const int n = grid.nodes();
  auto need_pow2 = [&] {
    bits_ = log2_exact(n);
    if (bits_ < 0) {
      throw std::invalid_argument("pattern " + name_ + " needs a power-of-two node count, the system has " +
                                  std::to_string(n));
    }
  };
  auto no_args = [&] {
    if (parts.size() != 1) throw std::invalid_argument("pattern " + name_ + " takes no arguments");
  };
  if (name_ == "uniform") {
    no_args();
    kind_ = Kind::kUniform;
  } else if (name_ == "uniform-noself") {
    no_args();
    kind_ = Kind::kUniform;
    self_ = false;
  } else if (name_ == "transpose") {
    no_args();
    if (grid.rows() != grid.cols()) {
      throw std::invalid_argument("pattern transpose needs a square node grid, the system's is " +
                                  std::to_string(grid.rows()) + "x" + std::to_string(grid.cols()));
    }
    kind_ = Kind::kTranspose;
  } else if (name_ == "bitcomp") {
    no_args();
    need_pow2();
    kind_ = Kind::kBitComp;
  } else if (name_ == "bitrev") {
    no_args();
    need_pow2();
    kind_ = Kind::kBitRev;
  } else if (name_ == "shuffle") {
    no_args();
    need_pow2();
    kind_ = Kind::kShuffle;
  } else if (name_ == "tornado") {
    no_args();
    kind_ = Kind::kTornado;
  } else if (name_ == "neighbor") {
    no_args();
    kind_ = Kind::kNeighbor;
  } else if (name_ == "shift") {
    const long long k = parts.size() == 2 ? sysc::parse_int(parts[1]).value_or(-1) : -1;
    if (k < 1 || k >= n) {
      throw std::invalid_argument("pattern shift needs shift:K with K an integer in 1.." + std::to_string(n - 1) +
                                  " (index -> index + K mod nodes), got '" + spec + "'");
    }
    kind_ = Kind::kShift;
    shift_ = static_cast<int>(k);
  } else if (name_ == "hotspot") {
    kind_ = Kind::kHotspot;
    if (parts.size() != 3) {
      throw std::invalid_argument("pattern hotspot needs hotspot:FRACTION:NODE[,NODE...], e.g. hotspot:0.2:0,63");
    }
    hot_fraction_ = sysc::parse_double(parts[1]).value_or(-1);
    if (!(hot_fraction_ >= 0 && hot_fraction_ <= 1)) {
      throw std::invalid_argument("pattern hotspot: fraction '" + parts[1] + "' is not a number in 0..1");
    }
    for (const auto& t : split(parts[2], ',')) {
      const long long node = sysc::parse_int(t).value_or(-1);
      if (node < 0 || node >= n) {
        throw std::invalid_argument("pattern hotspot: hot node '" + t + "' is not a node id in 0.." +
                                    std::to_string(n - 1));
      }
      hot_nodes_.push_back(static_cast<int>(node));
    }
  } else if (name_ == "randperm") {
    no_args();
    kind_ = Kind::kPermutation;
    perm_.resize(n);
    for (int i = 0; i < n; ++i) perm_[i] = i;
    std::mt19937_64 rng(seed ^ 0x5EEDu);
    std::shuffle(perm_.begin(), perm_.end(), rng);
  } else {
    std::string list;
    for (const auto& s : names()) list += (list.empty() ? "" : ", ") + s;
    throw std::invalid_argument("unknown pattern '" + spec + "' (allowed: " + list + ")");
  }
}

std::string TrafficPattern::description() const {
  switch (kind_) {
    case Kind::kUniform:
      return self_ ? "uniform random, a node may send to itself"
                   : "uniform random over the other nodes (no self-traffic)";
    case Kind::kHotspot: {
      std::string s = "hotspot: " + std::to_string(hot_fraction_) + " of packets to nodes";
      for (int h : hot_nodes_) s += " " + std::to_string(h);
      return s + ", the rest uniform (self included)";
    }
    case Kind::kPermutation:
      return "random permutation (seeded)";
    default:
      return name_;
  }
}

int TrafficPattern::uniform(int src, std::mt19937_64& rng) const {
  const int n = grid_->nodes();
  if (self_) return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
  int d = static_cast<int>(rng() % static_cast<std::uint64_t>(n - 1));
  return d >= src ? d + 1 : d;
}

int TrafficPattern::destination(int src_node, std::mt19937_64& rng) const {
  const LogicalGrid& g = *grid_;
  const int idx = g.index_of(src_node);
  const int r = idx / g.cols(), c = idx % g.cols();
  const int mask = (1 << bits_) - 1;
  switch (kind_) {
    case Kind::kUniform:
      return uniform(src_node, rng);
    case Kind::kTranspose:
      return g.node_at(c, r);
    case Kind::kBitComp:
      return g.node_at(~idx & mask);
    case Kind::kBitRev: {
      int out = 0;
      for (int b = 0; b < bits_; ++b) {
        if ((idx >> b) & 1) out |= 1 << (bits_ - 1 - b);
      }
      return g.node_at(out);
    }
    case Kind::kShuffle:
      return g.node_at(((idx << 1) | (idx >> (bits_ - 1))) & mask);
    case Kind::kTornado:
      return g.node_at((r + (g.rows() + 1) / 2 - 1) % g.rows(), (c + (g.cols() + 1) / 2 - 1) % g.cols());
    case Kind::kNeighbor:
      return g.node_at((r + 1) % g.rows(), (c + 1) % g.cols());
    case Kind::kShift:
      return g.node_at((idx + shift_) % g.nodes());
    case Kind::kHotspot:
      if (unit_uniform(rng) < hot_fraction_) {
        return hot_nodes_[rng() % hot_nodes_.size()];
      }
      return uniform(src_node, rng);
    case Kind::kPermutation:
      return g.node_at(perm_[idx]);
  }
  return src_node;
}

}  // namespace hxemu::tb
