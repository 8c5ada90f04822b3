// The board router (rtl/router/hx_board_router.sv) as a LinkBlock, and its run-time setup.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sysc/blocks/model_variant.h"
#include "sysc/fabric/link_block.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/vc_plan.h"

namespace hxemu::sysc {

enum class RouteMode : int { kHammingMesh = 0, kTorus = 1 };

// Adaptive divert margin when a configuration does not set router.adaptive_margin: a whole class's
// buffering, so a head never diverts on arrival and only takes its other minimal port at the front
// of its VC when its own has no free VC with a credit (docs/adaptive-routing.md has the
// measurements that chose it).
constexpr int kDefaultAdaptiveMarginEighths = 8;
// On the torus, whose routers choose on arrival only: half a class's buffering.
constexpr int kDefaultTorusAdaptiveMarginEighths = 4;

// Everything the RTL takes as inputs held constant after reset (one model serves every router).
struct RouterSetup {
  RouteMode mode = RouteMode::kHammingMesh;
  bool adaptive = false;              // minimal adaptive (docs/adaptive-routing.md)
  int margin_eighths = kDefaultAdaptiveMarginEighths;  // adaptive divert margin, eighths of buffering
  int grid_row = 0, grid_col = 0;     // board position in the grid
  int local_row = 0, local_col = 0;   // position inside the board
  int grid_rows = 1, grid_cols = 1;   // x, y
  int board_rows = 1, board_cols = 1; // a, b
  VcPlan vc;                          // VC classes, lanes and policy
  std::array<int, kMaxRouterPorts> out_depth{};  // buffer depth per VC behind each output
};

class BoardRouterBlock : public LinkBlock {
 public:
  // Applies the setup and holds reset for two cycles.
  virtual void reset(const RouterSetup& setup) = 0;
  // Buffer slots per VC the model was built with (the largest depth a neighbour may advertise).
  virtual int buffer_slots() const = 0;
  // Built with DOR_ONLY=1 (hx_board_router.sv): deterministic HammingMesh / mesh routing only, no
  // link-failure inputs. reset() refuses another setup, set_port_down() / set_edges_down() throw.
  virtual bool dor_only() const { return false; }
};

// The board-router variants this build provides (dor_board_router_variants: the DOR-only ones).
std::vector<ModelVariant> board_router_variants();
std::vector<ModelVariant> dor_board_router_variants();

// A board router with `local_ports` NIC ports (4 + local_ports ports in all), `vcs` VCs and
// `flit_bits` payload bits, and at least `min_slots` buffer slots per VC: the built variant with the
// fewest slots that holds them (0: the variant with the most slots). Throws std::invalid_argument
// naming the variants that exist when there is none. `dor_only`: the DOR-only variant of that
// shape when the build has one (cmake/HxVariants.cmake, HX_DOR_ROUTERS), else the general one.
std::unique_ptr<BoardRouterBlock> make_board_router(int vcs, int flit_bits, int local_ports = 1,
                                                    int min_slots = 0, bool dor_only = false);

}  // namespace hxemu::sysc
