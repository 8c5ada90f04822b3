// The pass/fail thresholds of `hxemu signoff` (docs/signoff.md): a small text file, one threshold
// per line, read and checked whole before anything runs, then judged against the figures the run
// measured.
//
//   # comment (from # to the end of the line); blank lines are skipped
//   deadlock_free                         a yes/no metric alone: it must hold
//   METRIC OP VALUE [UNIT]                OP one of >= <= > < == !=
//   allreduce 16MiB busbw >= 90% bound    a percentage of the metric's bound ...
//   saturation uniform >= 80% injection   ... or of the injection bandwidth
//   zero_load_latency_max <= 60 cycles
//
// A metric names what the run measures (MetricCatalog): a threshold on something this run does
// not measure (a pattern not swept, a size not run, iteration_time without --workload, area with
// --no-area) is bad input, like an unknown metric or unit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hxemu::app {

// What the run will measure: the names thresholds may use.
struct MetricCatalog {
  std::vector<std::string> patterns;     // saturation PATTERN
  std::vector<std::uint64_t> sizes;      // allreduce SIZE busbw, alltoall SIZE busbw (bytes per accelerator)
  bool workload = false;                 // iteration_time, iteration_cycles
  bool area = false;                     // area_cells, area_flip_flops
};

// "16MiB", "64KiB", "4096B": how reports and metric names write a collective's size.
std::string size_label(std::uint64_t bytes);

// The metric names, e.g. "saturation uniform", "allreduce 16MiB busbw", "deadlock_free".
std::string saturation_metric(const std::string& pattern);
std::string busbw_metric(const std::string& op, std::uint64_t bytes);

// A measured figure a threshold can be judged on.
struct Metric {
  std::string unit;           // "cycles", "GB/s", "flits/node/cycle", "us", "USD", ...
  bool boolean = false;       // yes/no: value 1 or 0
  bool measured = false;      // false: the run could not measure it (`why_not` says why)
  std::string why_not;
  double value = 0;
  double bound = 0;           // 0: none (then "% bound" cannot be judged)
  double injection = 0;       // 0: none
};
using Metrics = std::map<std::string, Metric>;

enum class Compare { kGe, kLe, kGt, kLt, kEq, kNe };
// What a threshold compares: the value, or the value as a percentage of its bound or injection.
enum class Scale { kValue, kPercentOfBound, kPercentOfInjection };

struct Threshold {
  std::string source;         // "FILE:LINE"
  std::string text;           // the line as written, comment and outer blanks removed
  std::string metric;         // canonical name
  bool must_hold = false;     // a yes/no metric written alone
  Compare op = Compare::kGe;
  double value = 0;
  Scale scale = Scale::kValue;
};

// Reads and checks `path` (at most 4 MiB). Throws std::invalid_argument naming the file and line,
// what is wrong, and the allowed metrics, operators and units: exit status 2 before any run.
std::vector<Threshold> read_thresholds(const std::string& path, const MetricCatalog& catalog);
// The same on text already read; `file` names it in messages.
std::vector<Threshold> parse_thresholds(const std::string& text, const std::string& file,
                                        const MetricCatalog& catalog);

struct ThresholdVerdict {
  Threshold threshold;
  bool measured = false;      // false: not judged (the metric was not measured): counts as failed
  bool passed = false;
  double compared = 0;        // the value compared (a percentage for the % scales)
  std::string measured_text;  // "0.9177 flits/node/cycle", "86.5% of bound (173.0 of 200.0 GB/s)"
};

// Judges each threshold; one whose metric was not measured fails, with why in measured_text.
std::vector<ThresholdVerdict> judge_thresholds(const std::vector<Threshold>& thresholds, const Metrics& metrics);

// "allowed metrics: ...; operators: ...": the grammar, for messages and --help.
std::string threshold_grammar(const MetricCatalog& catalog);

}  // namespace hxemu::app
