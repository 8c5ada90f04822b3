#include "app/commands/signoff_thresholds.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sysc/util/input_file.h"
#include "sysc/util/parse_number.h"

namespace hxemu::app {

namespace {

// A metric that takes no arguments: its unit (a bare number is in it) and what it needs.
struct ScalarMetric {
  const char* name;
  const char* unit;           // the unit word a value may carry ("" none)
  const char* also;           // a second spelling of the unit ("" none)
  bool boolean;
  enum Need { kAlways, kWorkload, kArea } need;
};

const std::vector<ScalarMetric>& scalar_metrics() {
  static const std::vector<ScalarMetric> m = {
      {"deadlock_free", "", "", true, ScalarMetric::kAlways},
      {"wrong_elements", "elements", "", false, ScalarMetric::kAlways},
      {"zero_load_latency_max", "cycles", "", false, ScalarMetric::kAlways},
      {"zero_load_latency_mean", "cycles", "", false, ScalarMetric::kAlways},
      {"zero_load_model_mismatches", "pairs", "", false, ScalarMetric::kAlways},
      {"network_cost", "USD", "$", false, ScalarMetric::kAlways},
      {"iteration_time", "us", "", false, ScalarMetric::kWorkload},
      {"iteration_cycles", "cycles", "", false, ScalarMetric::kWorkload},
      {"area_cells", "cells", "", false, ScalarMetric::kArea},
      {"area_flip_flops", "flip-flops", "", false, ScalarMetric::kArea},
  };
  return m;
}

const char* const kOperators = ">=, <=, >, <, ==, !=";

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::vector<std::string> size_labels(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::string> v;
  for (auto b : sizes) v.push_back(size_label(b));
  return v;
}

bool parse_operator(const std::string& t, Compare& op) {
  static const std::vector<std::pair<std::string, Compare>> ops = {
      {">=", Compare::kGe}, {"<=", Compare::kLe}, {">", Compare::kGt},
      {"<", Compare::kLt},  {"==", Compare::kEq}, {"!=", Compare::kNe}};
  for (const auto& [s, o] : ops) {
    if (t == s) {
      op = o;
      return true;
    }
  }
  return false;
}

// "16MiB", "16M", "16MB", "1048576" -> bytes; nullopt otherwise.
std::optional<std::uint64_t> parse_size(std::string s) {
  for (const char* suffix : {"iB", "B"}) {
    const std::string suf = suffix;
    if (s.size() > suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0) {
      s.resize(s.size() - suf.size());
      break;
    }
  }
  return sysc::parse_bytes(s);
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

class LineError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One threshold line (comment removed, not blank).
Threshold parse_line(const std::string& text, const MetricCatalog& cat) {
  std::vector<std::string> tok;
  {
    std::istringstream in(text);
    for (std::string t; in >> t;) tok.push_back(t);
  }
  Threshold th;
  th.text = text;
  std::size_t op_at = tok.size();
  for (std::size_t i = 0; i < tok.size(); ++i) {
    if (parse_operator(tok[i], th.op)) {
      op_at = i;
      break;
    }
  }
  const std::vector<std::string> left(tok.begin(), tok.begin() + static_cast<long>(op_at));
  if (left.empty()) throw LineError("no metric before the operator '" + tok[op_at] + "'");
  // No operator but more than a name: a comparison whose operator is missing or misspelt.
  if (op_at == tok.size() && tok.size() > 1 && tok[0] != "saturation" && tok[0] != "allreduce" &&
      tok[0] != "alltoall") {
    throw LineError("no operator: a threshold is METRIC OP VALUE [UNIT], or a yes/no metric alone");
  }
  const std::string family = left[0];

  // The metric, and what a value of it may be written in.
  std::string unit, also;
  bool boolean = false, percent_ok = false;
  if (family == "saturation") {
    if (left.size() != 2) throw LineError("'saturation' takes one pattern: saturation PATTERN");
    if (std::find(cat.patterns.begin(), cat.patterns.end(), left[1]) == cat.patterns.end()) {
      throw LineError("pattern '" + left[1] + "' is not swept by this run (--patterns: " + joined(cat.patterns) + ")");
    }
    th.metric = saturation_metric(left[1]);
    unit = "flits/node/cycle";
    percent_ok = true;
  } else if (family == "allreduce" || family == "alltoall") {
    if (left.size() != 3 || left[2] != "busbw") {
      throw LineError("'" + family + "' takes a size and busbw: " + family + " SIZE busbw, e.g. " + family + " 16MiB busbw");
    }
    const auto bytes = parse_size(left[1]);
    if (!bytes || std::find(cat.sizes.begin(), cat.sizes.end(), *bytes) == cat.sizes.end()) {
      throw LineError("size '" + left[1] + "' is not run (--sizes: " + joined(size_labels(cat.sizes)) + ")");
    }
    th.metric = busbw_metric(family, *bytes);
    unit = "GB/s";
    percent_ok = true;
  } else {
    const auto& all = scalar_metrics();
    const auto it = std::find_if(all.begin(), all.end(), [&](const ScalarMetric& m) { return family == m.name; });
    if (it == all.end()) throw LineError("unknown metric '" + family + "'");
    if (left.size() != 1) throw LineError("'" + family + "' takes no arguments, got '" + left[1] + "'");
    if (it->need == ScalarMetric::kWorkload && !cat.workload) {
      throw LineError("'" + family + "' is measured only with --workload");
    }
    if (it->need == ScalarMetric::kArea && !cat.area) throw LineError("'" + family + "' is not measured with --no-area");
    th.metric = family;
    unit = it->unit;
    also = it->also;
    boolean = it->boolean;
  }

  if (op_at == tok.size()) {
    if (!boolean) throw LineError("'" + th.metric + "' needs an operator and a value, e.g. " + th.metric + " <= 60");
    th.must_hold = true;
    return th;
  }
  if (boolean) {
    throw LineError("'" + th.metric + "' is a yes/no check: write it alone, without an operator or value");
  }
  std::vector<std::string> right(tok.begin() + static_cast<long>(op_at) + 1, tok.end());
  if (right.empty()) throw LineError("no value after '" + tok[op_at] + "'");
  std::string number = right[0];
  bool percent = false;
  if (number.size() > 1 && number.back() == '%') {
    percent = true;
    number.pop_back();
  }
  const auto v = sysc::parse_double(number);
  if (!v) throw LineError("'" + right[0] + "' is not a number");
  th.value = *v;
  std::vector<std::string> rest(right.begin() + 1, right.end());
  if (!rest.empty() && rest[0] == "%") {
    percent = true;
    rest.erase(rest.begin());
  }
  const std::string units_allowed =
      (unit.empty() ? std::string("a number") : "a number, optionally followed by " + unit + (also.empty() ? "" : " or " + also)) +
      (percent_ok ? "; or N% bound, N% injection" : "");
  if (percent) {
    if (!percent_ok) throw LineError("'" + th.metric + "' has no bound to take a percentage of (values: " + units_allowed + ")");
    if (!rest.empty() && rest[0] == "of") rest.erase(rest.begin());
    if (rest.size() != 1 || (rest[0] != "bound" && rest[0] != "injection")) {
      throw LineError("a percentage must say of what: N% bound or N% injection (values of " + th.metric + ": " +
                      units_allowed + ")");
    }
    th.scale = rest[0] == "bound" ? Scale::kPercentOfBound : Scale::kPercentOfInjection;
    return th;
  }
  if (rest.size() > 1 || (rest.size() == 1 && (unit.empty() || (rest[0] != unit && rest[0] != also)))) {
    std::string got;
    for (const auto& r : rest) got += (got.empty() ? "" : " ") + r;
    throw LineError("unit '" + got + "' does not fit " + th.metric + " (values: " + units_allowed + ")");
  }
  return th;
}

bool holds(double a, Compare op, double b) {
  switch (op) {
    case Compare::kGe: return a >= b;
    case Compare::kLe: return a <= b;
    case Compare::kGt: return a > b;
    case Compare::kLt: return a < b;
    case Compare::kEq: return a == b;
    case Compare::kNe: return a != b;
  }
  return false;
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 100) return fmt::format("{:.1f}", v);
  if (std::fabs(v) >= 1) return fmt::format("{:.2f}", v);
  return fmt::format("{:.4f}", v);
}

}  // namespace

std::string size_label(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + "GiB";
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + "MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + "KiB";
  return std::to_string(b) + "B";
}

std::string saturation_metric(const std::string& pattern) { return "saturation " + pattern; }

std::string busbw_metric(const std::string& op, std::uint64_t bytes) {
  return op + " " + size_label(bytes) + " busbw";
}

std::string threshold_grammar(const MetricCatalog& cat) {
  std::string metrics;
  for (const auto& m : scalar_metrics()) {
    if ((m.need == ScalarMetric::kWorkload && !cat.workload) || (m.need == ScalarMetric::kArea && !cat.area)) continue;
    metrics += std::string(metrics.empty() ? "" : ", ") + m.name + (m.unit[0] ? std::string(" (") + m.unit + ")" : " (alone)");
  }
  metrics += ", saturation PATTERN (flits/node/cycle; PATTERN one of " + joined(cat.patterns) + ")";
  metrics += ", allreduce SIZE busbw, alltoall SIZE busbw (GB/s; SIZE one of " + joined(size_labels(cat.sizes)) + ")";
  return "lines are METRIC OP VALUE [UNIT] or a yes/no METRIC alone; metrics: " + metrics + "; operators: " +
         kOperators + "; saturation and busbw values may be N% bound or N% injection";
}

std::vector<Threshold> parse_thresholds(const std::string& text, const std::string& file, const MetricCatalog& cat) {
  std::vector<Threshold> out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const auto hash = line.find('#');
    const std::string body = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (body.empty()) continue;
    try {
      Threshold t = parse_line(body, cat);
      t.source = file + ":" + std::to_string(n);
      out.push_back(std::move(t));
    } catch (const LineError& e) {
      throw std::invalid_argument(fmt::format("--thresholds {}:{}: {} in '{}' ({})", file, n, e.what(), body,
                                              threshold_grammar(cat)));
    }
  }
  if (out.empty()) {
    throw std::invalid_argument("--thresholds " + file + ": no thresholds in it (" + threshold_grammar(cat) + ")");
  }
  return out;
}

std::vector<Threshold> read_thresholds(const std::string& path, const MetricCatalog& cat) {
  std::string text;
  try {
    text = sysc::read_input_file(path, "threshold file");
  } catch (const sysc::InputFileError& e) {
    throw std::invalid_argument(std::string("--thresholds: ") + e.what());
  }
  return parse_thresholds(text, path, cat);
}

std::vector<ThresholdVerdict> judge_thresholds(const std::vector<Threshold>& thresholds, const Metrics& metrics) {
  std::vector<ThresholdVerdict> out;
  for (const auto& t : thresholds) {
    ThresholdVerdict v;
    v.threshold = t;
    const auto it = metrics.find(t.metric);
    if (it == metrics.end() || !it->second.measured) {
      v.measured_text = "not measured" + (it == metrics.end() ? std::string() : ": " + it->second.why_not);
      out.push_back(v);
      continue;
    }
    const Metric& m = it->second;
    const std::string unit = m.unit.empty() ? "" : " " + m.unit;
    if (t.must_hold) {
      v.measured = true;
      v.compared = m.value;
      v.passed = m.value != 0;
      v.measured_text = v.passed ? "yes" : "no";
    } else if (t.scale == Scale::kValue) {
      v.measured = true;
      v.compared = m.value;
      v.passed = holds(m.value, t.op, t.value);
      v.measured_text = number_text(m.value) + unit;
    } else {
      const bool bound = t.scale == Scale::kPercentOfBound;
      const double of = bound ? m.bound : m.injection;
      if (!(of > 0)) {
        v.measured_text = std::string("not measured: no ") + (bound ? "bound" : "injection bandwidth") + " for it";
        out.push_back(v);
        continue;
      }
      v.measured = true;
      v.compared = 100.0 * m.value / of;
      v.passed = holds(v.compared, t.op, t.value);
      v.measured_text = fmt::format("{:.1f}% of {} ({} of {}{})", v.compared, bound ? "bound" : "injection",
                                    number_text(m.value), number_text(of), unit);
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace hxemu::app
