// VerilatedBlock<M, Interface>: what every verilated hxemu block shares as a LinkBlock -- it owns
// the model M (whose top has the flat link ports of hx_router_core: in_valid_i ... out_credit_vc_i,
// clk_i, rst_i, idle_o, error_o) and forwards the link interface to LinkPorts<M>. The router,
// switch and NIC adapters add their own set-up and status on top.
//
// `model_name` is the verilated model's name: the prefix of the RTL hierarchy in assertion messages
// and, for a traced copy (sysc/trace/traced_block.h), the block's scope in the waveform.
#pragma once

#include <memory>

#include "sysc/blocks/link_ports.h"
#include "sysc/system/vc_plan.h"
#include "sysc/blocks/verilated_context.h"

namespace hxemu::sysc {

// Drives the VC-class inputs every router and switch top has (vc_class_i, vc_allow_i,
// class_vcs_i) from a VcPlan.
template <class M>
void apply_vc_plan(M& m, const VcPlan& plan, int vcs) {
  for (int v = 0; v < vcs; ++v) {
    set_bits(m.vc_class_i, v * 2, 2, static_cast<std::uint64_t>(plan.vc_class.at(v)));
    set_bits(m.vc_allow_i, v * vcs, vcs, plan.vc_allow.at(v));
  }
  for (int c = 0; c < 4; ++c) set_bits(m.class_vcs_i, c * vcs, vcs, plan.class_vcs[c]);
}

template <class M, class Interface>
class VerilatedBlock : public Interface {
 public:
  using Verilated = M;
  VerilatedBlock(int ports, int vcs, int flit_bits, const char* model_name = "TOP")
      : m_(std::make_unique<M>(verilated_context(), model_name)),
        io_(*m_, ports, vcs, flit_bits),
        ports_(ports),
        vcs_(vcs),
        flit_bits_(flit_bits) {
    m_->clk_i = 0;
    m_->rst_i = 1;
  }

  int ports() const override { return ports_; }
  int vcs() const override { return vcs_; }
  int flit_bits() const override { return flit_bits_; }

  void clear_inputs() override { io_.clear_inputs(); }
  void set_flit_in(int p, const Flit& f) override { io_.set_flit_in(p, f); }
  void set_credit_in(int p, Credit c) override { io_.set_credit_in(p, c); }
  // idle_o is read once, right after the edge while the model is in cache, and kept here: a harness
  // asks every block whether it is idle every cycle, and on a system of thousands of blocks the
  // model's status word is a cache miss when asked then (6% of a 1,024-node collective's time).
  void tick() override {
    io_.tick();
    idle_ = m_->idle_o != 0;
  }
  bool flit_out(int p, Flit& f) const override { return io_.flit_out(p, f); }
  Credit credit_out(int p) const override { return io_.credit_out(p); }
  std::uint64_t flit_out_bits() const override { return io_.flit_out_bits(); }
  std::uint64_t credit_out_bits() const override { return io_.credit_out_bits(); }
  bool idle() const override { return idle_; }
  bool error() const override { return m_->error_o != 0; }

 protected:
#if !defined(HX_PORTABLE_CLOCK)
  // tick() through the model's region functions (clock_edge_direct): for DirectStep, whose
  // translation unit (the model registry) declares them.
  void tick_direct() {
    clock_edge_direct(*m_);
    idle_ = m_->idle_o != 0;
  }
#endif

  // Holds reset for two clock edges with every link input invalid (set-up inputs must be set).
  void pulse_reset() {
    this->clear_inputs();
    m_->rst_i = 1;
    io_.tick();
    io_.tick();
    m_->rst_i = 0;
    idle_ = m_->idle_o != 0;
  }

  std::unique_ptr<M> m_;
  LinkPorts<M> io_;
  int ports_;
  int vcs_;
  int flit_bits_;
  bool idle_ = false;   // m_->idle_o after the last edge (tick, pulse_reset)
};

}  // namespace hxemu::sysc
