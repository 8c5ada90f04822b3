#include "tb/cli/collective_report.h"

#include <fmt/core.h>

#include <unistd.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "tb/cli/commands.h"
#include "tb/report/svg_chart.h"

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
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::uint64_t mult = 1;
  if (used < t.size()) {
    const char c = t[used];
    mult = c == 'K' || c == 'k' ? 1024ull : c == 'M' || c == 'm' ? 1024ull * 1024 : c == 'G' || c == 'g' ? 1024ull * 1024 * 1024 : 0;
    if (mult == 0 || used + 1 != t.size()) used = 0;
  }
  const double bytes = v * static_cast<double>(mult);
  if (used == 0 || !(bytes >= 4) || bytes > 1024.0 * 1024 * 1024 ||
      static_cast<std::uint64_t>(bytes) % 4 != 0 || bytes != static_cast<double>(static_cast<std::uint64_t>(bytes))) {
    throw UsageError("--sizes '" + spec + "': '" + t +
                     "' is not a size in bytes (a multiple of 4 from 4 to 1G; K, M, G suffixes)");
  }
  return static_cast<std::uint64_t>(bytes);
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
      try {
        f = std::stod(parts[2].substr(1));
      } catch (const std::exception&) {
        f = 0;
      }
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

void check_writable(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    if (p.empty()) continue;
    const auto slash = p.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : p.substr(0, slash + 1);
    if (::access(dir.c_str(), W_OK) != 0) throw UsageError("cannot write to '" + p + "'");
  }
}

std::string format_bytes(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + "G";
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + "M";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + "K";
  return std::to_string(b);
}

void CollectiveTable::print_header() const {
  fmt::print("#{:>9} {:>10} {:>7} {:>5} {:<17} {:>10} {:>9} {:>8} {:>8} {:>7} {:>8} {:>6} {:>6}\n",
             "size", "count", "type", "redop", "algorithm", "time(us)", "cycles", "algbw", "busbw",
             "#wrong", "bound", "%bound", "%inj");
  fmt::print("#{:>9} {:>10} {:>7} {:>5} {:<17} {:>10} {:>9} {:>8} {:>8} {:>7} {:>8} {:>6} {:>6}\n",
             "(B)", "(elems)", "", "", "", "", "", "(GB/s)", "(GB/s)", "", "(GB/s)", "", "");
}

void CollectiveTable::add(const sw::CollectiveResult& r) {
  const bool reduces = op_ == "allreduce" || op_ == "reduce-scatter";
  fmt::print(" {:>9} {:>10} {:>7} {:>5} {:<17} {:>10.2f} {:>9} {:>8.2f} {:>8.2f} {:>7} {:>8.2f} {:>5.1f}% {:>5.1f}%{}\n",
             format_bytes(r.bytes), r.count, r.type, reduces ? "sum" : "none", r.algo, r.microseconds,
             r.cycles, r.algbw, r.busbw, r.wrong, r.bound_busbw, 100 * r.bound_fraction,
             100 * r.injection_fraction, r.ok ? "" : "  FAILED");
  for (const auto& e : r.errors) fmt::print(stderr, "  error: {}\n", e);
  std::fflush(stdout);
  rows_.push_back(r);
}

void CollectiveTable::print_summary() const {
  std::uint64_t wrong = 0;
  double wall = 0;
  bool ok = true;
  for (const auto& r : rows_) {
    wrong += r.wrong;
    wall += r.wall_seconds;
    ok = ok && r.ok;
  }
  fmt::print("# {} runs, {} wrong elements in all; link payload bandwidth {:.1f} GB/s, injection {:.1f} "
             "GB/s per accelerator; bound = the schedule's busiest link at full payload rate; {:.1f} s\n",
             rows_.size(), wrong, cfg_.link_gbps() / 8,
             rows_.empty() ? 0.0 : rows_.front().injection, wall);
  if (!ok) fmt::print("# FAILED: see the errors above\n");
}

nlohmann::json CollectiveTable::json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : rows_) rows.push_back(r.json());
  return {{"op", op_}, {"link_GBps", cfg_.link_gbps() / 8}, {"results", rows}};
}

std::string CollectiveTable::csv() const {
  std::string s = "op,algo,type,bytes,count,ranks,cycles,time_us,algbw_GBps,busbw_GBps,bound_busbw_GBps,"
                  "bound_fraction,injection_fraction,wrong,ok\n";
  for (const auto& r : rows_) {
    s += fmt::format("{},{},{},{},{},{},{},{:.3f},{:.4f},{:.4f},{:.4f},{:.5f},{:.5f},{},{}\n", r.op, r.algo,
                     r.type, r.bytes, r.count, r.ranks, r.cycles, r.microseconds, r.algbw, r.busbw,
                     r.bound_busbw, r.bound_fraction, r.injection_fraction, r.wrong, r.ok ? 1 : 0);
  }
  return s;
}

std::string CollectiveTable::svg() const {
  tb::LineChart c;
  c.title = fmt::format("{}: {} bus bandwidth", cfg_.name, op_);
  c.x_label = "message size (bytes per node)";
  c.y_label = "busbw (GB/s)";
  c.log_x = true;
  std::map<std::string, tb::Series> by_algo;
  std::vector<std::string> order;
  for (const auto& r : rows_) {
    if (!by_algo.count(r.algo)) {
      order.push_back(r.algo);
      by_algo[r.algo].label = r.algo;
    }
    by_algo[r.algo].x.push_back(static_cast<double>(r.bytes));
    by_algo[r.algo].y.push_back(r.busbw);
  }
  for (const auto& a : order) c.series.push_back(by_algo[a]);
  if (!rows_.empty()) c.h_lines.push_back({rows_.front().injection, "injection bandwidth (all ports)"});
  return tb::render_line_chart(c);
}

}  // namespace hxemu::cli
