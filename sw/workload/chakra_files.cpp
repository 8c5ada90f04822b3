#include "sw/workload/chakra_files.h"

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>

namespace hxemu::sw {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxNpuFiles = 1 << 20;

struct Parsed {
  std::string name;
  int npu = 0;
};

// "<name>.<k>.et" with k a decimal number without leading zeros.
std::optional<Parsed> parse_file_name(const std::string& file) {
  const std::string ext = ".et";
  if (file.size() <= ext.size() || file.compare(file.size() - ext.size(), ext.size(), ext) != 0) return std::nullopt;
  const std::string stem = file.substr(0, file.size() - ext.size());
  const auto dot = stem.rfind('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  const std::string digits = stem.substr(dot + 1);
  if (digits.empty() || digits.size() > 7 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  int k = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    k = k * 10 + (c - '0');
  }
  if (k >= kMaxNpuFiles) return std::nullopt;
  return Parsed{stem.substr(0, dot), k};
}

// "0..2, 4..15" for the message about a gap.
std::string ranges(const std::map<int, std::string>& numbers) {
  std::string s;
  auto it = numbers.begin();
  while (it != numbers.end()) {
    const int lo = it->first;
    int hi = lo;
    for (++it; it != numbers.end() && it->first == hi + 1; ++it) hi = it->first;
    s += (s.empty() ? "" : ", ") + std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "");
  }
  return s;
}

}  // namespace

std::string chakra_file_name(const std::string& prefix, int npu) {
  return prefix + "." + std::to_string(npu) + ".et";
}

ChakraFileSet find_chakra_files(const std::string& prefix_or_dir, int npus_hint) {
  std::error_code ec;
  const fs::path given(prefix_or_dir);
  const bool is_dir = fs::is_directory(given, ec);
  const fs::path dir = is_dir ? given : (given.has_parent_path() ? given.parent_path() : fs::path("."));
  const std::string wanted = is_dir ? "" : given.filename().string();
  if (!is_dir && wanted.empty()) {
    throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': give a folder or a prefix <dir>/<name> of files <name>.<k>.et");
  }
  if (!fs::is_directory(dir, ec)) {
    throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': folder '" + dir.string() + "' does not exist");
  }
  std::map<std::string, std::map<int, std::string>> sets;   // name -> k -> path
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto p = parse_file_name(it->path().filename().string());
    if (!p || (!wanted.empty() && p->name != wanted) || it->is_directory(ec)) continue;
    sets[p->name][p->npu] = it->path().string();
  }
  if (ec) throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': cannot list '" + dir.string() + "': " + ec.message());
  if (sets.empty()) {
    throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': no files " +
                                (wanted.empty() ? "<name>.<k>.et in '" + dir.string() + "'"
                                                : "'" + (dir / (wanted + ".<k>.et")).string() + "'"));
  }
  if (sets.size() > 1) {
    std::string names;
    for (const auto& [name, files] : sets) names += (names.empty() ? "" : ", ") + name;
    throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': the folder holds several traces (" + names +
                                "); give the prefix <dir>/<name> of one");
  }
  ChakraFileSet set;
  set.name = sets.begin()->first;
  const auto& numbers = sets.begin()->second;
  for (const auto& [k, path] : numbers) {
    if (k != static_cast<int>(set.files.size())) {
      throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': " +
                                  chakra_file_name((dir / set.name).string(), static_cast<int>(set.files.size())) +
                                  " is missing (one file per NPU, numbered 0..N-1 without gaps; found " +
                                  ranges(numbers) + ")");
    }
    set.files.push_back(path);
  }
  if (npus_hint > 0 && static_cast<int>(set.files.size()) != npus_hint) {
    throw std::invalid_argument("Chakra trace '" + prefix_or_dir + "': " + std::to_string(set.files.size()) +
                                " files " + set.name + ".0.et.." + set.name + "." +
                                std::to_string(set.files.size() - 1) + ".et, but " + std::to_string(npus_hint) +
                                " NPUs were asked for");
  }
  return set;
}

}  // namespace hxemu::sw
