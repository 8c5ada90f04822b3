// LinkPorts<M>: the link-port half of a LinkBlock for any verilated model M whose top has hxemu's
// flat link ports (in_valid_i, in_head_i, ..., out_credit_vc_i; see hx_router_core.sv).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sysc/blocks/clock_edge.h"
#include "sysc/fabric/flit.h"
#include "sysc/blocks/port_bits.h"

namespace hxemu::sysc {

template <class M>
class LinkPorts {
 public:
  LinkPorts(M& m, int ports, int vcs, int flit_bits)
      : m_(m),
        ports_(ports),
        vw_(vcs > 1 ? ceil_log2(vcs) : 1),
        vc_mask_((std::uint64_t{1} << vw_) - 1),
        words_(flit_bits / 32) {}

  void clear_inputs() {
    m_.in_valid_i = 0;
    m_.out_credit_valid_i = 0;
  }

  // (The per-flit accessors below run for every flit and credit of a run, two or three times a
  // router-cycle: single-bit and VC fields with one shift and mask each, the payload as one copy
  // of fixed size for 256-bit flits. The generic slice helpers of port_bits.h cost about twice
  // as many instructions here.)
  void set_flit_in(int p, const Flit& f) {
    put_bit(m_.in_valid_i, p, f.valid);
    put_bit(m_.in_head_i, p, f.head);
    put_bit(m_.in_tail_i, p, f.tail);
    put_field(m_.in_vc_i, p * vw_, vc_mask_, f.vc);
    copy_words(m_.in_data_i.data() + static_cast<std::size_t>(p) * words_, f.data.data(), words_);
  }

  void set_credit_in(int p, Credit c) {
    put_bit(m_.out_credit_valid_i, p, c.valid);
    put_field(m_.out_credit_vc_i, p * vw_, vc_mask_, c.vc);
  }

  bool flit_out_valid(int p) const { return bit_of(m_.out_valid_o, p); }

  bool flit_out(int p, Flit& f) const {
    f.valid = flit_out_valid(p);
    if (!f.valid) return false;
    f.head = bit_of(m_.out_head_o, p);
    f.tail = bit_of(m_.out_tail_o, p);
    f.vc = static_cast<std::uint8_t>(field_of(m_.out_vc_o, p * vw_, vc_mask_));
    copy_words(f.data.data(), m_.out_data_o.data() + static_cast<std::size_t>(p) * words_, words_);
    return true;
  }

  std::uint64_t flit_out_bits() const { return get_bits(m_.out_valid_o, 0, ports_); }
  std::uint64_t credit_out_bits() const { return get_bits(m_.in_credit_valid_o, 0, ports_); }

  Credit credit_out(int p) const {
    Credit c;
    c.valid = bit_of(m_.in_credit_valid_o, p);
    c.vc = static_cast<std::uint8_t>(field_of(m_.in_credit_vc_o, p * vw_, vc_mask_));
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
  // A port of up to 64 bits is an integer; a wider one (a VlWide) takes the generic helpers.
  template <class T>
  static void put_bit(T& port, int p, bool v) {
    if constexpr (std::is_integral_v<T>) {
      const T bit = static_cast<T>(T{1} << p);
      port = static_cast<T>(v ? (port | bit) : (port & static_cast<T>(~bit)));
    } else {
      set_bits(port, p, 1, v ? 1 : 0);
    }
  }
  template <class T>
  static void put_field(T& port, int lsb, std::uint64_t mask, std::uint64_t v) {
    if constexpr (std::is_integral_v<T>) {
      const std::uint64_t word = static_cast<std::uint64_t>(port) & ~(mask << lsb);
      port = static_cast<T>(word | ((v & mask) << lsb));
    } else {
      set_bits(port, lsb, ceil_log2(static_cast<int>(mask) + 1), v);
    }
  }
  template <class T>
  static bool bit_of(const T& port, int p) {
    if constexpr (std::is_integral_v<T>) {
      return (static_cast<std::uint64_t>(port) >> p & 1u) != 0;
    } else {
      return get_bits(port, p, 1) != 0;
    }
  }
  template <class T>
  static std::uint64_t field_of(const T& port, int lsb, std::uint64_t mask) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<std::uint64_t>(port) >> lsb & mask;
    } else {
      return get_bits(port, lsb, ceil_log2(static_cast<int>(mask) + 1));
    }
  }
  // 256-bit flits (every shipped configuration) as a copy of constant size, which the compiler
  // turns into two vector moves; other widths as a copy of `words` words.
  static void copy_words(std::uint32_t* dst, const std::uint32_t* src, int words) {
    if (words == 8) {
      std::memcpy(dst, src, 8 * sizeof(std::uint32_t));
    } else {
      std::memcpy(dst, src, static_cast<std::size_t>(words) * sizeof(std::uint32_t));
    }
  }

  M& m_;
  int ports_;
  int vw_;
  std::uint64_t vc_mask_;
  int words_;
};

}  // namespace hxemu::sysc
