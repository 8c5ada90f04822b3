#include "app/commands/pairs.h"

#include <random>

#include "sysc/dist/ranks.h"
#include "sysc/system/route_model.h"

namespace hxemu::tb {

namespace {
// Flits sent on every link but the terminal ones, so far. Under mpirun each rank counts the links
// whose senders it steps; the counts add up.
std::uint64_t fabric_flits(const TrafficSystem& ts) {
  const auto& net = ts.sys().net();
  std::uint64_t n = 0;
  for (int l = 0; l < net.links(); ++l) {
    if (net.link_info(l).cls != sysc::LinkClass::kTerminal) n += net.link_flits(l);
  }
  return sysc::Ranks::sum(n);   // (n itself in one process)
}
}  // namespace

PairRow measure_pair(TrafficSystem& ts, int src, int dst, int flits) {
  const std::uint64_t before = fabric_flits(ts);
  PairRow row;
  row.src = src;
  row.dst = dst;
  const auto path = sysc::trace_path(ts.sys(), src, dst);
  row.model_links = path.ok ? path.links : -1;
  row.model_head = path.ok ? path.latency : -1;
  const auto id = ts.send(src, dst, flits);
  row.delivered = ts.drain(100000);
  const std::uint64_t after = fabric_flits(ts);
  row.links = static_cast<int>((after - before) / static_cast<std::uint64_t>(flits));
  const auto& rec = ts.scoreboard().record(id);
  row.delivered = row.delivered && rec.deliveries == 1;
  row.intact = rec.deliveries == 1 && rec.delivery.intact && rec.delivery.dst == dst;
  if (rec.deliveries) {
    row.head = rec.delivery.head_arrival - rec.injected;
    row.tail = rec.delivery.tail_arrival - rec.injected;
  }
  return row;
}

PairsResult run_pairs(TrafficSystem& ts, int flits, std::size_t sample, std::uint64_t seed) {
  PairsResult res;
  res.flits = flits;
  const int n = ts.nodes();
  std::vector<std::pair<int, int>> pairs;
  if (sample == 0) {
    for (int s = 0; s < n; ++s) {
      for (int d = 0; d < n; ++d) {
        if (s != d) pairs.emplace_back(s, d);
      }
    }
  } else {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < sample; ++i) {
      const int s = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
      int d = static_cast<int>(rng() % static_cast<std::uint64_t>(n - 1));
      if (d >= s) ++d;
      pairs.emplace_back(s, d);
    }
  }
  double links = 0, head = 0, tail = 0;
  for (const auto& [s, d] : pairs) {
    PairRow r = measure_pair(ts, s, d, flits);
    if (!r.delivered || !r.intact || r.links != r.model_links ||
        r.head != static_cast<std::uint64_t>(r.model_head) ||
        r.tail != r.head + static_cast<std::uint64_t>(flits - 1)) {
      ++res.mismatches;
    }
    links += r.links;
    head += static_cast<double>(r.head);
    tail += static_cast<double>(r.tail);
    res.max_links = std::max(res.max_links, r.links);
    res.max_head = std::max(res.max_head, r.head);
    res.rows.push_back(r);
  }
  const double k = res.rows.empty() ? 1.0 : static_cast<double>(res.rows.size());
  res.mean_links = links / k;
  res.mean_head = head / k;
  res.mean_tail = tail / k;
  return res;
}

nlohmann::json pairs_json(const PairsResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : r.rows) {
    rows.push_back({{"src", p.src}, {"dst", p.dst}, {"links", p.links},
                    {"model_links", p.model_links}, {"head_latency", p.head},
                    {"tail_latency", p.tail}, {"model_head_latency", p.model_head},
                    {"delivered", p.delivered}, {"intact", p.intact}});
  }
  return {{"packet_flits", r.flits},
          {"pairs", r.rows.size()},
          {"mismatches", r.mismatches},
          {"mean_links", r.mean_links},
          {"max_links", r.max_links},
          {"mean_head_latency", r.mean_head},
          {"mean_tail_latency", r.mean_tail},
          {"max_head_latency", r.max_head},
          {"rows", rows}};
}

}  // namespace hxemu::tb
