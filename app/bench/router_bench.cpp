// hxemu-router-bench: one verilated board router of this build, alone, under random traffic -- the
// per-cycle cost of the router model itself, without a system around it.
//
// The router sits in the middle of an 8x8 board (HammingMesh mode, one board: XY routing). Every
// input port receives packets to random destinations on the board (the router's own position
// included, so its NIC ports eject, except for packets from a NIC port): a new packet starts with
// probability --load in a cycle in which the port has none in flight, and its flits go out as the
// router returns credits. Every output is a sink that returns each flit's credit in the next cycle. The run prints
// the wall time per cycle and a fingerprint of everything the router sent (flits per output, a sum
// over their payload words): an optimisation that claims the same behaviour must leave the
// fingerprint unchanged. scripts/router-instructions.sh runs it under valgrind and reports the
// model's instructions per cycle, the figure to compare RTL changes by (wall time on these
// machines is noisy; instruction counts are exact).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <random>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sysc/blocks/board_router.h"
#include "sysc/blocks/verilated_context.h"
#include "sysc/fabric/flit.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/vc_plan.h"

namespace {

using namespace hxemu::sysc;

struct Options {
  int local_ports = 1;
  int vcs = 2;
  int slots = 8;
  int packet_flits = 4;
  double load = 0.5;
  long cycles = 200000;
  std::uint64_t seed = 1;
  bool dor_only = false;
};

// One port's neighbours: the source on its input (the packet in flight, the credits it holds per
// VC) and the sink on its output (the credit it returns next cycle, the flits it took).
struct Port {
  int left = 0;        // flits of the current packet still to send
  int vc = 0;
  int dst_row = 0, dst_col = 0, rail = 0;
  std::vector<int> credits;
  Credit credit_back;
  std::uint64_t out_flits = 0;
};

constexpr int kBoard = 8;   // the board the router sits in: kBoard x kBoard, the router at (3, 3)
constexpr int kRow = 3, kCol = 3;

int run(const Options& o) {
  auto router = make_board_router(o.vcs, 256, o.local_ports, o.slots, o.dor_only);
  const int ports = router->ports();
  const int slots = router->buffer_slots();
  RouterSetup s;
  s.mode = RouteMode::kHammingMesh;
  s.local_row = kRow;
  s.local_col = kCol;
  s.board_rows = kBoard;
  s.board_cols = kBoard;
  s.vc = make_vc_plan(o.vcs, 1, o.vcs, VcPolicy::kDynamic);
  s.out_depth.fill(slots);
  router->reset(s);

  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<Port> port(static_cast<std::size_t>(ports));
  for (auto& x : port) x.credits.assign(static_cast<std::size_t>(o.vcs), slots);
  std::uint64_t in_flits = 0;
  std::uint64_t payload_sum = 0;
  Flit f;
  Flit out;

  const auto t0 = std::chrono::steady_clock::now();
  for (long c = 0; c < o.cycles; ++c) {
    router->clear_inputs();
    for (int p = 0; p < ports; ++p) {
      auto& x = port[static_cast<std::size_t>(p)];
      if (x.credit_back.valid) router->set_credit_in(p, x.credit_back);
      if (x.left == 0) {
        if (coin(rng) >= o.load) continue;
        x.left = o.packet_flits;
        x.vc = static_cast<int>(rng() % static_cast<std::uint64_t>(o.vcs));
        do {
          x.dst_row = static_cast<int>(rng() % kBoard);
          x.dst_col = static_cast<int>(rng() % kBoard);
        } while (is_local_port(p) && x.dst_row == kRow && x.dst_col == kCol);   // a NIC: not to itself
        x.rail = static_cast<int>(rng() % static_cast<std::uint64_t>(o.local_ports));
      }
      auto& credits = x.credits[static_cast<std::size_t>(x.vc)];
      if (credits == 0) continue;
      --credits;
      f = Flit{};
      f.valid = true;
      f.head = x.left == o.packet_flits;
      f.tail = x.left == 1;
      f.vc = static_cast<std::uint8_t>(x.vc);
      set_field(f, hdr::kDstLocalRow, static_cast<std::uint64_t>(x.dst_row));
      set_field(f, hdr::kDstLocalCol, static_cast<std::uint64_t>(x.dst_col));
      set_field(f, hdr::kRail, static_cast<std::uint64_t>(x.rail));
      f.data[7] = static_cast<std::uint32_t>(rng());
      router->set_flit_in(p, f);
      --x.left;
      ++in_flits;
    }
    router->tick();
    if (router->error()) {
      fmt::print(stderr, "hxemu-router-bench: the router flagged a credit-protocol error in cycle {}\n", c);
      return 1;
    }
    for (int p = 0; p < ports; ++p) {
      auto& x = port[static_cast<std::size_t>(p)];
      const Credit cr = router->credit_out(p);
      if (cr.valid) ++x.credits[cr.vc];
      x.credit_back = Credit{};
      if (router->flit_out(p, out)) {
        ++x.out_flits;
        payload_sum += out.data[7];
        x.credit_back = Credit{true, out.vc};
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::uint64_t total_out = 0;
  std::string per_port;
  for (const auto& x : port) {
    per_port += fmt::format("{}{}", per_port.empty() ? "" : " ", x.out_flits);
    total_out += x.out_flits;
  }
  // (--dor-only takes the DOR-only variant where this build has one of the shape, the general
  // router otherwise, as a system does: the line says which one ran.)
  const char* kind = router->dor_only() ? ", DOR-only"
                     : o.dor_only       ? ", general (no DOR-only variant of this shape is built)"
                                        : "";
  fmt::print("router      {} ports, {} VCs, {} slots per VC{} (load {}, {}-flit packets, seed {})\n", ports,
             o.vcs, slots, kind, o.load, o.packet_flits, o.seed);
  fmt::print("cycles      {}\n", o.cycles);
  fmt::print("flits       {} in, {} out ({:.3f} per cycle)\n", in_flits, total_out,
             static_cast<double>(total_out) / static_cast<double>(o.cycles));
  fmt::print("fingerprint out per port [{}], payload sum {}\n", per_port, payload_sum);
  fmt::print("time        {:.3f} s, {:.1f} ns per cycle (including this driver)\n", secs,
             secs / static_cast<double>(o.cycles) * 1e9);
  const auto fired = rtl_assertion_count();
  if (fired != 0) {
    fmt::print(stderr, "hxemu-router-bench: {} RTL assertion(s) fired; the first: {}\n", fired,
               first_rtl_assertion());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"hxemu-router-bench: one board router model of this build alone under random traffic "
               "(time per cycle and a behaviour fingerprint; scripts/router-instructions.sh counts its "
               "instructions)"};
  app.add_option("--local-ports", o.local_ports, "NIC ports of the router (4 + this many ports)")
      ->check(CLI::Range(1, 4));
  app.add_option("--vcs", o.vcs, "VCs per port (a variant this build has)")->check(CLI::Range(1, 16));
  app.add_option("--slots", o.slots, "at least this many buffer slots per VC (the smallest variant that holds them)")
      ->check(CLI::Range(1, 255));
  app.add_option("--packet-flits", o.packet_flits, "flits per packet")->check(CLI::Range(1, 64));
  app.add_option("--load", o.load, "probability that an input without a packet in flight starts one in a cycle")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--cycles", o.cycles, "cycles to run")->check(CLI::Range(1L, 1000000000L));
  app.add_option("--seed", o.seed, "random seed");
  app.add_flag("--dor-only", o.dor_only,
               "the DOR-only variant (DOR_ONLY=1, what deterministic mesh and HammingMesh runs get; built for "
               "the HX_DOR_ROUTERS ports:VCs; the general router for other shapes)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    return run(o);
  } catch (const std::invalid_argument& e) {   // no variant of this build has --vcs / --slots
    fmt::print(stderr, "hxemu-router-bench: {}\n", e.what());
    return 2;
  }
}
