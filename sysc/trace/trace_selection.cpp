#include "sysc/trace/trace_selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <stdexcept>

#include "sysc/blocks/board_router.h"
#include "sysc/blocks/nic.h"
#include "sysc/blocks/switch_block.h"
#include "sysc/host/nic_node.h"
#include "sysc/trace/traced_registry.h"

namespace hxemu::sysc {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool matches(const std::string& pattern, const std::string& name) {
  return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

// A few names of each kind, for an error message: the first two routers, switches and NICs.
std::string example_names(const std::vector<TraceCandidate>& all) {
  std::string out;
  int shown[3] = {0, 0, 0};
  for (const auto& c : all) {
    const int k = c.variant.kind == "board_router" ? 0 : c.variant.kind == "switch" ? 1 : 2;
    if (shown[k]++ >= 2) continue;
    out += (out.empty() ? "" : ", ") + c.name;
  }
  return out.empty() ? "(this system has no verilated block)" : out + ", ...";
}

std::string variant_text(const ModelVariant& v) {
  return v.kind + " ports=" + std::to_string(v.ports) + " vcs=" + std::to_string(v.vcs) + " flit_bits=" +
         std::to_string(v.flit_bits) + " buffer_slots=" + std::to_string(v.buffer_slots);
}

// The untraced variant's build name (for the CMake option that would add its traced copy).
std::string build_name(const ModelVariant& v) {
  const auto all = v.kind == "board_router" ? board_router_variants()
                   : v.kind == "switch"     ? switch_variants()
                                            : nic_variants();
  for (const auto& b : all) {
    if (b.ports == v.ports && b.vcs == v.vcs && b.flit_bits == v.flit_bits && b.buffer_slots == v.buffer_slots) {
      return b.name;
    }
  }
  return variant_text(v);
}

bool has_traced_copy(const ModelVariant& v) {
  for (const auto& t : traced_variants()) {
    if (t.kind == v.kind && t.ports == v.ports && t.vcs == v.vcs && t.flit_bits == v.flit_bits &&
        t.buffer_slots == v.buffer_slots) {
      return true;
    }
  }
  return false;
}

std::string traced_names() {
  std::string out;
  for (const auto& t : traced_variants()) out += (out.empty() ? "" : ", ") + t.name;
  return out.empty() ? "none" : out;
}

// "board0.router5" -> "board0 router5": Verilator nests a model's scope at its spaces.
std::string scope_of(const std::string& name) {
  std::string s = name;
  std::replace(s.begin(), s.end(), '.', ' ');
  return s;
}

}  // namespace

std::string trace_name(const System& sys, int block) {
  const std::string& own = sys.net().block_name(block);
  const int p = sys.partition_of_block(block);
  if (p < 0) return own;
  const std::string& part = sys.partitions()[p].name;
  if (own == part || starts_with(own, part + ".")) return own;
  return part + "." + own;
}

std::vector<TraceCandidate> trace_candidates(const System& sys) {
  std::vector<TraceCandidate> out;
  const Network& net = sys.net();
  for (int b = 0; b < net.blocks(); ++b) {
    const LinkBlock& blk = net.block(b);
    ModelVariant v;
    if (const auto* r = dynamic_cast<const BoardRouterBlock*>(&blk)) {
      v = {"board_router", r->ports(), r->vcs(), r->flit_bits(), r->buffer_slots(), ""};
    } else if (const auto* s = dynamic_cast<const SwitchBlock*>(&blk)) {
      v = {"switch", s->ports(), s->vcs(), s->flit_bits(), s->buffer_slots(), ""};
    } else if (const auto* n = dynamic_cast<const NicNode*>(&blk)) {
      const NicBlock& nic = n->nic();
      v = {"nic", 1, nic.vcs(), nic.flit_bits(), nic.buffer_slots(), ""};
    } else {
      continue;   // a testbench endpoint, a host program, a ghost of another process's block
    }
    out.push_back({b, trace_name(sys, b), v});
  }
  return out;
}

std::vector<TraceCandidate> select_traced_blocks(const System& sys, const TraceRequest& req) {
  if (sys.ranks() > 1) {
    throw std::invalid_argument("--trace writes one file from one process; this run has " +
                                std::to_string(sys.ranks()) + " MPI ranks (run it without mpirun)");
  }
  const auto all = trace_candidates(sys);
  std::vector<bool> chosen(all.size(), false);
  for (const std::string& pattern : req.patterns) {
    bool any = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::string& own = sys.net().block_name(all[i].block);
      if (matches(pattern, all[i].name) || matches(pattern, own)) chosen[i] = any = true;
    }
    if (!any) {
      throw std::invalid_argument("--trace-blocks '" + pattern + "' names no verilated block of " +
                                  sys.config().name + "; block names look like " + example_names(all) +
                                  " (docs/waveforms.md)");
    }
  }
  std::vector<TraceCandidate> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!chosen[i]) continue;
    if (!has_traced_copy(all[i].variant)) {
      throw std::invalid_argument("--trace-blocks: " + all[i].name + " runs model variant " +
                                  build_name(all[i].variant) + ", and this build has no traced copy of it "
                                  "(traced copies: " + traced_names() + "); configure with "
                                  "-DHX_TRACE_VARIANTS='" + build_name(all[i].variant) +
                                  ";...' or ALL (docs/waveforms.md)");
    }
    out.push_back(all[i]);
  }
  return out;
}

std::vector<TracedBlockRef> install_traced_blocks(System& sys, const std::vector<TraceCandidate>& chosen) {
  Network& net = sys.net();
  if (net.now() != 0) throw std::logic_error("install_traced_blocks: the system has already stepped");
  std::vector<TracedBlockRef> out;
  for (const auto& c : chosen) {
    const std::string scope = scope_of(c.name);
    TraceTarget* target = nullptr;
    if (c.variant.kind == "board_router") {
      auto t = make_traced_board_router(c.variant, scope);
      if (!t.block) throw std::logic_error("no traced copy of " + variant_text(c.variant));
      t.block->reset(sys.router_setup(c.block));
      target = t.target;
      net.replace_block(c.block, std::move(t.block));
    } else if (c.variant.kind == "switch") {
      auto t = make_traced_switch(c.variant, scope);
      if (!t.block) throw std::logic_error("no traced copy of " + variant_text(c.variant));
      t.block->reset(sys.switch_setup(c.block));
      target = t.target;
      net.replace_block(c.block, std::move(t.block));
    } else {
      auto& node = dynamic_cast<NicNode&>(net.block(c.block));
      auto t = make_traced_nic(c.variant, scope);
      if (!t.block) throw std::logic_error("no traced copy of " + variant_text(c.variant));
      t.block->reset(node.nic().setup());
      target = t.target;
      node.replace_nic(std::move(t.block), true);
    }
    out.push_back({c.name, target});
  }
  return out;
}

}  // namespace hxemu::sysc
