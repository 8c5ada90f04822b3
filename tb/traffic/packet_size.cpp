#include "tb/traffic/packet_size.h"

#include "sysc/util/parse_number.h"
#include "tb/traffic/random_draw.h"

#include <sstream>
#include <stdexcept>
#include <vector>

namespace hxemu::tb {

namespace {
int parse_len(const std::string& s, const std::string& spec, int max_flits) {
  const long long v = sysc::parse_int(s).value_or(0);
  if (v < 1 || v > max_flits) {
    throw std::invalid_argument("packet length '" + spec + "': '" + s +
                                "' is not a flit count in 1.." + std::to_string(max_flits) +
                                " (forms: N, uniform:MIN:MAX, bimodal:A:B:P)");
  }
  return v;
}
}  // namespace

PacketSize::PacketSize(const std::string& spec, int max_flits) : spec_(spec) {
  if (spec.empty() || spec.back() == ':') {
    throw std::invalid_argument("packet length '" + spec + "' not understood (forms: N, uniform:MIN:MAX, bimodal:A:B:P)");
  }
  std::vector<std::string> parts;
  std::string cur;
  std::istringstream in(spec);
  while (std::getline(in, cur, ':')) parts.push_back(cur);
  if (parts.size() == 1) {
    kind_ = Kind::kFixed;
    a_ = b_ = parse_len(parts[0], spec, max_flits);
  } else if (parts.size() == 3 && parts[0] == "uniform") {
    kind_ = Kind::kUniform;
    a_ = parse_len(parts[1], spec, max_flits);
    b_ = parse_len(parts[2], spec, max_flits);
    if (a_ > b_) throw std::invalid_argument("packet length '" + spec + "': MIN > MAX");
  } else if (parts.size() == 4 && parts[0] == "bimodal") {
    kind_ = Kind::kBimodal;
    a_ = parse_len(parts[1], spec, max_flits);
    b_ = parse_len(parts[2], spec, max_flits);
    p_ = sysc::parse_double(parts[3]).value_or(-1);
    if (!(p_ >= 0 && p_ <= 1)) {
      throw std::invalid_argument("packet length '" + spec + "': probability must be in 0..1");
    }
  } else {
    throw std::invalid_argument("packet length '" + spec +
                                "' not understood (forms: N, uniform:MIN:MAX, bimodal:A:B:P)");
  }
}

int PacketSize::draw(std::mt19937_64& rng) const {
  switch (kind_) {
    case Kind::kFixed:
      return a_;
    case Kind::kUniform:
      return a_ + static_cast<int>(rng() % static_cast<std::uint64_t>(b_ - a_ + 1));
    case Kind::kBimodal:
      return unit_uniform(rng) < p_ ? a_ : b_;
  }
  return a_;
}

double PacketSize::mean() const {
  switch (kind_) {
    case Kind::kFixed: return a_;
    case Kind::kUniform: return (a_ + b_) / 2.0;
    case Kind::kBimodal: return p_ * a_ + (1 - p_) * b_;
  }
  return a_;
}

}  // namespace hxemu::tb
