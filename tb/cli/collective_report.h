// The nccl-tests-style table of collective results (stdout, JSON, CSV, SVG), and the parsers the
// collective commands share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/session.h"
#include "sysc/system_config.h"

namespace hxemu::cli {

// "4K:4M" (x2 steps), "64K:1M:x4", or "4096,65536"; K/M/G are powers of 1024. Sizes must be
// positive multiples of 4 bytes. Throws UsageError naming the spec.
std::vector<std::uint64_t> parse_sizes(const std::string& spec);
std::vector<std::string> split_list(const std::string& s);
// Fails early (UsageError) when an output path's folder is not writable.
void check_writable(const std::vector<std::string>& paths);
std::string format_bytes(std::uint64_t b);

class CollectiveTable {
 public:
  CollectiveTable(const sysc::SystemConfig& cfg, const std::string& op) : cfg_(cfg), op_(op) {}
  void print_header() const;
  void add(const sw::CollectiveResult& r);   // prints the row
  void print_summary() const;
  nlohmann::json json() const;
  std::string csv() const;
  std::string svg() const;
  const std::vector<sw::CollectiveResult>& rows() const { return rows_; }

 private:
  sysc::SystemConfig cfg_;
  std::string op_;
  std::vector<sw::CollectiveResult> rows_;
};

}  // namespace hxemu::cli
