// Traced<Model>: a router, switch or NIC adapter (sysc/blocks/*_model.h) over a
// model verilated with --trace-fst (its traced copy, cmake/HxTraceVariants.cmake), as a
// TraceTarget. Compiled only into hx_models_traced (sysc/trace/CMakeLists.txt, VM_TRACE=1); the
// untraced adapters and models are not touched by any of this.
#pragma once

#include "verilated_fst_c.h"

#include "sysc/trace/trace_target.h"

namespace hxemu::sysc {

template <class Model>
class Traced : public Model, public TraceTarget {
 public:
  // `scope`: the block's scope in the waveform, parts separated by spaces ("board0 router0").
  template <class... Args>
  explicit Traced(const char* scope, Args... args) : Model(args..., scope) {}

  // Ticked every cycle, idle or not. Skipping an idle block's tick changes no state, but leaves the
  // model's inputs as they were at its last tick, and the waveform would show those. (A NIC's ticks
  // are skipped by its host side instead: sysc/host/nic_node.h, replace_nic.)
  bool idle() const override { return false; }

  void add_to(VerilatedFstC& fst) override { this->m_->trace(&fst, 99); }
  void clock_high() override { this->m_->clk_i = 1; }
  void clock_low() override {
    this->m_->clk_i = 0;
    this->m_->eval();
  }
};

}  // namespace hxemu::sysc
