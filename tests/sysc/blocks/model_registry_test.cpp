// sysc/blocks/model_registry.cpp.in: make_board_router picks, among the built variants with the asked
// ports, VCs and width, the one with the fewest buffer slots that still holds the asked depth (so a
// configuration with 8-flit buffers does not carry 32), the largest when no depth is given, and
// refuses a depth no variant holds, naming what is built.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sysc/blocks/board_router.h"
#include "sysc/fabric/router_ports.h"

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

}  // namespace
}  // namespace hxemu::sysc
