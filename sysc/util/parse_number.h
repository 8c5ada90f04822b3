// Whole-string number parsing for command-line and file values: the text must be one number and
// nothing else ("0.2x", "12 ", " 12", "" are not numbers), so that a typo is an error, not a silent
// prefix.
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace hxemu::sysc {

// A finite number: "nan", "inf" and text too large for a double (1e400) are not numbers here.
inline std::optional<double> parse_double(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

inline std::optional<long long> parse_int(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// Digits only, 0..2^64-1: no sign (so "-1" is not 2^64-1), no overflow.
inline std::optional<std::uint64_t> parse_uint(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// A byte count: digits with an optional K, M or G (powers of 1024), e.g. "4096", "64K", "4M".
inline std::optional<std::uint64_t> parse_bytes(std::string s) {
  std::uint64_t mult = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K': case 'k': mult = 1ull << 10; break;
      case 'M': case 'm': mult = 1ull << 20; break;
      case 'G': case 'g': mult = 1ull << 30; break;
      default: break;
    }
    if (mult != 1) s.pop_back();
  }
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const auto n = parse_int(s);
  if (!n || static_cast<std::uint64_t>(*n) > (1ull << 50) / mult) return std::nullopt;
  return static_cast<std::uint64_t>(*n) * mult;
}

}  // namespace hxemu::sysc
