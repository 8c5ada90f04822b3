// BoardRouterModel<M>: a BoardRouterBlock backed by the verilated hx_board_router variant M.
// (Not final: sysc/trace/traced_block.h derives the traced copy from it.)
#pragma once

#include <stdexcept>

#include "sysc/blocks/board_router.h"
#include "sysc/blocks/verilated_block.h"
#include "sysc/fabric/coord_word.h"

namespace hxemu::sysc {

template <class M>
class BoardRouterModel : public VerilatedBlock<M, BoardRouterBlock> {
  using Base = VerilatedBlock<M, BoardRouterBlock>;

 public:
  // dor_only: M was verilated with DOR_ONLY=1 (it ignores the mode, adaptive and link-failure inputs).
  BoardRouterModel(int local_ports, int vcs, int flit_bits, int slots, const char* model_name = "TOP",
                   bool dor_only = false)
      : Base(kMeshPorts + local_ports, vcs, flit_bits, model_name), slots_(slots), dor_only_(dor_only) {
    this->m_->eval();
  }

  int buffer_slots() const override { return slots_; }
  bool dor_only() const override { return dor_only_; }

  void reset(const RouterSetup& s) override {
    if (dor_only_ && (s.mode != RouteMode::kHammingMesh || s.adaptive)) {
      throw std::logic_error("a DOR-only board router (DOR_ONLY=1) set up for torus or adaptive routing");
    }
    M& m = *this->m_;
    m.mode_i = static_cast<std::uint8_t>(s.mode);
    m.adaptive_i = s.adaptive ? 1 : 0;
    m.margin_i = static_cast<std::uint8_t>(s.margin_eighths);
    m.pos_i = pack_coord({s.grid_row, s.grid_col, s.local_row, s.local_col});
    m.dims_i = pack_dims(s.grid_rows, s.grid_cols, s.board_rows, s.board_cols);
    apply_vc_plan(m, s.vc, this->vcs_);
    for (int p = 0; p < this->ports_; ++p) {
      set_bits(m.out_depth_i, p * 8, 8, static_cast<std::uint64_t>(s.out_depth[p]));
    }
    for (int p = 0; p < this->ports_; ++p) set_bits(m.port_down_i, p, 1, 0);
    m.edges_down_i = 0;
    this->pulse_reset();
  }

  void set_port_down(int port) override {
    refuse_failures();
    if (port >= 0 && port < this->ports_) set_bits(this->m_->port_down_i, port, 1, 1);
  }
  void set_edges_down(std::uint32_t edges) override {
    refuse_failures();
    this->m_->edges_down_i = static_cast<std::uint8_t>(this->m_->edges_down_i | (edges & 0xfu));
  }

  std::uint64_t stall_credit_bits() const override { return this->m_->stall_credit_o; }
  std::uint64_t stall_sa_bits() const override { return this->m_->stall_sa_o; }
  bool drained() const override { return this->m_->drained_o != 0; }

 private:
  void refuse_failures() const {
    if (dor_only_) {
      throw std::logic_error("a link failure told to a DOR-only board router (DOR_ONLY=1), which has no "
                             "link-failure inputs (SystemConfig::link_failures)");
    }
  }

  int slots_;
  bool dor_only_;
};

}  // namespace hxemu::sysc
