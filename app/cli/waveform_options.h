// --trace FILE.fst, --trace-cycles A:B and --trace-blocks PATTERNS: a waveform of chosen blocks
// over a window of cycles (docs/waveforms.md), on the commands that step one system (traffic,
// collective, train, run, jobs).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "sysc/system/system_config.h"
#include "sysc/trace/trace_request.h"
#include "sysc/trace/tracing_harness.h"
#include "tb/report_io.h"

namespace hxemu::cli {

struct WaveformOpts {
  std::string path, cycles, blocks;
};

void add_waveform_options(CLI::App* sub, WaveformOpts& o);

// Checks the three options before the run -- their form, the output paths (added to `files`, which
// then refuses the same file given to another option), and the blocks they name on a System built
// like the run's: `nic_rails` NICs per accelerator, or 0 for one testbench endpoint per node -- and
// returns the request (inactive without --trace). Throws std::invalid_argument naming the option.
sysc::TraceRequest check_waveform(const WaveformOpts& o, const sysc::SystemConfig& cfg, int nic_rails,
                                  tb::OutputFiles& files);

}  // namespace hxemu::cli
