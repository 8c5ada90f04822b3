#include "sw/explore/design_space.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "sw/training/analytic.h"
#include "sw/training/placement.h"
#include "sysc/system/network_cost.h"

namespace hxemu::sw {

SplitSpace multidim_splits(const std::string& config_path, const std::vector<std::string>& sets, int lanes_total,
                           double budget_usd, const TrainingPlan& plan) {
  const auto base = sysc::load_system_config(config_path, sets);
  if (base.topology != sysc::Topology::kMultidim) {
    throw std::invalid_argument("explore: --config " + config_path + " is not a multidim platform (the family "
                                "explored is a multidim platform's lanes per dimension)");
  }
  const int dims = static_cast<int>(base.md_dims.size());
  if (lanes_total < dims) {
    throw std::invalid_argument("--lanes " + std::to_string(lanes_total) + ": at least one lane per dimension, so at "
                                "least " + std::to_string(dims));
  }
  SplitSpace out;
  std::vector<int> lanes(dims, 1);
  // Every vector of lanes >= 1 with sum <= lanes_total, the first dimension counting fastest.
  std::function<void(int, int)> each = [&](int d, int left) {
    if (d == dims) {
      SplitPoint p;
      p.lanes = lanes;
      for (int k = 0; k < dims; ++k) {
        p.label += (k ? "-" : "") + std::to_string(lanes[k]);
        p.sets.push_back("dimensions." + std::to_string(k) + ".lanes=" + std::to_string(lanes[k]));
      }
      std::vector<std::string> all = sets;
      all.insert(all.end(), p.sets.begin(), p.sets.end());
      try {
        p.cfg = sysc::load_system_config(config_path, all);
      } catch (const std::exception& e) {
        out.refused.push_back(p.label + ": " + e.what());
        return;
      }
      p.cost_usd = sysc::network_cost(p.cfg).total_usd;
      if (budget_usd > 0 && p.cost_usd > budget_usd) {
        out.refused.push_back(p.label + ": costs $" + std::to_string(static_cast<long long>(p.cost_usd)) +
                              ", over the budget");
        return;
      }
      p.analytic_cycles = libra_iteration(p.cfg, plan, place(p.cfg, plan.par)).total_cycles;
      out.points.push_back(std::move(p));
      return;
    }
    for (int l = 1; l <= left - (dims - d - 1); ++l) {
      lanes[d] = l;
      each(d + 1, left - l);
    }
  };
  each(0, lanes_total);
  if (out.points.empty()) {
    std::string why;
    for (std::size_t i = 0; i < out.refused.size() && i < 3; ++i) why += "; " + out.refused[i];
    throw std::invalid_argument("explore: no split of " + std::to_string(lanes_total) +
                                " lanes fits (--lanes, --budget)" + why);
  }
  std::stable_sort(out.points.begin(), out.points.end(), [](const SplitPoint& a, const SplitPoint& b) {
    return a.analytic_cycles != b.analytic_cycles ? a.analytic_cycles < b.analytic_cycles : a.label < b.label;
  });
  for (std::size_t i = 0; i < out.points.size(); ++i) out.points[i].analytic_rank = static_cast<int>(i) + 1;
  return out;
}

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    const double avg = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) r[idx[k]] = avg;
    i = j + 1;
  }
  return r;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) throw std::invalid_argument("spearman: two lists of the same length >= 2");
  const auto ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n, mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

std::vector<bool> pareto_front(const std::vector<double>& cost, const std::vector<double>& time) {
  std::vector<bool> front(cost.size(), true);
  for (std::size_t i = 0; i < cost.size(); ++i) {
    for (std::size_t j = 0; j < cost.size() && front[i]; ++j) {
      if (j == i) continue;
      const bool no_worse = cost[j] <= cost[i] && time[j] <= time[i];
      const bool better = cost[j] < cost[i] || time[j] < time[i];
      if (no_worse && better) front[i] = false;
    }
  }
  return front;
}

}  // namespace hxemu::sw
