#include "sysc/system/deadlock_check.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <thread>

#include "sysc/fabric/router_ports.h"

namespace hxemu::sysc {

namespace {

constexpr int kClassSlots = 4;   // classes are 2 bits wide in the RTL

int channel_id(int link, int cls) { return link * kClassSlots + cls; }
Channel channel_of(int id) { return {id / kClassSlots, id % kClassSlots}; }

// The class a requested class stands for: the class of the first VC of its pool (-1: no VCs).
std::array<int, kClassSlots> pool_classes(const VcPlan& vc) {
  std::array<int, kClassSlots> pool{};
  for (int c = 0; c < kClassSlots; ++c) {
    const std::uint32_t m = vc.class_vcs[c];
    pool[c] = m == 0 ? -1 : vc.vc_class[__builtin_ctz(m)];
  }
  return pool;
}

// The network's wiring in flat arrays, read once: what a routing step needs next (where a port's link
// goes) in one cache line rather than through the Network's per-block records.
struct Wiring {
  explicit Wiring(const Network& net) {
    for (int b = 0; b < net.blocks(); ++b) max_ports = std::max(max_ports, net.block(b).ports());
    out_link.assign(static_cast<std::size_t>(net.blocks()) * max_ports, -1);
    for (int b = 0; b < net.blocks(); ++b) {
      for (int p = 0; p < net.block(b).ports(); ++p) out_link[b * max_ports + p] = net.link_out({b, p});
    }
    for (int l = 0; l < net.links(); ++l) {
      const auto& info = net.link_info(l);
      to.push_back(info.to);
      ejects.push_back(info.cls == LinkClass::kTerminal ? 1 : 0);
    }
  }
  int link_out(int block, int port) const {
    return port >= 0 && port < max_ports ? out_link[static_cast<std::size_t>(block) * max_ports + port] : -1;
  }
  int max_ports = 1;
  std::vector<int> out_link;   // [block * max_ports + port]: directed link out, -1 if none
  std::vector<PortRef> to;     // [link]: block and port it enters
  std::vector<char> ejects;    // [link]: a terminal link (router/switch to NIC, or NIC to router)
};

// Follows every head bound for a share of the destinations (dst = first, first + stride, ...) and
// records the dependencies they create. Several builders may run at once, one per thread.
class GraphBuilder {
 public:
  GraphBuilder(const System& sys, const Wiring& wiring, const RouteChoices& route)
      : sys_(sys), net_(sys.net()), wiring_(wiring), route_(route),
        pool_(pool_classes(sys.vc_plan())), words_((wiring.max_ports * kClassSlots + 63) / 64) {
    const std::size_t slots = static_cast<std::size_t>(net_.links()) * kClassSlots;
    deps_.assign(slots * static_cast<std::size_t>(words_), 0);
    stamp_.assign(slots, -1);
  }

  // False at the first destination whose routes are not well formed (error(), error_dst()).
  bool build(int first, int stride) {
    for (int dst = first; dst < sys_.nodes(); dst += stride) {
      if (!follow(dst)) {
        error_dst_ = dst;
        return false;
      }
    }
    return true;
  }
  // Whether any route reached channel `id`.
  bool held(std::size_t id) const { return stamp_[id] >= 0; }
  // Channel `id`'s dependencies as a bit set of (output port * 4 + class) of the block it enters.
  const std::uint64_t* deps(std::size_t id) const { return &deps_[id * static_cast<std::size_t>(words_)]; }
  const std::string& error() const { return error_; }
  int error_dst() const { return error_dst_; }

 private:
  bool fail(const std::string& what) {
    error_ = what;
    return false;
  }

  // Heads for `dst` from every terminal, followed depth first, each channel expanded once.
  bool follow(int dst) {
    RouteQuery q;
    q.dst = dst;
    q.dst_route = sys_.route_of(dst);
    for (int src = 0; src < sys_.nodes(); ++src) {
      for (int rail = 0; rail < sys_.rails(); ++rail) {
        const PortRef at = sys_.attach_point(src, rail);
        q.block = at.block;
        q.in_port = at.port;
        q.in_class = 0;   // NICs inject in class 0 (VcPlan::inject_vcs)
        if (!step(q, -1)) return false;
      }
    }
    while (!pending_.empty()) {
      const int ch = pending_.back();
      pending_.pop_back();
      const PortRef to = wiring_.to[ch / kClassSlots];
      q.block = to.block;
      q.in_port = to.port;
      q.in_class = ch % kClassSlots;
      if (!step(q, ch)) return false;
    }
    return true;
  }

  // Routes one query; `from` is the channel the head holds (-1 at injection).
  bool step(const RouteQuery& q, int from) {
    choices_.clear();
    route_(q, choices_);
    for (const RouteDecision& r : choices_) {
      const int link = wiring_.link_out(q.block, r.port);
      if (link < 0) {
        return fail("a route to node " + std::to_string(q.dst) + " leaves " +
                    net_.block_name(q.block) + " through unconnected port " + std::to_string(r.port));
      }
      if (wiring_.ejects[link]) {
        const int nic = wiring_.to[link].block;
        if (sys_.node_of_block(nic) != q.dst) {
          return fail("a route to node " + std::to_string(q.dst) + " ejects at " +
                      net_.block_name(nic));
        }
        continue;
      }
      const int cls = r.out_class >= 0 && r.out_class < kClassSlots ? pool_[r.out_class] : -1;
      if (cls < 0) {
        return fail("a route to node " + std::to_string(q.dst) + " asks " +
                    net_.block_name(q.block) + " for class " + std::to_string(r.out_class) +
                    ", which has no VCs");
      }
      const int ch = channel_id(link, cls);
      if (from >= 0) {
        const int bit = r.port * kClassSlots + cls;
        deps_[static_cast<std::size_t>(from) * static_cast<std::size_t>(words_) + (bit >> 6)] |=
            std::uint64_t{1} << (bit & 63);
      }
      if (stamp_[ch] != q.dst) {
        stamp_[ch] = q.dst;
        pending_.push_back(ch);
      }
    }
    return true;
  }

  const System& sys_;
  const Network& net_;
  const Wiring& wiring_;
  const RouteChoices& route_;
  const std::array<int, kClassSlots> pool_;
  // Per channel, a bit per (output port, class) of the block it enters: an edge costs one OR in a
  // flat array, not a search of a list.
  const int words_;
  std::vector<std::uint64_t> deps_;
  std::string error_;
  int error_dst_ = -1;
  std::vector<int> stamp_;     // per channel: the last destination that reached it
  std::vector<int> pending_;   // channels reached for the current destination, not yet expanded
  std::vector<RouteDecision> choices_;
};

// Iterative depth-first search; returns one cycle (empty when there is none).
std::vector<int> find_cycle(const std::vector<std::vector<int>>& succ,
                            const std::vector<char>& used) {
  enum : char { kNew = 0, kOnPath = 1, kDone = 2 };
  std::vector<char> state(succ.size(), kNew);
  std::vector<std::pair<int, std::size_t>> path;   // channel, next successor to look at
  for (std::size_t root = 0; root < succ.size(); ++root) {
    if (!used[root] || state[root] != kNew) continue;
    path.push_back({static_cast<int>(root), 0});
    state[root] = kOnPath;
    while (!path.empty()) {
      auto& [v, next] = path.back();
      if (next == succ[v].size()) {
        state[v] = kDone;
        path.pop_back();
        continue;
      }
      const int w = succ[v][next++];
      if (state[w] == kOnPath) {
        std::vector<int> cycle;
        auto it = std::find_if(path.begin(), path.end(), [w](const auto& e) { return e.first == w; });
        for (; it != path.end(); ++it) cycle.push_back(it->first);
        return cycle;
      }
      if (state[w] == kNew) {
        state[w] = kOnPath;
        path.push_back({w, 0});
      }
    }
  }
  return {};
}

std::string block_label(const System& sys, int block) {
  if (sys.block_kind(block) == System::BlockKind::kRouter) {
    const RouterSetup& s = sys.router_setup(block);
    return "router b(" + std::to_string(s.grid_row) + "," + std::to_string(s.grid_col) + ") r(" +
           std::to_string(s.local_row) + "," + std::to_string(s.local_col) + ")";
  }
  return sys.net().block_name(block);
}

std::string port_label(const System& sys, const PortRef& p) {
  if (sys.block_kind(p.block) == System::BlockKind::kRouter) return port_name(p.port);
  return "p" + std::to_string(p.port);
}

}  // namespace

RouteChoices system_routing(const System& sys) {
  // Ports per block, read once (a virtual call on the block otherwise, once per routing step).
  std::vector<int> ports_of(sys.net().blocks());
  for (int b = 0; b < sys.net().blocks(); ++b) ports_of[b] = sys.net().block(b).ports();
  return [&sys, ports_of = std::move(ports_of)](const RouteQuery& q, std::vector<RouteDecision>& out) {
    const int ports = ports_of[q.block];
    if (sys.block_kind(q.block) == System::BlockKind::kRouter) {
      const RouterSetup& rs = sys.router_setup(q.block);
      out.push_back(route_board(rs, q.in_port, q.in_class, q.dst_route, 0, ports - kMeshPorts));
      RouteDecision alt;
      if (route_board_alternative(rs, q.in_class, q.dst_route, alt)) out.push_back(alt);
      return;
    }
    const SwitchSetup& s = sys.switch_setup(q.block);
    if (s.kind == TreeKind::kDragonfly) {
      // Minimal, plus every non-minimal first hop UGAL may take at the source router.
      out.push_back(route_dragonfly(s, q.in_class, q.dst_route));
      dragonfly_nonminimal(s, q.in_port, q.in_class, q.dst_route, out);
      return;
    }
    const bool adaptive_leaf = s.level == SwitchLevel::kLeaf && !s.up_hash;
    // Every lane a multidim router may pick (parallel links: one alternative each).
    const int choices = adaptive_leaf ? std::max(1, s.up_ports) : route_lanes(s, q.dst_route);
    for (int u = 0; u < choices; ++u) {
      const RouteDecision r = route_tree(s, ports, q.in_class, q.dst, q.dst_route, u, q.in_port);
      out.push_back(r);
      // A head for this leaf's own ports goes down whatever the choice: one alternative.
      if (r.port < (1 << s.down_log2)) break;
    }
  };
}

bool DeadlockReport::depends(const Channel& from, const Channel& to) const {
  const int a = channel_id(from.link, from.cls), b = channel_id(to.link, to.cls);
  if (a < 0 || a >= static_cast<int>(successors.size())) return false;
  const auto& s = successors[a];
  return std::find(s.begin(), s.end(), b) != s.end();
}

DeadlockReport check_deadlock(const System& sys, const RouteChoices& route, int threads) {
  const auto start = std::chrono::steady_clock::now();
  DeadlockReport r;
  const RouteChoices own = route ? RouteChoices{} : system_routing(sys);
  const RouteChoices& routing = route ? route : own;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::max(1, std::min(threads, sys.nodes()));
  // Destinations are independent: each thread takes every threads-th one with its own marks and
  // edge bits; the bits are merged after.
  const Network& net = sys.net();
  const Wiring wiring(net);
  const int words = (wiring.max_ports * kClassSlots + 63) / 64;
  std::vector<std::unique_ptr<GraphBuilder>> builders;
  for (int t = 0; t < threads; ++t) {
    builders.push_back(std::make_unique<GraphBuilder>(sys, wiring, routing));
  }
  std::vector<char> built(threads, 0);
  {
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) {
      workers.emplace_back([&, t] { built[t] = builders[t]->build(t, threads); });
    }
    built[0] = builders[0]->build(0, threads);
    for (auto& w : workers) w.join();
  }
  r.ok = true;
  int error_dst = -1;
  for (int t = 0; t < threads; ++t) {
    if (built[t]) continue;
    // The error of the lowest failing destination, whatever the thread count.
    if (error_dst < 0 || builders[t]->error_dst() < error_dst) {
      error_dst = builders[t]->error_dst();
      r.error = builders[t]->error();
    }
    r.ok = false;
  }
  if (r.ok) {
    // Successor lists from the merged bits, in (port, class) order: the graph and the cycle found
    // do not depend on the thread count.
    r.successors.assign(static_cast<std::size_t>(net.links()) * kClassSlots, {});
    std::vector<char> used(r.successors.size(), 0);
    std::vector<std::uint64_t> bits(words);
    for (std::size_t c = 0; c < r.successors.size(); ++c) {
      std::fill(bits.begin(), bits.end(), 0);
      for (const auto& b : builders) {
        used[c] |= b->held(c) ? 1 : 0;
        for (int w = 0; w < words; ++w) bits[w] |= b->deps(c)[w];
      }
      const int enters = wiring.to[c / kClassSlots].block;
      for (int w = 0; w < words; ++w) {
        for (std::uint64_t m = bits[w]; m != 0; m &= m - 1) {
          const int bit = w * 64 + __builtin_ctzll(m);
          const int link = wiring.link_out(enters, bit / kClassSlots);
          r.successors[c].push_back(channel_id(link, bit % kClassSlots));
        }
      }
      r.dependencies += static_cast<long long>(r.successors[c].size());
    }
    r.channels = static_cast<int>(std::count(used.begin(), used.end(), 1));
    for (int id : find_cycle(r.successors, used)) r.cycle.push_back(channel_of(id));
    r.acyclic = r.cycle.empty();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string channel_name(const System& sys, const Channel& c) {
  const auto& info = sys.net().link_info(c.link);
  return block_label(sys, info.from.block) + " " + port_label(sys, info.from) + " -> " +
         block_label(sys, info.to.block) + " class " + std::to_string(c.cls);
}

std::string cycle_text(const System& sys, const DeadlockReport& r) {
  std::string t;
  for (const Channel& c : r.cycle) t += "  " + channel_name(sys, c) + "\n";
  if (!r.cycle.empty()) t += "  back to " + channel_name(sys, r.cycle.front()) + "\n";
  return t;
}

}  // namespace hxemu::sysc
