// BoardRouterModel<M>: a BoardRouterBlock backed by the verilated hx_board_router variant M.
#pragma once

#include <memory>

#include "sysc/board_router.h"
#include "sysc/link_ports.h"
#include "sysc/verilated_context.h"

namespace hxemu::sysc {

template <class M>
class BoardRouterModel final : public BoardRouterBlock {
 public:
  BoardRouterModel(int local_ports, int vcs, int flit_bits, int slots)
      : m_(std::make_unique<M>(verilated_context())),
        io_(*m_, 4 + local_ports, vcs, flit_bits),
        ports_(4 + local_ports),
        vcs_(vcs),
        flit_bits_(flit_bits),
        slots_(slots) {
    m_->clk_i = 0;
    m_->rst_i = 1;
    m_->eval();
  }

  int ports() const override { return ports_; }
  int vcs() const override { return vcs_; }
  int flit_bits() const override { return flit_bits_; }
  int buffer_slots() const override { return slots_; }

  void reset(const RouterSetup& s) override {
    m_->mode_i = static_cast<std::uint8_t>(s.mode);
    m_->pos_i = pack4(s.grid_row, s.grid_col, s.local_row, s.local_col);
    m_->dims_i = pack4(s.grid_rows, s.grid_cols, s.board_rows, s.board_cols);
    for (int v = 0; v < vcs_; ++v) {
      set_bits(m_->vc_class_i, v * 2, 2, static_cast<std::uint64_t>(s.vc.vc_class.at(v)));
      set_bits(m_->vc_allow_i, v * vcs_, vcs_, s.vc.vc_allow.at(v));
    }
    for (int c = 0; c < 4; ++c) set_bits(m_->class_vcs_i, c * vcs_, vcs_, s.vc.class_vcs[c]);
    for (int p = 0; p < ports_; ++p) {
      set_bits(m_->out_depth_i, p * 8, 8, static_cast<std::uint64_t>(s.out_depth[p]));
    }
    io_.clear_inputs();
    m_->rst_i = 1;
    io_.tick();
    io_.tick();
    m_->rst_i = 0;
  }

  void clear_inputs() override { io_.clear_inputs(); }
  void set_flit_in(int p, const Flit& f) override { io_.set_flit_in(p, f); }
  void set_credit_in(int p, Credit c) override { io_.set_credit_in(p, c); }
  void tick() override { io_.tick(); }
  bool flit_out(int p, Flit& f) const override { return io_.flit_out(p, f); }
  bool flit_out_valid(int p) const override { return io_.flit_out_valid(p); }
  Credit credit_out(int p) const override { return io_.credit_out(p); }
  bool idle() const override { return m_->idle_o != 0; }
  std::uint64_t stall_credit_bits() const override { return m_->stall_credit_o; }
  std::uint64_t stall_sa_bits() const override { return m_->stall_sa_o; }
  bool drained() const override { return m_->drained_o != 0; }
  bool error() const override { return m_->error_o != 0; }

 private:
  static std::uint32_t pack4(int hi, int mid_hi, int mid_lo, int lo) {
    return (static_cast<std::uint32_t>(hi & 0xff) << 24) |
           (static_cast<std::uint32_t>(mid_hi & 0xff) << 16) |
           (static_cast<std::uint32_t>(mid_lo & 0xff) << 8) | static_cast<std::uint32_t>(lo & 0xff);
  }

  std::unique_ptr<M> m_;
  LinkPorts<M> io_;
  int ports_;
  int vcs_;
  int flit_bits_;
  int slots_;
};

}  // namespace hxemu::sysc
