#include "sysc/harness/sc_system.h"

namespace hxemu::sysc {

ScBlockGroup::ScBlockGroup(sc_core::sc_module_name name, System* const* sys,
                           std::vector<int> blocks)
    : sc_core::sc_module(name), clk("clk"), sys_(sys), blocks_(std::move(blocks)) {
  SC_METHOD(on_rising_edge);
  sensitive << clk.pos();
  dont_initialize();
}

void ScBlockGroup::on_rising_edge() {
  Network& net = (*sys_)->net();
  const std::uint64_t now = net.now();
  net.step_blocks(blocks_, now);
}

ScSystem::ScSystem(sc_core::sc_module_name name, System* sys)
    : sc_core::sc_module(name), sys_(sys), clock_("clock", 1, sc_core::SC_NS) {
  for (const auto& p : sys->partitions()) {
    if (p.is_tree) {
      trees_.push_back(std::make_unique<ScTree>(p.name.c_str(), &sys_, p.blocks));
      trees_.back()->clk(clock_);
    } else {
      boards_.push_back(std::make_unique<ScBoard>(p.name.c_str(), &sys_, p.blocks));
      boards_.back()->clk(clock_);
    }
  }
  // Every rising edge steps all blocks at the same cycle number; the falling edge moves it on.
  SC_METHOD(on_falling_edge);
  sensitive << clock_.negedge_event();
  dont_initialize();
}

void ScSystem::rebind(System* sys) { sys_ = sys; }

void ScSystem::on_falling_edge() {
  Network& net = sys_->net();
  net.set_now(net.now() + 1);
}

void ScSystem::run(std::uint64_t cycles) {
  if (cycles == 0) return;
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS));
}

}  // namespace hxemu::sysc
