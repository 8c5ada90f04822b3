// SwitchModel<M>: a SwitchBlock backed by the verilated hx_switch variant M.
// (Not final: sysc/trace/traced_block.h derives the traced copy from it.)
#pragma once

#include "sysc/blocks/switch_block.h"
#include "sysc/blocks/verilated_block.h"
#include "sysc/fabric/coord_word.h"

namespace hxemu::sysc {

template <class M>
class SwitchModel : public VerilatedBlock<M, SwitchBlock> {
  using Base = VerilatedBlock<M, SwitchBlock>;

 public:
  SwitchModel(int radix, int vcs, int flit_bits, int slots, const char* model_name = "TOP")
      : Base(radix, vcs, flit_bits, model_name), slots_(slots) {
    this->m_->eval();
  }

  int buffer_slots() const override { return slots_; }

  void reset(const SwitchSetup& s) override {
    M& m = *this->m_;
    m.kind_i = static_cast<std::uint8_t>(s.kind);
    m.level_i = static_cast<std::uint8_t>(s.level);
    m.index_i = static_cast<std::uint8_t>(s.leaf_index);
    m.down_log2_i = static_cast<std::uint8_t>(s.down_log2);
    m.up_ports_i = static_cast<std::uint8_t>(s.up_ports);
    m.up_hash_i = s.up_hash;
    m.dims_i = pack_dims(s.grid_rows, s.grid_cols, s.board_rows, s.board_cols);
    m.pos_i = 0;
    m.adaptive_i = false;
    m.ugal_thresh_i = 0;
    if (s.kind == TreeKind::kDragonfly) {
      // hx_route_dragonfly: dims {h, p, a, g}, position {-, -, router, group}, log2(h) on down_log2_i.
      int hlog2 = 0;
      while ((1 << hlog2) < s.df_globals) ++hlog2;
      m.down_log2_i = static_cast<std::uint8_t>(hlog2);
      m.dims_i = pack_dims(s.df_groups, s.df_routers, s.df_terminals, s.df_globals);
      m.pos_i = pack_coord({s.df_group, s.df_router, 0, 0});
      m.adaptive_i = s.adaptive;
      m.ugal_thresh_i = static_cast<std::uint8_t>(s.ugal_threshold);
    }
    // hx_route_multidim's shape (every field 0 on other switches: its logic is gated by kind_i).
    m.md_kinds_i = 0;
    m.md_lanes_i = 0;
    m.md_base_i = 0;
    m.md_order_i = 0;
    m.md_dim_i = static_cast<std::uint8_t>(s.md_dim);
    if (s.kind == TreeKind::kMultidim) {
      m.dims_i = pack_dims(s.md_size[0], s.md_size[1], s.md_size[2], s.md_size[3]);
      m.pos_i = pack_coord({s.md_pos[0], s.md_pos[1], s.md_pos[2], s.md_pos[3]});
      for (int d = 0; d < 4; ++d) {
        m.md_kinds_i |= static_cast<std::uint8_t>(s.md_kind[d] << (2 * d));
        m.md_lanes_i |= static_cast<std::uint16_t>(s.md_lanes[d] << (4 * d));
        m.md_base_i |= static_cast<std::uint32_t>(s.md_base[d] & 0xff) << (8 * d);
        m.md_order_i |= static_cast<std::uint8_t>(s.md_order[d] << (2 * d));
      }
    }
    apply_vc_plan(m, s.vc, this->vcs_);
    for (int p = 0; p < this->ports_; ++p) {
      set_bits(m.out_depth_i, p * 8, 8, static_cast<std::uint64_t>(s.out_depth.at(p)));
    }
    for (int p = 0; p < this->ports_; ++p) set_bits(m.port_down_i, p, 1, 0);
    this->pulse_reset();
  }

  void set_port_down(int port) override {
    if (port >= 0 && port < this->ports_) set_bits(this->m_->port_down_i, port, 1, 1);
  }

  std::uint64_t stall_credit_bits() const override { return this->m_->stall_credit_o; }
  std::uint64_t stall_sa_bits() const override { return this->m_->stall_sa_o; }
  bool drained() const override { return this->m_->drained_o != 0; }

 private:
  int slots_;
};

}  // namespace hxemu::sysc
