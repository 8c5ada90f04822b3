// sysc/blocks/model_registry.cpp.in: make_board_router picks, among the built variants with the asked
// ports, VCs and width, the one with the fewest buffer slots that still holds the asked depth (so a
// configuration with 8-flit buffers does not carry 32), the largest when no depth is given, and
// refuses a depth no variant holds, naming what is built.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sysc/blocks/board_router.h"
#include "sysc/fabric/router_ports.h"
#include "sysc/system/vc_plan.h"

namespace hxemu::sysc {
namespace {

// Slots of the variants with these ports, VCs and width: smallest that holds `depth` (0: largest).
int expected_slots(const ModelVariant& like, int depth) {
  int best = -1;
  for (const auto& v : board_router_variants()) {
    if (v.ports != like.ports || v.vcs != like.vcs || v.flit_bits != like.flit_bits) continue;
    if (depth > 0 && v.buffer_slots < depth) continue;
    if (best < 0 || (depth > 0 ? v.buffer_slots < best : v.buffer_slots > best)) best = v.buffer_slots;
  }
  return best;
}

TEST(ModelRegistry, BoardRouterIsTheSmallestVariantThatHoldsTheDepth) {
  for (const auto& v : board_router_variants()) {
    const int local = v.ports - kMeshPorts;
    for (int depth : {1, 2, 8, 9, 16, v.buffer_slots}) {
      const int want = expected_slots(v, depth);
      auto r = make_board_router(v.vcs, v.flit_bits, local, depth);
      EXPECT_EQ(r->buffer_slots(), want) << "ports " << v.ports << " vcs " << v.vcs << " depth " << depth;
      EXPECT_GE(r->buffer_slots(), depth);
      EXPECT_EQ(r->vcs(), v.vcs);
      EXPECT_EQ(r->ports(), v.ports);
    }
  }
}

TEST(ModelRegistry, BoardRouterWithoutADepthIsTheLargestVariant) {
  for (const auto& v : board_router_variants()) {
    auto r = make_board_router(v.vcs, v.flit_bits, v.ports - kMeshPorts);
    EXPECT_EQ(r->buffer_slots(), expected_slots(v, 0));
  }
}

TEST(ModelRegistry, BoardRouterDeeperThanAnyVariantIsRefusedWithTheList) {
  const auto v = board_router_variants().front();
  const int too_deep = expected_slots(v, 0) + 1;
  try {
    make_board_router(v.vcs, v.flit_bits, v.ports - kMeshPorts, too_deep);
    FAIL() << "no variant holds " << too_deep << " slots";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("buffer_slots>=" + std::to_string(too_deep)), std::string::npos) << what;
    EXPECT_NE(what.find("buffer_slots=" + std::to_string(too_deep - 1)), std::string::npos) << what;
  }
}

// A DOR-only variant (hx_board_router DOR_ONLY=1) is given when asked for and built, with the slots
// the general choice would have; a shape without one gets the general variant.
TEST(ModelRegistry, DorOnlyRouterWhenBuiltElseTheGeneralOne) {
  ASSERT_FALSE(dor_board_router_variants().empty());
  for (const auto& v : dor_board_router_variants()) {
    const int local = v.ports - kMeshPorts;
    for (int depth : {1, 8, v.buffer_slots}) {
      auto dor = make_board_router(v.vcs, v.flit_bits, local, depth, true);
      auto general = make_board_router(v.vcs, v.flit_bits, local, depth);
      EXPECT_TRUE(dor->dor_only());
      EXPECT_FALSE(general->dor_only());
      EXPECT_EQ(dor->buffer_slots(), general->buffer_slots()) << "vcs " << v.vcs << " depth " << depth;
    }
  }
  for (const auto& v : board_router_variants()) {
    bool has_dor = false;
    for (const auto& d : dor_board_router_variants()) {
      has_dor = has_dor || (d.ports == v.ports && d.vcs == v.vcs && d.flit_bits == v.flit_bits);
    }
    if (!has_dor) EXPECT_FALSE(make_board_router(v.vcs, v.flit_bits, v.ports - kMeshPorts, 0, true)->dor_only());
  }
}

// It has no inputs for other routing or failed links: asked to, it refuses instead of ignoring them.
TEST(ModelRegistry, DorOnlyRouterRefusesOtherRoutingAndLinkFailures) {
  const auto v = dor_board_router_variants().front();
  auto r = make_board_router(v.vcs, v.flit_bits, v.ports - kMeshPorts, 0, true);
  RouterSetup s;
  s.vc = make_vc_plan(v.vcs, 1, v.vcs, VcPolicy::kDynamic);
  s.out_depth.fill(8);
  EXPECT_NO_THROW(r->reset(s));
  EXPECT_THROW(r->set_port_down(0), std::logic_error);
  EXPECT_THROW(r->set_edges_down(1), std::logic_error);
  RouterSetup torus = s;
  torus.mode = RouteMode::kTorus;
  EXPECT_THROW(r->reset(torus), std::logic_error);
  RouterSetup adaptive = s;
  adaptive.adaptive = true;
  EXPECT_THROW(r->reset(adaptive), std::logic_error);
}

}  // namespace
}  // namespace hxemu::sysc
