// hx_port_load against a C++ reference, at the smallest (4 ports, 2 VCs), a middle (8, 6) and the
// largest (16, 12) switch shape the product builds. For random ready-VC vectors, free credits,
// buffer depths and class maps, every (port, class) entry of both tables is compared:
//   free = the VCs of the class that are ready,
//   occ  = sum over the class's VCs of (depth of the port - free credits of the VC), 13 bits.
// With an enable off its table must read zero whatever the inputs (a switch whose role does not
// use a table must not pay for it, and a route computer must never see a stale one).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "Vhx_port_load_p16_v12.h"
#include "Vhx_port_load_p4_v2.h"
#include "Vhx_port_load_p8_v6.h"
#include "sysc/blocks/port_bits.h"
#include "sysc/blocks/verilated_context.h"

namespace {

using hxemu::sysc::get_bits;
using hxemu::sysc::set_bits;

constexpr int kFreeBits = 5;
constexpr int kOccBits = 13;
constexpr int kClasses = 4;

struct Inputs {
  std::vector<int> ready;     // [p * V + v] 0/1
  std::vector<int> credits;   // [p * V + v] 0..depth
  std::vector<int> depth;     // [p]
  std::vector<int> class_of;  // [c * V + v] 0/1
};

Inputs random_inputs(int P, int V, std::mt19937_64& rng) {
  Inputs in;
  std::uniform_int_distribution<int> bit(0, 1), depth(1, 255);
  for (int p = 0; p < P; ++p) in.depth.push_back(depth(rng));
  for (int p = 0; p < P; ++p) {
    for (int v = 0; v < V; ++v) {
      in.ready.push_back(bit(rng));
      in.credits.push_back(std::uniform_int_distribution<int>(0, in.depth[p])(rng));
    }
  }
  // Classes are disjoint VC sets in the product, but the block must not rely on it: any map.
  for (int c = 0; c < kClasses; ++c) {
    for (int v = 0; v < V; ++v) in.class_of.push_back(bit(rng));
  }
  return in;
}

template <class M>
void apply(M& m, int P, int V, const Inputs& in, bool free_en, bool occ_en) {
  m.free_en_i = free_en;
  m.occ_en_i = occ_en;
  for (int i = 0; i < P * V; ++i) {
    set_bits(m.ready_vcs_i, i, 1, static_cast<std::uint64_t>(in.ready[i]));
    set_bits(m.credits_i, i * 8, 8, static_cast<std::uint64_t>(in.credits[i]));
  }
  for (int p = 0; p < P; ++p) set_bits(m.depths_i, p * 8, 8, static_cast<std::uint64_t>(in.depth[p]));
  for (int i = 0; i < kClasses * V; ++i) {
    set_bits(m.class_vcs_i, i, 1, static_cast<std::uint64_t>(in.class_of[i]));
  }
  m.eval();
}

// void: gtest's ASSERT_* return from the function on the first mismatch.
template <class M>
void check_shape(int P, int V, int rounds) {
  hxemu::sysc::verilated_context();
  M m;
  std::mt19937_64 rng(0x5eed0000u + static_cast<unsigned>(P * 100 + V));
  int entries = 0, nonzero_free = 0, nonzero_occ = 0;
  for (int r = 0; r < rounds; ++r) {
    const Inputs in = random_inputs(P, V, rng);
    apply(m, P, V, in, true, true);
    for (int p = 0; p < P; ++p) {
      for (int c = 0; c < kClasses; ++c) {
        int free = 0, occ = 0;
        for (int v = 0; v < V; ++v) {
          if (!in.class_of[c * V + v]) continue;
          free += in.ready[p * V + v];
          occ += in.depth[p] - in.credits[p * V + v];
        }
        const int e = p * kClasses + c;
        ASSERT_EQ(get_bits(m.free_o, e * kFreeBits, kFreeBits), static_cast<std::uint64_t>(free))
            << "P=" << P << " V=" << V << " round " << r << " port " << p << " class " << c;
        ASSERT_EQ(get_bits(m.occ_o, e * kOccBits, kOccBits),
                  static_cast<std::uint64_t>(occ) & ((1u << kOccBits) - 1))
            << "P=" << P << " V=" << V << " round " << r << " port " << p << " class " << c;
        ++entries;
        nonzero_free += free != 0;
        nonzero_occ += occ != 0;
      }
    }
    // Each enable alone: the other table is zero, this one unchanged.
    for (int which = 0; which < 3; ++which) {
      const bool free_en = which == 1, occ_en = which == 2;
      apply(m, P, V, in, free_en, occ_en);
      for (int e = 0; e < P * kClasses; ++e) {
        if (!free_en) ASSERT_EQ(get_bits(m.free_o, e * kFreeBits, kFreeBits), 0u) << "free_en off, entry " << e;
        if (!occ_en) ASSERT_EQ(get_bits(m.occ_o, e * kOccBits, kOccBits), 0u) << "occ_en off, entry " << e;
      }
    }
  }
  // The random inputs did exercise the sums (not a comparison of zeros): with 2 VCs a class has a
  // ready VC in about 44% of the entries, with more VCs in most.
  EXPECT_EQ(entries, rounds * P * kClasses);
  EXPECT_GT(nonzero_free, entries / 4);
  EXPECT_GT(nonzero_occ, entries / 4);
}

TEST(PortLoad, FourPortsTwoVcsMatchTheReference) { check_shape<Vhx_port_load_p4_v2>(4, 2, 200); }
TEST(PortLoad, EightPortsSixVcsMatchTheReference) { check_shape<Vhx_port_load_p8_v6>(8, 6, 200); }
TEST(PortLoad, SixteenPortsTwelveVcsMatchTheReference) { check_shape<Vhx_port_load_p16_v12>(16, 12, 200); }

}  // namespace
