// GhostBlock: what stands in a rank's Network for a router or switch another rank steps (under
// mpirun every rank builds the whole System, sysc/dist/ranks.h). It has the real block's ports, so
// links and routing tables are the same on every rank, but no model, so a rank's memory is its own
// share of the machine. A ghost is never stepped: the harness steps owned partitions only.
#pragma once

#include "sysc/fabric/link_block.h"

namespace hxemu::sysc {

class GhostBlock final : public LinkBlock {
 public:
  GhostBlock(int ports, int vcs, int flit_bits) : ports_(ports), vcs_(vcs), flit_bits_(flit_bits) {}
  int ports() const override { return ports_; }
  int vcs() const override { return vcs_; }
  int flit_bits() const override { return flit_bits_; }
  void clear_inputs() override {}
  void set_flit_in(int, const Flit&) override {}
  void set_credit_in(int, Credit) override {}
  void tick() override {}
  bool flit_out(int, Flit& f) const override {
    f.valid = false;
    return false;
  }
  Credit credit_out(int) const override { return {}; }
  std::uint64_t flit_out_bits() const override { return 0; }
  std::uint64_t credit_out_bits() const override { return 0; }
  bool idle() const override { return true; }
  bool drained() const override { return true; }
  bool error() const override { return false; }

 private:
  int ports_, vcs_, flit_bits_;
};

}  // namespace hxemu::sysc
