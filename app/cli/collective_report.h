// The nccl-tests-style table of collective results (stdout, JSON, CSV, SVG).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/session.h"
#include "sysc/system/system_config.h"

namespace hxemu::cli {

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
