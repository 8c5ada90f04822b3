#include "app/cli/waveform_options.h"

#include "sysc/host/nic_node.h"
#include "sysc/trace/trace_selection.h"
#include "tb/traffic_system.h"

namespace hxemu::cli {

void add_waveform_options(CLI::App* sub, WaveformOpts& o) {
  sub->add_option("--trace", o.path,
                  "write a waveform (FST) of the --trace-blocks over --trace-cycles to FILE.fst, and a "
                  "GTKWave save file FILE.gtkw beside it (docs/waveforms.md)");
  sub->add_option("--trace-cycles", o.cycles,
                  "A:B: the cycles of --trace, A to B-1 (FST time = 2 x cycle; +1 for the falling edge)");
  sub->add_option("--trace-blocks", o.blocks,
                  "the blocks of --trace: a comma list of names or glob patterns, e.g. 'board0.*' "
                  "(a board's routers and NICs), 'router[0-3]', 'rowtree0'");
}

sysc::TraceRequest check_waveform(const WaveformOpts& o, const sysc::SystemConfig& cfg, int nic_rails,
                                  tb::OutputFiles& files) {
  sysc::TraceRequest req = sysc::parse_trace_request(o.path, o.cycles, o.blocks);
  if (!req.active()) return req;
  files.add("--trace", req.path);
  files.add("--trace (its GTKWave save file)", sysc::gtkw_path_for(req.path));
  // Block names and variants as the run will build them (NICs are named per rail).
  if (nic_rails > 0) {
    sysc::NicFactory nics(nic_rails, 1 << 16);
    const sysc::System sys(cfg, nics);
    (void)sysc::select_traced_blocks(sys, req);
  } else {
    const tb::TrafficSystem ts(cfg);
    (void)sysc::select_traced_blocks(ts.sys(), req);
  }
  return req;
}

}  // namespace hxemu::cli
