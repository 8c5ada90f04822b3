// Probe driver, not part of the build (docs/experiments/board-model/README.md): uniform random
// 4-flit packets at load L (argv[2]) for argv[1] cycles on the 8 x 8 board model, one eval per
// cycle; each local port takes its flits back at once and returns their credits the next cycle.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <vector>
#include "Vhx_board_probe.h"
#include "Vhx_board_probe___024root.h"
#include "verilated.h"
extern "C" void hx_rtl_assert_failed(const char* m) { std::fprintf(stderr, "ASSERT %s\n", m); std::abort(); }
static void edge(Vhx_board_probe& m) { m.clk_i = 1; m.eval(); m.clk_i = 0; m.rootp->__Vtrigrprev__TOP__clk_i = 0; }
int main(int argc, char** argv) {
  const int R = 8, C = 8, N = R * C, WW = 8, D = 8, PF = 4;
  long cycles = argc > 1 ? atol(argv[1]) : 20000; double load = argc > 2 ? atof(argv[2]) : 0.3;
  VerilatedContext ctx; Vhx_board_probe m(&ctx);
  m.dims_i = 1u | (1u << 8) | (8u << 16) | (8u << 24);
  m.vc_class_i = 0; m.class_vcs_i = 0x3; m.vc_allow_i = 0xf;
  m.rst_i = 1; edge(m); edge(m); m.rst_i = 0;
  std::mt19937_64 rng(1); std::uniform_real_distribution<double> u(0, 1);
  struct Src { std::vector<int> q; size_t head = 0; int k = -1; int vc = 0; int dst = 0; int credits[2] = {D, D}; uint32_t seq = 0; };
  std::vector<Src> s(N); std::vector<int> eject_vc(N, -1);
  long injected = 0, ejected = 0, lat_sum = 0; uint64_t csum = 0;
  for (long t = 0; t < cycles; ++t) {
    m.t_in_valid_i = 0; m.t_in_head_i = 0; m.t_in_tail_i = 0; m.t_in_vc_i = 0;
    m.t_out_credit_valid_i = 0; m.t_out_credit_vc_i = 0;
    for (int n = 0; n < N; ++n) {
      Src& x = s[n];
      if (u(rng) < load / PF) { int d = int(rng() % N); x.q.push_back(d); }
      if (eject_vc[n] >= 0) { m.t_out_credit_valid_i |= 1ull << n; m.t_out_credit_vc_i |= uint64_t(eject_vc[n]) << n; eject_vc[n] = -1; }
      if (x.k < 0 && x.head < x.q.size()) { x.k = 0; x.dst = x.q[x.head++]; x.vc ^= 1; if (x.head > 1024) { x.q.erase(x.q.begin(), x.q.begin() + x.head); x.head = 0; } }
      if (x.k >= 0 && x.credits[x.vc] > 0) {
        x.credits[x.vc]--;
        m.t_in_valid_i |= 1ull << n;
        if (x.k == 0) m.t_in_head_i |= 1ull << n;
        if (x.k == PF - 1) m.t_in_tail_i |= 1ull << n;
        m.t_in_vc_i |= uint64_t(x.vc) << n;
        uint32_t* w = &m.t_in_data_i[n * WW];
        w[0] = uint32_t(x.dst) | (uint32_t(n) << 16);
        w[1] = uint32_t(x.dst / C) << 16 | uint32_t(x.dst % C) << 24;
        for (int i = 2; i < WW; ++i) w[i] = uint32_t(t * 31 + i + n);
        w[2] = uint32_t(t);
        if (++x.k == PF) { x.k = -1; ++injected; }
      }
    }
    edge(m);
    for (int n = 0; n < N; ++n) {
      if (m.t_in_credit_valid_o >> n & 1) s[n].credits[(m.t_in_credit_vc_o >> n) & 1]++;
      if (m.t_out_valid_o >> n & 1) {
        const uint32_t* w = &m.t_out_data_o[n * WW];
        eject_vc[n] = int((m.t_out_vc_o >> n) & 1);
        if (m.t_out_head_o >> n & 1) { if ((w[0] & 0xffff) != uint32_t(n)) { std::fprintf(stderr, "misrouted\n"); return 1; } lat_sum += long(t) - long(w[2]); }
        if (m.t_out_tail_o >> n & 1) ++ejected;
        csum += w[3];
      }
    }
  }
  std::printf("cycles %ld injected %ld ejected %ld mean head latency %.2f csum %llu\n", cycles, injected, ejected,
              ejected ? double(lat_sum) / ejected : 0.0, (unsigned long long)csum);
}
