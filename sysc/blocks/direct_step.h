// DirectStep<Model>: a verilated block adapter (BoardRouterModel<M>, SwitchModel<M>, NicModel<M>)
// as a final type that steps as itself (Network::step_as<DirectStep<Model>>, in
// sysc/fabric/network_step.h): the harness's calls to its port methods, about fifteen per block
// and cycle, are direct and inlined instead of virtual. The model registry builds every untraced
// model this way (one rule for all its entries). Routers and switches are network blocks and gain
// from it; a NIC model is not: its NicNode is (sysc/host/nic_node.h), which steps as its own type
// and calls the model through NicBlock, so for NICs the wrapper changes nothing. A traced copy
// (sysc/trace/traced_block.h) derives from the adapter itself and steps through LinkBlock.
// Its clock edge calls the model's region functions directly (clock_edge_direct).
#pragma once

#include <cstdint>

#include "sysc/fabric/network_step.h"

namespace hxemu::sysc {

template <class Model>
class DirectStep final : public Model {
 public:
  using Model::Model;
  void step(Network& net, int index, std::uint64_t now) override { net.step_as(*this, index, now); }
  // The edge through the model's region functions where the registry declared them
  // (HX_DIRECT_EVAL, sysc/blocks/clock_edge.h), else the adapter's own.
  void tick() override {
#if !defined(HX_PORTABLE_CLOCK)
    if constexpr (DirectEval<typename Model::Verilated>::kAvailable) {
      this->tick_direct();
      return;
    }
#endif
    Model::tick();
  }
  // A router or switch model talks to the rest of the system through its links alone (a NIC
  // model is stepped by its NicNode, which is not links-only: it shares the node's host memory).
  bool links_only() const override { return true; }
};

}  // namespace hxemu::sysc
