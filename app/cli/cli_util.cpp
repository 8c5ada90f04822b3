// Small helpers the hxemu subcommands share: list and size parsing, formatting, the memory and
// standard-output checks.
#include "app/cli/commands.h"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "sysc/util/memory_limit.h"
#include "sysc/util/parse_number.h"

namespace hxemu::cli {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string t;
  while (std::getline(ss, t, ',')) {
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

namespace {
std::uint64_t parse_size(const std::string& t, const std::string& spec) {
  const auto bytes = sysc::parse_bytes(t);
  if (!bytes || *bytes < 4 || *bytes > (1ull << 30) || *bytes % 4 != 0) {
    throw UsageError("--sizes '" + spec + "': '" + t +
                     "' is not a size in bytes (a multiple of 4 from 4 to 1G; K, M, G suffixes)");
  }
  return *bytes;
}
}  // namespace

std::vector<std::uint64_t> parse_sizes(const std::string& spec) {
  std::vector<std::uint64_t> out;
  if (spec.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(spec);
    std::string t;
    while (std::getline(ss, t, ':')) parts.push_back(t);
    if (parts.size() < 2 || parts.size() > 3) throw UsageError("--sizes '" + spec + "': expected MIN:MAX or MIN:MAX:xF");
    const std::uint64_t lo = parse_size(parts[0], spec), hi = parse_size(parts[1], spec);
    double f = 2;
    if (parts.size() == 3) {
      if (parts[2].size() < 2 || parts[2][0] != 'x') throw UsageError("--sizes '" + spec + "': the step is xF, e.g. x2");
      f = sysc::parse_double(parts[2].substr(1)).value_or(0);
      if (!(f > 1)) throw UsageError("--sizes '" + spec + "': the factor must be above 1");
    }
    if (hi < lo) throw UsageError("--sizes '" + spec + "': MAX is below MIN");
    for (double v = static_cast<double>(lo); v <= static_cast<double>(hi) * 1.000001; v *= f) {
      out.push_back(static_cast<std::uint64_t>(v) / 4 * 4);
      if (out.size() > 64) throw UsageError("--sizes '" + spec + "': more than 64 sizes");
    }
  } else {
    for (const auto& t : split_list(spec)) out.push_back(parse_size(t, spec));
  }
  if (out.empty()) throw UsageError("--sizes '" + spec + "': no sizes");
  std::sort(out.begin(), out.end());
  return out;
}

std::string format_bytes(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + "G";
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + "M";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + "K";
  return std::to_string(b);
}

int stdout_checked(int rc) {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "hxemu: error: cannot write to standard output ({})\n",
               errno ? std::strerror(errno) : "write error");
    return rc == 0 ? 1 : rc;
  }
  return rc;
}

namespace {
std::string gib(std::uint64_t b) {
  if (b < (1ull << 30)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1ull << 20));
  return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30));
}
}  // namespace

void check_memory(const std::string& option, std::uint64_t need, const std::string& detail) {
  const auto limit = sysc::memory_limit();
  if (need <= limit.bytes) return;
  throw UsageError(option + ": the run needs about " + gib(need) + " of memory (" + detail +
                   "), more than the limit of " + gib(limit.bytes) + " (" + limit.source + ")");
}

}  // namespace hxemu::cli
