// Waveforms of chosen blocks over a window of cycles (hxemu --trace; docs/waveforms.md), as a
// harness around the one a command chose: before the window it runs the inner harness in long
// steps as always; inside it, one cycle at a time, and after each cycle every traced block's model
// dumps into one FST file (time 2c: the rising edge of cycle c, the values after it; 2c+1: the
// falling edge, where only the clock changes). After the window it runs in long steps again, the
// file closed and moved into place with its GTKWave save file.
//
// Results stay bit-identical for every harness and thread count: a traced block is the same RTL
// with the same parameters, set up the same way (sysc/trace/traced_block.h), and the inner harness
// steps whole cycles as it would anyway (any step length up to its window is exact); the dumps read
// the models only between cycles, from the calling thread, while no other thread steps. A run
// without --trace never builds any of this.
#pragma once

#include "sysc/harness/harness.h"
#include "sysc/trace/trace_request.h"

namespace hxemu::sysc {

// `inner`, or (when `req` is active) a factory that puts the traced copies of the blocks `req`
// selects into the System it is given (throws std::invalid_argument as select_traced_blocks does)
// and wraps `inner`'s harness in the recorder. One System per factory: a second one is an error.
HarnessFactory with_waveform(HarnessFactory inner, const TraceRequest& req);

}  // namespace hxemu::sysc
