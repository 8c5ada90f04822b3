#include "app/cli/collective_report.h"

#include <fmt/core.h>


#include <algorithm>
#include <map>
#include <sstream>

#include "app/cli/commands.h"
#include "tb/report/svg_chart.h"

namespace hxemu::cli {

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
  if (r.has_libra) {
    // LIBRA's analytical time beside the emulated one, and how busy each dimension was.
    fmt::print("#   LIBRA estimate {:.0f} cycles ({} bound), emulated {} = {:.2f}x;", r.libra_cycles,
               r.libra_bottleneck, r.cycles, r.libra_ratio);
    for (const auto& d : r.dims) {
      fmt::print(" {} {:.1f}% (LIBRA {:.1f}%)", d.name, 100 * d.utilisation, 100 * d.libra_utilisation);
    }
    fmt::print(" of each dimension's bandwidth\n");
  }
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
  // Multidim platforms add LIBRA's estimate, the ratio, and per dimension (in order) LIBRA's and the
  // achieved share of its bandwidth.
  const bool libra = !rows_.empty() && rows_.front().has_libra;
  std::string s = "op,algo,type,bytes,count,ranks,cycles,time_us,algbw_GBps,busbw_GBps,bound_busbw_GBps,"
                  "bound_fraction,injection_fraction,wrong,ok";
  if (libra) {
    s += ",libra_cycles,libra_ratio";
    for (const auto& d : rows_.front().dims) s += fmt::format(",{0}_libra_utilisation,{0}_utilisation", d.name);
  }
  s += "\n";
  for (const auto& r : rows_) {
    s += fmt::format("{},{},{},{},{},{},{},{:.3f},{:.4f},{:.4f},{:.4f},{:.5f},{:.5f},{},{}", r.op, r.algo,
                     r.type, r.bytes, r.count, r.ranks, r.cycles, r.microseconds, r.algbw, r.busbw,
                     r.bound_busbw, r.bound_fraction, r.injection_fraction, r.wrong, r.ok ? 1 : 0);
    if (libra) {
      s += fmt::format(",{:.1f},{:.4f}", r.libra_cycles, r.libra_ratio);
      for (const auto& d : r.dims) s += fmt::format(",{:.5f},{:.5f}", d.libra_utilisation, d.utilisation);
    }
    s += "\n";
  }
  return s;
}

namespace {

// One series per algorithm, in first-seen order, of value(row) against the size.
template <class Value>
std::vector<tb::Series> series_by_algo(const std::vector<sw::CollectiveResult>& rows, const std::string& prefix,
                                       Value value) {
  std::map<std::string, tb::Series> by_algo;
  std::vector<std::string> order;
  for (const auto& r : rows) {
    if (!by_algo.count(r.algo)) {
      order.push_back(r.algo);
      by_algo[r.algo].label = prefix + r.algo;
    }
    by_algo[r.algo].x.push_back(static_cast<double>(r.bytes));
    by_algo[r.algo].y.push_back(value(r));
  }
  std::vector<tb::Series> out;
  for (const auto& a : order) out.push_back(by_algo[a]);
  return out;
}

}  // namespace

std::string CollectiveTable::svg() const {
  tb::LineChart c;
  c.x_label = "message size (bytes per node)";
  c.log_x = true;
  if (!rows_.empty() && rows_.front().has_libra) {
    // Multidim: time against size, emulated per algorithm beside LIBRA's estimate.
    c.title = fmt::format("{}: {} time, emulated vs LIBRA's estimate", cfg_.name, op_);
    c.y_label = "time (cycles)";
    c.series = series_by_algo(rows_, "emulated, ",
                              [](const sw::CollectiveResult& r) { return static_cast<double>(r.cycles); });
    tb::Series est;
    est.label = "LIBRA estimate";
    for (const auto& r : rows_) {
      if (std::find(est.x.begin(), est.x.end(), static_cast<double>(r.bytes)) != est.x.end()) continue;
      est.x.push_back(static_cast<double>(r.bytes));
      est.y.push_back(r.libra_cycles);
    }
    c.series.push_back(est);
    return tb::render_line_chart(c);
  }
  c.title = fmt::format("{}: {} bus bandwidth", cfg_.name, op_);
  c.y_label = "busbw (GB/s)";
  c.series = series_by_algo(rows_, "", [](const sw::CollectiveResult& r) { return r.busbw; });
  if (!rows_.empty()) c.h_lines.push_back({rows_.front().injection, "injection bandwidth (all ports)"});
  return tb::render_line_chart(c);
}

}  // namespace hxemu::cli
