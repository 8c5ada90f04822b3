// `hxemu pairs`: one packet between ordered pairs of nodes, one at a time, on an otherwise idle
// network -- the measured route length (links crossed, from the links' flit counters) and the
// measured zero-load latency, beside what the routing model and the pipeline model predict.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/traffic_system.h"

namespace hxemu::tb {

struct PairRow {
  int src = 0, dst = 0;
  int links = 0;              // measured: network links crossed (terminal links excluded)
  int model_links = 0;        // routing model
  std::uint64_t head = 0;     // measured: head on the source's output -> on the destination's input
  std::uint64_t tail = 0;     // measured: ... tail on the destination's input
  int model_head = 0;         // pipeline model: 2 per router/switch + every link's latency
  bool delivered = false;
  bool intact = false;
};

struct PairsResult {
  std::vector<PairRow> rows;
  int flits = 0;
  std::size_t mismatches = 0;       // rows where measurement and model disagree or not delivered
  double mean_links = 0, mean_head = 0, mean_tail = 0;
  int max_links = 0;
  std::uint64_t max_head = 0;
};

// Every ordered pair (src != dst), or `sample` random pairs when sample > 0.
PairsResult run_pairs(TrafficSystem& ts, int flits, std::size_t sample, std::uint64_t seed);
PairRow measure_pair(TrafficSystem& ts, int src, int dst, int flits);
nlohmann::json pairs_json(const PairsResult& r);

}  // namespace hxemu::tb
