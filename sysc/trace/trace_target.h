// TraceTarget: a block whose verilated model dumps its signals into a waveform file -- what the
// recorder (sysc/trace/tracing_harness.h) needs of it. The traced blocks themselves are
// sysc/trace/traced_block.h, built from the traced model copies (cmake/HxTraceVariants.cmake).
#pragma once

class VerilatedFstC;

namespace hxemu::sysc {

class TraceTarget {
 public:
  virtual ~TraceTarget() = default;
  // Registers the model's signals with `fst`, under the model's name as scope (before fst opens).
  virtual void add_to(VerilatedFstC& fst) = 0;
  // The clock level the next dump shows. The model steps a whole cycle in one eval and leaves its
  // clock low (sysc/blocks/clock_edge.h), so the recorder raises it for the rising edge's dump and
  // lowers it again for the falling edge's; clock_low() evaluates the model once (no edge: nothing
  // but the clock changes), without which Verilator's change dump would skip the model.
  virtual void clock_high() = 0;
  virtual void clock_low() = 0;
};

}  // namespace hxemu::sysc
