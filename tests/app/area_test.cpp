// hxemu area without Yosys (docs/area.md): the blocks of a design point and their counts against the
// topology's formulas and against what System builds, `--list` on the command line, and bad input
// (exit status 2 naming the problem). The synthesis itself is area_synth_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "run_hxemu.h"
#include "sysc/dist/ghost_block.h"
#include "sysc/system/area_model.h"
#include "sysc/system/system.h"
#include "sysc/system/tree_builder.h"

namespace hxemu::test {
namespace {

using sysc::AreaBlock;
using sysc::AreaPlan;

sysc::SystemConfig load(const std::string& name) { return sysc::load_system_config(config(name)); }

const AreaBlock* find_role(const AreaPlan& p, const std::string& role) {
  for (const auto& b : p.blocks) {
    if (b.role == role) return &b;
  }
  return nullptr;
}

std::map<std::string, int> params_of(const AreaBlock& b) {
  std::map<std::string, int> m;
  for (const auto& [k, v] : b.params) m[k] = v;
  return m;
}

// A one-port stand-in for a NIC: System needs only its port, and `rails` of them per node.
class StubTerminals final : public sysc::TerminalFactory {
 public:
  explicit StubTerminals(int rails) : rails_(rails) {}
  int rails() const override { return rails_; }
  std::unique_ptr<sysc::LinkBlock> make_terminal(const sysc::TerminalSpec& s) override {
    return std::make_unique<sysc::GhostBlock>(1, s.vc.vcs, s.flit_bits);
  }

 private:
  int rails_;
};

// HammingMesh: a router per accelerator; x*a row trees of 2y ports and y*b column trees of 2x
// ports, each as many switches as tree_shape says; a NIC per accelerator and rail.
TEST(AreaPlan, HammingMeshCountsAreTheTopologyFormulas) {
  for (const std::string name : {"hx2mesh-16", "hx2mesh-64"}) {
    SCOPED_TRACE(name);
    const auto c = load(name);
    const AreaPlan p = sysc::area_plan(c, 4);
    const int a = c.board_rows, b = c.board_cols, x = c.grid_rows, y = c.grid_cols, n = c.nodes();
    const long long switches = 1LL * x * a * sysc::tree_shape(2 * y, c.radix, c.up_ports).switches() +
                               1LL * y * b * sysc::tree_shape(2 * x, c.radix, c.up_ports).switches();
    ASSERT_EQ(p.blocks.size(), 3u);
    EXPECT_EQ(p.rails, 4);
    EXPECT_EQ(find_role(p, "board router")->count, n);
    EXPECT_EQ(find_role(p, "tree switch")->count, switches);
    EXPECT_EQ(find_role(p, "NIC")->count, 4LL * n);
  }
  // By hand: hx2mesh-16 has 4 row and 4 column trees of 4 ports on radix-4 switches (one each),
  // hx2mesh-64 8 and 8 of 8 ports on radix 8.
  EXPECT_EQ(find_role(sysc::area_plan(load("hx2mesh-16"), 4), "tree switch")->count, 8);
  EXPECT_EQ(find_role(sysc::area_plan(load("hx2mesh-64"), 4), "tree switch")->count, 16);
}

// The parameters are the configuration's: hx2mesh-64's 1 + 7 + 4 VCs, its edge routers' cable
// depth (the RTL has one depth per router), the board depth at the NICs, 64 nodes.
TEST(AreaPlan, Hx2mesh64ParametersAreTheEmulatedDesignPoint) {
  const AreaPlan p = sysc::area_plan(load("hx2mesh-64"), 4);
  EXPECT_EQ(find_role(p, "board router")->param_text(), "NL=4 V=12 D=32 W=256");
  EXPECT_EQ(find_role(p, "tree switch")->param_text(), "K=8 V=12 D=32 W=256 ROUTES=1");
  EXPECT_EQ(find_role(p, "NIC")->param_text(), "V=12 D=8 W=256 MAXP=32 NODES=64");
  // Synthetic traffic's system: one local port.
  EXPECT_EQ(find_role(sysc::area_plan(load("hx2mesh-64"), 1), "board router")->param_text(), "NL=1 V=12 D=32 W=256");
}

// What System builds, block by block: routers with 4 + NL ports, switches of the plan's radix (an
// NPU router of a multidim platform is a switch block too), a terminal per node and rail.
TEST(AreaPlan, CountsAndPortsMatchWhatSystemBuilds) {
  for (const std::string name : {"hx2mesh-16", "hx2mesh-64", "torus-64", "fattree-64-4plane", "dragonfly-64",
                                 "md-ring4-fc4-sw4"}) {
    for (int rails : {1, 4}) {
      SCOPED_TRACE(name + " rails " + std::to_string(rails));
      const auto c = load(name);
      const AreaPlan p = sysc::area_plan(c, rails);
      StubTerminals t(rails);
      const sysc::System sys(c, t);
      EXPECT_EQ(p.rails, sys.rails());
      std::map<std::string, long long> built;   // role -> blocks
      std::map<std::string, int> ports;         // role -> ports of its blocks
      std::map<std::string, int> routes;        // role -> the route computer its kind uses (ROUTES bit)
      for (int blk = 0; blk < sys.net().blocks(); ++blk) {
        std::string role;
        switch (sys.block_kind(blk)) {
          case sysc::System::BlockKind::kRouter: role = "board router"; break;
          case sysc::System::BlockKind::kTerminal: role = "NIC"; break;
          case sysc::System::BlockKind::kSwitch: {
            const auto kind = sys.switch_setup(blk).kind;
            role = kind == sysc::TreeKind::kMultidim ? "NPU router"
                   : kind == sysc::TreeKind::kDragonfly ? "Dragonfly router"
                                                         : "tree switch";
            routes[role] = kind == sysc::TreeKind::kMultidim ? 4 : kind == sysc::TreeKind::kDragonfly ? 2 : 1;
            break;
          }
        }
        ++built[role];
        ports[role] = sys.net().block(blk).ports();
      }
      std::map<std::string, long long> planned;
      for (const auto& b : p.blocks) {
        planned[b.role] += b.count;
        const auto prm = params_of(b);
        if (b.top == "hx_board_router") {
          EXPECT_EQ(ports[b.role], 4 + prm.at("NL"));
        }
        if (b.top == "hx_switch") {
          EXPECT_EQ(ports[b.role], prm.at("K")) << b.role;
          // Synthesized with only the route computer the blocks of this role use.
          EXPECT_EQ(routes[b.role], prm.at("ROUTES")) << b.role;
        }
        if (b.top != "hx_nic") {
          // The verilated variant holds at least the VCs the plan synthesizes.
          EXPECT_LE(prm.at("V"), sys.vc_plan().vcs);
        }
      }
      EXPECT_EQ(planned, built);
    }
  }
}

TEST(AreaPlan, RailsOutsideOneToFourAreRefused) {
  EXPECT_THROW(sysc::area_plan(load("hx2mesh-16"), 0), std::invalid_argument);
  EXPECT_THROW(sysc::area_plan(load("hx2mesh-16"), 5), std::invalid_argument);
}

// --list needs no Yosys (PATH without it) and reports the plan, in text and JSON.
TEST(AreaCli, ListPrintsBlocksAndCountsWithoutYosys) {
  TempDir dir;
  const std::string json_path = dir.file("a.json");
  const RunResult r = run_hxemu({"area", "--config", config("hx2mesh-64"), "--list", "--json", json_path},
                                {"PATH=/nonexistent"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("NL=4 V=12 D=32 W=256"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json_path));
  ASSERT_EQ(j.at("blocks").size(), 3u);
  EXPECT_EQ(j.at("blocks")[0].at("count"), 64);
  EXPECT_EQ(j.at("blocks")[1].at("count"), 16);
  EXPECT_EQ(j.at("blocks")[2].at("count"), 256);
  EXPECT_EQ(j.at("total").at("blocks"), 336);
  EXPECT_TRUE(j.contains("stamp"));
  EXPECT_FALSE(j.at("blocks")[0].contains("cells"));
}

TEST(AreaCli, MissingYosysIsExitTwoNamingMakeDepsSynth) {
  const RunResult r = run_hxemu({"area", "--config", config("hx2mesh-16")}, {"PATH=/nonexistent"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("yosys is not installed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("make deps-synth"), std::string::npos) << r.err;
}

TEST(AreaCli, BadInputIsExitTwoNamingTheProblem) {
  struct Case {
    std::vector<std::string> args;
    std::string names;
  };
  const std::vector<Case> cases = {
      {{"--set", "router.nonsense=1"}, "router.nonsense"},
      {{"--set", "router.buffer_depth=0"}, "router.buffer_depth"},
      {{"--rails", "5"}, "--rails"},
      {{"--timeout", "-1"}, "--timeout"},
      {{"--rtl", "/nonexistent"}, "--rtl"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"area", "--config", config("hx2mesh-16")};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = run_hxemu(args);
    SCOPED_TRACE(c.names);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("cells x count"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace hxemu::test
