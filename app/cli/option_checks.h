// Option checks CLI11 lacks, shared by hxemu and hxemu-bench. CLI::Range lets "nan" through (every
// comparison with NaN is false) and an unsigned option turns "-1" into 2^64-1; these refuse both,
// naming the allowed values. CLI11 runs them on the option's text before converting it.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdint>
#include <string>

#include "sysc/util/parse_number.h"

namespace hxemu::cli {

// A finite number in lo..hi.
inline CLI::Validator finite_range(double lo, double hi) {
  const std::string allowed = fmt::format("a number in {}..{}", lo, hi);
  return CLI::Validator(
      [lo, hi, allowed](std::string& s) {
        const auto v = sysc::parse_double(s);   // nullopt for nan, inf and 1e400
        if (!v || *v < lo || *v > hi) return "must be " + allowed + ", got '" + s + "'";
        return std::string();
      },
      allowed);
}

// 0 (meaning "unlimited") or a finite number in lo..hi.
inline CLI::Validator zero_or_range(double lo, double hi) {
  const std::string allowed = fmt::format("0 (unlimited) or a number in {}..{}", lo, hi);
  return CLI::Validator(
      [lo, hi, allowed](std::string& s) {
        const auto v = sysc::parse_double(s);
        if (!v || (*v != 0 && (*v < lo || *v > hi))) return "must be " + allowed + ", got '" + s + "'";
        return std::string();
      },
      allowed);
}

// Digits only: 0..2^64-1.
inline CLI::Validator unsigned_integer() {
  return CLI::Validator(
      [](std::string& s) {
        if (!sysc::parse_uint(s)) return "must be an integer in 0.." + std::to_string(UINT64_MAX) + ", got '" + s + "'";
        return std::string();
      },
      "UINT");
}

// --seed N (a non-negative integer), the same on every command.
inline CLI::Option* add_seed_option(CLI::App* app, std::uint64_t& seed, const std::string& help) {
  return app->add_option("--seed", seed, help)->check(unsigned_integer());
}

}  // namespace hxemu::cli
