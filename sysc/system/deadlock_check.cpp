#include "sysc/system/deadlock_check.h"

#include <algorithm>
#include <array>
#include <chrono>

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

// Follows every head bound for each destination and records the dependencies they create.
class GraphBuilder {
 public:
  GraphBuilder(const System& sys, const RouteChoices& route, DeadlockReport& out)
      : sys_(sys), net_(sys.net()), route_(route), out_(out), pool_(pool_classes(sys.vc_plan())) {
    const int links = net_.links();
    out_.successors.assign(static_cast<std::size_t>(links) * kClassSlots, {});
    stamp_.assign(out_.successors.size(), -1);
  }

  bool build() {
    for (int dst = 0; dst < sys_.nodes(); ++dst) {
      if (!follow(dst)) return false;
    }
    return true;
  }
  // Whether any route reached channel `id`.
  bool held(std::size_t id) const { return stamp_[id] >= 0; }

 private:
  bool fail(const std::string& what) {
    out_.error = what;
    return false;
  }

  // Heads for `dst` from every terminal, breadth of the routes, each channel once.
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
      const auto& to = net_.link_info(ch / kClassSlots).to;
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
      const int link = net_.link_out({q.block, r.port});
      if (link < 0) {
        return fail("a route to node " + std::to_string(q.dst) + " leaves " +
                    net_.block_name(q.block) + " through unconnected port " + std::to_string(r.port));
      }
      const auto& info = net_.link_info(link);
      if (info.cls == LinkClass::kTerminal) {
        if (sys_.node_of_block(info.to.block) != q.dst) {
          return fail("a route to node " + std::to_string(q.dst) + " ejects at " +
                      net_.block_name(info.to.block));
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
        auto& succ = out_.successors[from];
        if (std::find(succ.begin(), succ.end(), ch) == succ.end()) succ.push_back(ch);
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
  const RouteChoices& route_;
  DeadlockReport& out_;
  const std::array<int, kClassSlots> pool_;
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
  return [&sys](const RouteQuery& q, std::vector<RouteDecision>& out) {
    const Network& net = sys.net();
    const int ports = net.block(q.block).ports();
    if (sys.block_kind(q.block) == System::BlockKind::kRouter) {
      out.push_back(route_board(sys.router_setup(q.block), q.in_port, q.in_class, q.dst_route, 0,
                                ports - kMeshPorts));
      return;
    }
    const SwitchSetup& s = sys.switch_setup(q.block);
    const bool adaptive_leaf = s.level == SwitchLevel::kLeaf && !s.up_hash;
    const int choices = adaptive_leaf ? std::max(1, s.up_ports) : 1;
    for (int u = 0; u < choices; ++u) {
      const RouteDecision r = route_tree(s, ports, q.in_class, q.dst, q.dst_route, u);
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

DeadlockReport check_deadlock(const System& sys, const RouteChoices& route) {
  const auto start = std::chrono::steady_clock::now();
  DeadlockReport r;
  const RouteChoices own = route ? RouteChoices{} : system_routing(sys);
  GraphBuilder builder(sys, route ? route : own, r);
  r.ok = builder.build();
  if (r.ok) {
    // Used channels: every channel some route reached.
    std::vector<char> used(r.successors.size(), 0);
    for (std::size_t c = 0; c < r.successors.size(); ++c) {
      used[c] = builder.held(c) ? 1 : 0;
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
