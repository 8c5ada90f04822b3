// Narrow-payload driver, not part of the build (docs/experiments/narrow-payload/README.md): one
// DOR-only board router (1 local port, 2 VCs, 8 slots: the variant mesh-8x8 runs) at (3, 3) of an
// 8 x 8 board, built with a W-bit payload (-DWB=W). Every input port offers uniform random 4-flit
// packets at load L (argv[2]) for argv[1] cycles, as far as its credits allow; every output takes
// each flit at once and returns its credit the next cycle. One eval per cycle (the clock edge of
// sysc/blocks/clock_edge.h). The fingerprint line (flits out, a sum of payload word 0) must be the
// same at every W: the payload width changes nothing the router decides.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "Vr.h"
#include "Vr___024root.h"
#include "verilated.h"

#ifndef WB
#error "build with -DWB=<payload bits>"
#endif

extern "C" void hx_rtl_assert_failed(const char* m) {
  std::fprintf(stderr, "ASSERT %s\n", m);
  std::abort();
}

static void edge(Vr& m) {
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.rootp->__Vtrigrprev__TOP__clk_i = 0;
}

int main(int argc, char** argv) {
  constexpr int P = 5, V = 2, D = 8, PF = 4, WW = WB / 32;
  const long cycles = argc > 1 ? std::atol(argv[1]) : 200000;
  const double load = argc > 2 ? std::atof(argv[2]) : 0.3;
  VerilatedContext ctx;
  Vr m(&ctx);
  m.pos_i = (3u << 16) | (3u << 24);                     // row 3, column 3 inside the board
  m.dims_i = 1u | (1u << 8) | (8u << 16) | (8u << 24);   // one 8 x 8 board
  m.vc_class_i = 0;                                      // both VCs class 0, either may follow either
  m.class_vcs_i = 0x3;
  m.vc_allow_i = 0xf;
  for (int p = 0; p < P; ++p) m.out_depth_i |= std::uint64_t{D} << (8 * p);
  m.rst_i = 1;
  edge(m);
  edge(m);
  m.rst_i = 0;

  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> coin(0, 1);
  int left[P] = {}, vc[P] = {}, row[P] = {}, col[P] = {}, credits[P][V];
  int credit_back[P];
  for (int p = 0; p < P; ++p) {
    credit_back[p] = -1;
    for (int v = 0; v < V; ++v) credits[p][v] = D;
  }
  std::uint64_t flits_out = 0, sum = 0;
  for (long c = 0; c < cycles; ++c) {
    std::uint32_t valid = 0, head = 0, tail = 0, vcs = 0, cvalid = 0, cvcs = 0;
    for (int p = 0; p < P; ++p) {
      if (credit_back[p] >= 0) {
        cvalid |= 1u << p;
        cvcs |= static_cast<std::uint32_t>(credit_back[p]) << p;
      }
      if (left[p] == 0) {
        if (coin(rng) >= load) continue;
        left[p] = PF;
        vc[p] = static_cast<int>(rng() % V);
        do {
          row[p] = static_cast<int>(rng() % 8);
          col[p] = static_cast<int>(rng() % 8);
        } while (p == 4 && row[p] == 3 && col[p] == 3);   // the local port: not to itself
      }
      if (credits[p][vc[p]] == 0) continue;
      --credits[p][vc[p]];
      valid |= 1u << p;
      if (left[p] == PF) head |= 1u << p;
      if (left[p] == 1) tail |= 1u << p;
      vcs |= static_cast<std::uint32_t>(vc[p]) << p;
      for (int w = 0; w < WW; ++w) m.in_data_i[p * WW + w] = 0;
      m.in_data_i[p * WW] = static_cast<std::uint32_t>(rng());   // word 0: not read by a board router
      if (left[p] == PF) m.in_data_i[p * WW + 1] = (static_cast<std::uint32_t>(row[p]) << 16) |
                                                   (static_cast<std::uint32_t>(col[p]) << 24);
      --left[p];
    }
    m.in_valid_i = valid;
    m.in_head_i = head;
    m.in_tail_i = tail;
    m.in_vc_i = vcs;
    m.out_credit_valid_i = cvalid;
    m.out_credit_vc_i = cvcs;
    edge(m);
    if (m.error_o) {
      std::fprintf(stderr, "credit-protocol error in cycle %ld\n", c);
      return 1;
    }
    for (int p = 0; p < P; ++p) {
      if ((m.in_credit_valid_o >> p) & 1) ++credits[p][(m.in_credit_vc_o >> p) & 1];
      credit_back[p] = -1;
      if ((m.out_valid_o >> p) & 1) {
        ++flits_out;
        sum += m.out_data_o[p * WW];
        credit_back[p] = static_cast<int>((m.out_vc_o >> p) & 1);
      }
    }
  }
  std::printf("W=%d cycles %ld fingerprint %llu %llu\n", WB, cycles, static_cast<unsigned long long>(flits_out),
              static_cast<unsigned long long>(sum));
}
