#include "sysc/system/link_faults.h"

#include <cstdlib>
#include <stdexcept>

#include "sysc/fabric/router_ports.h"

namespace hxemu::sysc {

namespace {

[[noreturn]] void bad(const std::string& option, const std::string& text, const std::string& why) {
  throw std::invalid_argument(option + " '" + text + "': " + why);
}

bool is_router(const System& sys, int block) {
  return sys.block_kind(block) == System::BlockKind::kRouter;
}

}  // namespace

LinkFailureSpec parse_link_failure(const std::string& text) {
  const std::string form = "expected <block>.<port>@<cycle>, e.g. router0.W@2000 or rowtree1.p3@500";
  const auto at = text.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == text.size()) bad("--fail-link", text, form);
  LinkFailureSpec s;
  s.port = text.substr(0, at);
  const std::string cyc = text.substr(at + 1);
  char* end = nullptr;
  const unsigned long long v = std::strtoull(cyc.c_str(), &end, 10);
  if (cyc.empty() || *end != '\0' || cyc[0] == '-' || cyc[0] == '+') {
    bad("--fail-link", text, "the cycle '" + cyc + "' is not a whole number of cycles (" + form + ")");
  }
  s.cycle = v;
  return s;
}

BitFlipSpec parse_bit_flips(const std::string& text) {
  const std::string form = "expected <rate>[:<class>,...] with rate in [0, 1) per payload bit and classes "
                           "from board, cable, terminal (default all), e.g. 1e-7:cable";
  const auto colon = text.find(':');
  const std::string rate = text.substr(0, colon);
  BitFlipSpec s;
  char* end = nullptr;
  s.rate = std::strtod(rate.c_str(), &end);
  if (rate.empty() || *end != '\0' || !(s.rate >= 0.0 && s.rate < 1.0)) {
    bad("--flip-bits", text, "the rate '" + rate + "' is not a number in [0, 1) (" + form + ")");
  }
  if (colon == std::string::npos) {
    s.classes = 0x7u;
    return s;
  }
  std::string rest = text.substr(colon + 1);
  if (rest.empty()) bad("--flip-bits", text, "no link class after ':' (" + form + ")");
  std::size_t pos = 0;
  while (pos <= rest.size()) {
    const auto comma = rest.find(',', pos);
    const std::string c = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (c == "board") s.classes |= 1u << static_cast<int>(LinkClass::kBoard);
    else if (c == "cable") s.classes |= 1u << static_cast<int>(LinkClass::kCable);
    else if (c == "terminal") s.classes |= 1u << static_cast<int>(LinkClass::kTerminal);
    else bad("--flip-bits", text, "unknown link class '" + c + "' (" + form + ")");
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return s;
}

std::string port_label(const System& sys, PortRef p) {
  std::string s = sys.net().block_name(p.block) + ".";
  if (is_router(sys, p.block)) return s + port_name(p.port);
  return s + "p" + std::to_string(p.port);
}

PortRef find_port(const System& sys, const std::string& name) {
  const Network& net = sys.net();
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) {
    throw std::invalid_argument("--fail-link '" + name + "': expected <block>.<port>, e.g. router0.W, "
                                "rowtree1.p3, node2.nic0.p0");
  }
  const std::string block = name.substr(0, dot), port = name.substr(dot + 1);
  int b = -1;
  for (int i = 0; i < net.blocks(); ++i) {
    if (net.block_name(i) == block) {
      b = i;
      break;
    }
  }
  if (b < 0) {
    std::string some;
    for (int i = 0; i < net.blocks() && i < 6; ++i) some += (i ? ", " : "") + net.block_name(i);
    throw std::invalid_argument("--fail-link '" + name + "': no block named '" + block + "' (blocks are named like " +
                                some + ", ...; hxemu describe lists them)");
  }
  const int ports = net.block(b).ports();
  int p = -1;
  if (port.size() > 1 && port[0] == 'p' && port.find_first_not_of("0123456789", 1) == std::string::npos) {
    p = std::atoi(port.c_str() + 1);
  } else if (is_router(sys, b)) {
    for (int k = 0; k < ports; ++k) {
      if (port == port_name(k)) p = k;
    }
  }
  if (p < 0 || p >= ports) {
    throw std::invalid_argument("--fail-link '" + name + "': " + block + " has no port '" + port + "' (ports: " +
                                (is_router(sys, b) ? "N, E, S, W, L, L1..L3 or " : "") + "p0..p" +
                                std::to_string(ports - 1) + ")");
  }
  const PortRef ref{b, p};
  if (net.link_out(ref) < 0) {
    throw std::invalid_argument("--fail-link '" + name + "': that port is not connected");
  }
  return ref;
}

std::vector<AppliedFailure> apply_fault_plan(System& sys, const FaultPlan& plan) {
  Network& net = sys.net();
  if (!plan.failures.empty() && sys.dor_only_routers()) {
    throw std::logic_error("link failures on a system whose board routers have no link-failure inputs "
                           "(build it with SystemConfig::link_failures set)");
  }
  std::vector<AppliedFailure> out;
  for (const LinkFailureSpec& f : plan.failures) {
    const PortRef a = find_port(sys, f.port);
    AppliedFailure af;
    af.port = f.port;
    af.cycle = f.cycle;
    af.link = net.link_out(a);
    const int back = net.link_in(a);
    const PortRef b = net.link_info(af.link).to;
    af.peer = port_label(sys, b);
    af.cls = net.link_info(af.link).cls;
    net.fail_link(af.link, f.cycle);
    net.fail_link(back, f.cycle);
    net.schedule_block_fault(a.block, f.cycle, a.port, 0);
    net.schedule_block_fault(b.block, f.cycle, b.port, 0);
    // A board-edge cable: every router of that board row (E, W) or column (N, S) learns that its
    // edge is down, so adaptive routes leave through the other edge (hx_route_hxmesh).
    for (const PortRef end : {a, b}) {
      if (!is_router(sys, end.block) || af.cls != LinkClass::kCable || end.port >= kMeshPorts) continue;
      const RouterSetup& rs = sys.router_setup(end.block);
      if (rs.mode != RouteMode::kHammingMesh) continue;
      const bool row = end.port == kPortE || end.port == kPortW;
      for (int n = 0; n < sys.nodes(); ++n) {
        const int rb = sys.router_block(n);
        if (rb < 0) continue;
        const RouterSetup& o = sys.router_setup(rb);
        if (o.grid_row != rs.grid_row || o.grid_col != rs.grid_col) continue;
        if (row ? o.local_row != rs.local_row : o.local_col != rs.local_col) continue;
        net.schedule_block_fault(rb, f.cycle, -1, 1u << end.port);
        ++af.routers_told;
      }
    }
    out.push_back(af);
  }
  if (plan.flips.rate > 0.0) net.set_bit_flips(plan.flips.rate, plan.flips.classes, plan.seed);
  return out;
}

}  // namespace hxemu::sysc
