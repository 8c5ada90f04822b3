// The network under load, for traffic, collective and train (docs/network-picture.md):
//   --topology-svg FILE   the topology as built, every link coloured by its utilisation
//   --link-json FILE      per link and time window: flits, utilisation, stall cycles
//   --link-windows W      the window length in cycles (default 1024)
// Both files are registered with the command's tb::OutputFiles, so a bad path is refused before
// the run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "sw/collectives/session.h"
#include "tb/report/topology_svg.h"
#include "tb/report_io.h"
#include "tb/stats/link_windows.h"

namespace hxemu::cli {

struct NetworkPictureOpts {
  std::string svg, json;
  std::uint64_t window = 1024;
  bool window_given = false;
  bool wanted() const { return !svg.empty() || !json.empty(); }
};

// `sub`'s callback must set window_given from the returned option (count() > 0).
inline CLI::Option* add_network_picture_options(CLI::App* sub, NetworkPictureOpts& o, const std::string& colours) {
  sub->add_option("--topology-svg", o.svg, "write the topology as SVG to FILE, every link coloured by " + colours);
  sub->add_option("--link-json", o.json, "write per-link flits, utilisation and stall cycles per time window as "
                                         "JSON to FILE");
  return sub->add_option("--link-windows", o.window, "time window of --link-json in cycles (default 1024)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
}

// Usage errors, before the run. `step`: the command's stepping granularity (a collective session
// steps 64 cycles at a time; windows must end on a step), 1 for none.
inline void check_network_picture(const NetworkPictureOpts& o, std::uint64_t step, tb::OutputFiles& files) {
  if (o.window_given && o.json.empty()) throw UsageError("--link-windows sets the windows of --link-json; give --link-json FILE");
  if (step > 1 && o.window % step != 0) {
    throw UsageError("--link-windows " + std::to_string(o.window) + ": must be a multiple of " + std::to_string(step) +
                     " (the emulation steps " + std::to_string(step) + " cycles at a time here)");
  }
  files.add("--topology-svg", o.svg);
  files.add("--link-json", o.json);
}

// The sampler a run needs: windows of W with --link-json, else one window (the totals).
inline std::unique_ptr<tb::LinkWindows> make_link_windows(const NetworkPictureOpts& o) {
  if (!o.wanted()) return nullptr;
  return std::make_unique<tb::LinkWindows>(o.json.empty() ? 0 : o.window);
}

// A collective session's run loop calls SessionConfig::progress every 64 cycles once the cycle
// count reaches what the previous call returned: sample there too, and ask to be called again at
// the next window edge or when the progress line wants it, whichever comes first.
inline void hook_session(tb::LinkWindows* w, sw::SessionConfig& sc) {
  if (!w) return;
  sc.progress = [w, inner = sc.progress](std::uint64_t now) {
    w->sample(now);
    const std::uint64_t next = w->next_edge();
    return inner ? std::min(next, inner(now)) : next;
  };
}

// Stages the files of a session command: utilisation over the whole command (every collective or
// step it ran), which is what LinkWindows' totals are.
inline void put_session_picture(const NetworkPictureOpts& o, tb::LinkWindows* w, sw::CollectiveSession& session,
                                const std::string& title, tb::OutputFiles& files) {
  if (!w) return;
  w->finish(session.now());
  if (!o.json.empty()) files.put(o.json, w->json().dump(1) + "\n");
  if (!o.svg.empty()) {
    tb::TopologyPictureOptions po;
    po.value_note = "flits/cycle over the whole command, busier direction";
    files.put(o.svg, tb::render_topology(session.system(), w->total_utilisation(), title, po));
  }
}

}  // namespace hxemu::cli
