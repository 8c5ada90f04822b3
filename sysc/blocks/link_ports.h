// LinkPorts<M>: the link-port half of a LinkBlock for any verilated model M whose top has hxemu's
// flat link ports (in_valid_i, in_head_i, ..., out_credit_vc_i; see hx_router_core.sv).
#pragma once

#include "sysc/blocks/clock_edge.h"
#include "sysc/fabric/flit.h"
#include "sysc/blocks/port_bits.h"

namespace hxemu::sysc {

template <class M>
class LinkPorts {
 public:
  LinkPorts(M& m, int ports, int vcs, int flit_bits)
      : m_(m), ports_(ports), vw_(vcs > 1 ? ceil_log2(vcs) : 1),
        vc_mask_((std::uint64_t{1} << vw_) - 1), words_(flit_bits / 32) {}

  void clear_inputs() {
    m_.in_valid_i = 0;
    m_.out_credit_valid_i = 0;
  }

  void set_flit_in(int p, const Flit& f) {
    put_bit(m_.in_valid_i, p, f.valid);
    put_bit(m_.in_head_i, p, f.head);
    put_bit(m_.in_tail_i, p, f.tail);
    put_field(m_.in_vc_i, p * vw_, vc_mask_, f.vc);
    write_words(m_.in_data_i, p * words_, words_, f.data.data());
  }

  void set_credit_in(int p, Credit c) {
    put_bit(m_.out_credit_valid_i, p, c.valid);
    put_field(m_.out_credit_vc_i, p * vw_, vc_mask_, c.vc);
  }

  bool flit_out_valid(int p) const { return bit_at(m_.out_valid_o, p) != 0; }

  bool flit_out(int p, Flit& f) const {
    f.valid = flit_out_valid(p);
    if (!f.valid) return false;
    f.head = bit_at(m_.out_head_o, p) != 0;
    f.tail = bit_at(m_.out_tail_o, p) != 0;
    f.vc = static_cast<std::uint8_t>(field_at(m_.out_vc_o, p * vw_, vc_mask_));
    read_words(m_.out_data_o, p * words_, words_, f.data.data());
    return true;
  }

  std::uint64_t flit_out_bits() const { return get_bits(m_.out_valid_o, 0, ports_); }
  std::uint64_t credit_out_bits() const { return get_bits(m_.in_credit_valid_o, 0, ports_); }

  Credit credit_out(int p) const {
    Credit c;
    c.valid = bit_at(m_.in_credit_valid_o, p) != 0;
    c.vc = static_cast<std::uint8_t>(field_at(m_.in_credit_vc_o, p * vw_, vc_mask_));
    return c;
  }

  // One rising edge (sysc/blocks/clock_edge.h).
  void tick() { clock_edge(m_); }

  static int ceil_log2(int v) {
    int b = 0;
    while ((1 << b) < v) ++b;
    return b;
  }

 private:
  M& m_;
  int ports_;
  int vw_;
  std::uint64_t vc_mask_;   // vw_ low bits
  int words_;
};

}  // namespace hxemu::sysc
