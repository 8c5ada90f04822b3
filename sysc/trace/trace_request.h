// What a run is asked to record as a waveform (hxemu --trace FILE.fst --trace-cycles A:B
// --trace-blocks PATTERNS; docs/waveforms.md), parsed and checked for form. Which blocks the
// patterns name is checked against a System (sysc/trace/trace_selection.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::sysc {

struct TraceRequest {
  std::string path;                    // the FST file; empty: no waveform
  std::uint64_t first_cycle = 0;       // cycles first_cycle .. end_cycle - 1 are dumped
  std::uint64_t end_cycle = 0;
  std::vector<std::string> patterns;   // glob patterns over block names (trace_selection.h)
  bool active() const { return !path.empty(); }
};

// The largest cycle number --trace-cycles takes: FST time is 2 x cycle (+1), a 64-bit number.
inline constexpr std::uint64_t kMaxTraceCycle = 1ull << 62;

// The GTKWave save file beside the waveform: FILE.fst -> FILE.gtkw (any other name: NAME.gtkw).
std::string gtkw_path_for(const std::string& fst_path);

// --trace PATH, --trace-cycles "A:B" (A < B <= kMaxTraceCycle) and --trace-blocks "P1,P2,...".
// Throws std::invalid_argument naming the option and what it allows. An empty `path` with the
// other two empty gives an inactive request; either of them without a path, or a path without
// both, is an error.
TraceRequest parse_trace_request(const std::string& path, const std::string& cycles,
                                 const std::string& blocks);

}  // namespace hxemu::sysc
