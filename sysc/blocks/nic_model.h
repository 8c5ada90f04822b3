// NicModel<M>: a NicBlock backed by the verilated hx_nic variant M.
// (Not final: sysc/trace/traced_block.h derives the traced copy from it.)
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sysc/blocks/nic.h"
#include "sysc/blocks/verilated_block.h"

namespace hxemu::sysc {

template <class M>
class NicModel : public VerilatedBlock<M, NicBlock> {
  using Base = VerilatedBlock<M, NicBlock>;

 protected:
  using Base::flit_bits_;
  using Base::m_;
  using Base::vcs_;

 public:
  NicModel(int vcs, int flit_bits, int slots, int max_packet_flits, int max_nodes,
           const char* model_name = "TOP")
      : Base(1, vcs, flit_bits, model_name),
        slots_(slots),
        maxp_(max_packet_flits),
        nodes_(max_nodes) {
    m_->txc_ready_i = 0;
    m_->rxc_ready_i = 0;
    clear_inputs();
    m_->eval();
  }

  int buffer_slots() const override { return slots_; }
  int max_packet_flits() const override { return maxp_; }
  int max_nodes() const override { return nodes_; }

  void reset(const NicSetup& s) override {
    auto bad = [](const char* field, long long v, const std::string& allowed) {
      std::ostringstream os;
      os << "NIC setup: " << field << "=" << v << " not allowed (" << allowed << ")";
      throw std::invalid_argument(os.str());
    };
    if (s.node < 0 || s.node >= nodes_) bad("node", s.node, "0.." + std::to_string(nodes_ - 1));
    const int min_flits = s.crc ? 3 : 2;   // with CRC: head, data, trailer
    if (s.pkt_flits < min_flits || s.pkt_flits > maxp_) {
      bad("pkt_flits", s.pkt_flits,
          std::to_string(min_flits) + ".." + std::to_string(maxp_) + (s.crc ? " with crc" : ""));
    }
    const std::uint32_t all = vcs_ >= 32 ? ~0u : ((1u << vcs_) - 1);
    if (s.inj_vcs == 0 || (s.inj_vcs & ~all) != 0) {
      bad("inj_vcs", s.inj_vcs, "a non-empty mask of the " + std::to_string(vcs_) + " VCs");
    }
    if (s.inj_depth < 1 || s.inj_depth > 255) bad("inj_depth", s.inj_depth, "1..255");
    if (s.rail < 0 || s.rail > 3) bad("rail", s.rail, "0..3");
    m_->node_i = static_cast<std::uint16_t>(s.node);
    m_->rail_i = static_cast<std::uint8_t>(s.rail);
    m_->pkt_flits_i = static_cast<std::uint8_t>(s.pkt_flits);
    m_->crc_en_i = s.crc;
    m_->inj_vcs_i = s.inj_vcs;
    m_->inj_depth_i = static_cast<std::uint8_t>(s.inj_depth);
    m_->rd_req_ready_i = 0;
    m_->wr_ready_i = 0;
    setup_ = s;
    this->pulse_reset();
  }
  const NicSetup& setup() const override { return setup_; }

  void clear_inputs() override {
    Base::clear_inputs();
    m_->cmd_valid_i = 0;
    m_->rd_resp_valid_i = 0;
  }
  // The NIC's idle_o already means nothing queued or in flight inside it.
  bool drained() const override { return m_->idle_o != 0; }

  bool cmd_ready() const override { return m_->cmd_ready_o != 0; }
  void set_cmd(const NicCommand& c) override {
    m_->cmd_valid_i = 1;
    m_->cmd_dst_i = c.dst;
    m_->cmd_route_i = c.route;
    m_->cmd_src_addr_i = c.src_addr;
    m_->cmd_dst_addr_i = c.dst_addr;
    m_->cmd_len_i = c.len;
    m_->cmd_tag_i = c.tag;
  }

  bool txc_valid() const override { return m_->txc_valid_o != 0; }
  TxCompletion txc() const override {
    TxCompletion t;
    t.tag = static_cast<std::uint16_t>(m_->txc_tag_o);
    t.dst = static_cast<std::uint16_t>(m_->txc_dst_o);
    return t;
  }
  void set_txc_ready(bool r) override { m_->txc_ready_i = r; }
  bool rxc_valid() const override { return m_->rxc_valid_o != 0; }
  RxLanding rxc() const override {
    RxLanding r;
    r.src = static_cast<std::uint16_t>(m_->rxc_src_o);
    r.seq = static_cast<std::uint16_t>(m_->rxc_seq_o);
    r.tag = static_cast<std::uint16_t>(m_->rxc_tag_o);
    r.len = m_->rxc_len_o;
    r.bytes = static_cast<std::uint16_t>(m_->rxc_bytes_o);
    r.crc_bad = m_->rxc_crc_bad_o != 0;
    return r;
  }
  void set_rxc_ready(bool r) override { m_->rxc_ready_i = r; }

  DmaOut dma_out() const override {
    DmaOut o;
    o.rd_valid = m_->rd_req_valid_o != 0;
    o.rd_addr = m_->rd_req_addr_o;
    o.wr_valid = m_->wr_valid_o != 0;
    if (o.wr_valid) {
      o.wr_addr = m_->wr_addr_o;
      o.wr_be = get_bits(m_->wr_be_o, 0, flit_bits_ / 8);
      read_words(m_->wr_data_o, 0, flit_bits_ / 32, o.wr_data.data());
    }
    return o;
  }
  void set_dma_in(const DmaIn& in) override {
    m_->rd_req_ready_i = in.rd_ready;
    m_->wr_ready_i = in.wr_ready;
    m_->rd_resp_valid_i = in.rd_valid;
    if (in.rd_valid) write_words(m_->rd_resp_data_i, 0, flit_bits_ / 32, in.rd_data.data());
  }

  bool waiting() const override { return m_->wait_o != 0; }
  std::uint64_t crc_errors() const override { return m_->crc_errors_o; }

  bool has_valid_input() const override {
    return m_->in_valid_i != 0 || m_->out_credit_valid_i != 0 || m_->cmd_valid_i != 0 ||
           m_->rd_resp_valid_i != 0;
  }

 private:
  int slots_;
  int maxp_;
  int nodes_;
  NicSetup setup_;
};

}  // namespace hxemu::sysc
