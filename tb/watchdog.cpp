#include "tb/watchdog.h"

#include <sstream>

#include "sysc/system/link_faults.h"
#include "sysc/system/route_model.h"

namespace hxemu::tb {

using sysc::port_label;

bool Watchdog::check(const sysc::System& sys, const Scoreboard& sb) {
  if (fired_) return true;
  const std::uint64_t now = sys.net().now();
  const std::uint64_t moved = sys.flits_moved();   // every rank's, under mpirun
  if (moved != last_moved_ || sb.outstanding() == 0) {
    last_moved_ = moved;
    last_progress_cycle_ = now;
  } else if (now - last_progress_cycle_ >= cfg_.stall_cycles) {
    fired_ = true;
    std::ostringstream os;
    os << "deadlock: no flit moved for " << (now - last_progress_cycle_) << " cycles with "
       << sb.outstanding() << " packets outstanding (cycle " << now << ")";
    // The error line names a victim on its own (the stuck report lists them all): the oldest
    // packet still out, which is also what a lost packet looks like (nothing left to move).
    const auto& recs = sb.records();
    for (std::size_t id = 0; id < recs.size(); ++id) {
      if (recs[id].deliveries == 0 && !recs[id].withdrawn) {
        os << "; oldest outstanding: " << sb.history(id);
        break;
      }
    }
    reason_ = os.str();
  }
  if (!fired_ && cfg_.max_age > 0) {
    const auto& recs = sb.records();
    while (oldest_ < recs.size() && recs[oldest_].deliveries > 0) ++oldest_;
    if (oldest_ < recs.size() && now > recs[oldest_].spec.created &&
        now - recs[oldest_].spec.created > cfg_.max_age) {
      fired_ = true;
      std::ostringstream os;
      os << "livelock or starvation: packet " << oldest_ << " is "
         << (now - recs[oldest_].spec.created) << " cycles old (limit " << cfg_.max_age
         << "): " << sb.history(oldest_);
      reason_ = os.str();
    }
  }
  if (fired_) report_ = stuck_report(sys, sb);
  return fired_;
}

std::string Watchdog::stuck_report(const sysc::System& sys, const Scoreboard& sb,
                                   std::size_t max_lines) {
  const sysc::Network& net = sys.net();
  std::ostringstream os;
  std::size_t lines = 0, held = 0;
  for (int l = 0; l < net.links(); ++l) {
    const auto& info = net.link_info(l);
    for (int v = 0; v < net.block(info.from.block).vcs(); ++v) {
      const auto& st = net.vc_state(l, v);
      if (st.occupancy() <= 0 && !st.open()) continue;
      ++held;
      if (lines >= max_lines) continue;
      ++lines;
      const auto front = st.front();
      os << "  " << port_label(sys, info.from) << " -> " << port_label(sys, info.to) << " VC " << v
         << " (class " << sys.vc_plan().vc_class[v] << "): " << st.occupancy() << " flits buffered";
      if (front) {
        os << ", held by packet " << front->key << " (" << front->src << " -> " << front->dst
           << ") at the front";
        if (st.packets() > 1) os << " and " << (st.packets() - 1) << " more behind it";
        if (st.open()) os << "; the VC is owned by packet " << st.back()->key << " until its tail passes";
      }
      // Where the packet at the front wants to go next, and whether that link has room.
      if (front && sys.block_kind(info.to.block) != sysc::System::BlockKind::kTerminal &&
          front->dst >= 0 && front->dst < sys.nodes()) {
        sysc::RouteDecision r;
        const int cls = sys.vc_plan().vc_class[v];
        if (sys.block_kind(info.to.block) == sysc::System::BlockKind::kRouter) {
          r = sysc::route_board(sys.router_setup(info.to.block), info.to.port, cls,
                                sys.route_of(front->dst), front->rail, net.block(info.to.block).ports() - sysc::kMeshPorts);
        } else {
          r = sysc::route_tree(sys.switch_setup(info.to.block), net.block(info.to.block).ports(), cls,
                               front->dst, sys.route_of(front->dst), 0, info.to.port, front->rail);
        }
        const int next = net.link_out({info.to.block, r.port});
        if (next >= 0) {
          os << "; waits for a credit on " << port_label(sys, net.link_info(next).from) << " -> "
             << port_label(sys, net.link_info(next).to) << " class " << r.out_class << " (VCs:";
          const auto allowed = sys.vc_plan().class_vcs[r.out_class & 3];
          for (int w = 0; w < net.block(info.to.block).vcs(); ++w) {
            if (!((allowed >> w) & 1u)) continue;
            const auto& nst = net.vc_state(next, w);
            os << " " << w << "=" << nst.occupancy() << (nst.open() ? "/owned" : "");
          }
          os << ")";
        }
      }
      os << "\n";
    }
  }
  std::ostringstream head;
  head << held << " VCs hold flits";
  if (lines < held) head << " (first " << lines << " listed)";
  head << ":\n";
  // A few undelivered packets with their histories.
  std::ostringstream tail;
  std::size_t shown = 0;
  for (const auto& r : sb.records()) {
    if (r.deliveries > 0 || r.withdrawn) continue;
    if (shown++ >= 5) break;
    tail << "  " << sb.history(r.spec.id) << "\n";
  }
  return head.str() + os.str() + (shown ? "undelivered, oldest first:\n" + tail.str() : "");
}

}  // namespace hxemu::tb
