// The traced copies of model variants this build provides (cmake/HxTraceVariants.cmake,
// HX_TRACE_VARIANTS) and their factories: a block exactly like the untraced variant `v` (same kind,
// ports, VCs, flit width and buffer slots, so it behaves bit for bit the same) that also dumps a
// waveform under `scope`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sysc/blocks/board_router.h"
#include "sysc/blocks/model_variant.h"
#include "sysc/blocks/nic.h"
#include "sysc/blocks/switch_block.h"
#include "sysc/trace/trace_target.h"

namespace hxemu::sysc {

// A traced block: `block` owns it, `target` is the same object as a TraceTarget. Both are null when
// the build has no traced copy of the variant asked for.
template <class Block>
struct TracedMade {
  std::unique_ptr<Block> block;
  TraceTarget* target = nullptr;
};

// The variants with a traced copy (their untraced names, ModelVariant::name).
std::vector<ModelVariant> traced_variants();

TracedMade<BoardRouterBlock> make_traced_board_router(const ModelVariant& v, const std::string& scope);
TracedMade<SwitchBlock> make_traced_switch(const ModelVariant& v, const std::string& scope);
TracedMade<NicBlock> make_traced_nic(const ModelVariant& v, const std::string& scope);

}  // namespace hxemu::sysc
