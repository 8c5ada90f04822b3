// Which blocks of a System a waveform covers, by name, and putting their traced copies in place.
//
// A block's trace name is its partition's name and its own, dot-joined -- "board0.router5" (the
// router of node 5, on board 0), "board0.node5.nic2" (that node's NIC on rail 2), "board0.node5"
// (its one NIC, or testbench endpoint, when it has one rail) -- except that a block whose name
// already begins with its partition's (a tree's switches: "rowtree0", "coltree3.leaf1") keeps its
// own. A pattern is a glob (fnmatch: *, ?, [0-3]) matched against the trace name and against the
// block's own name, so 'board0.*' is everything on board 0 and 'router[0-3]' the routers of nodes
// 0 to 3. Only verilated blocks are traced (routers, switches, NICs); testbench endpoints and host
// programs match patterns but have no waveform.
#pragma once

#include <string>
#include <vector>

#include "sysc/blocks/model_variant.h"
#include "sysc/system/system.h"
#include "sysc/trace/trace_request.h"

namespace hxemu::sysc {

class TraceTarget;

std::string trace_name(const System& sys, int block);

// A block a waveform can cover: its id, trace name, and the model variant it runs.
struct TraceCandidate {
  int block = -1;
  std::string name;
  ModelVariant variant;
};
std::vector<TraceCandidate> trace_candidates(const System& sys);

// The candidates any of `req.patterns` names, in block order. Throws std::invalid_argument naming
// the option: a pattern that names no verilated block (with examples of the names there are), a
// block whose variant this build has no traced copy of (naming the variant and the CMake option
// that adds it), or a System stepped by several processes.
std::vector<TraceCandidate> select_traced_blocks(const System& sys, const TraceRequest& req);

// A chosen block with its traced copy in place.
struct TracedBlockRef {
  std::string name;       // trace name, dot-separated: the block's scope in the waveform
  TraceTarget* target = nullptr;
};
// Puts the traced copy of every chosen block in its place, set up as the block was (call before
// the System steps its first cycle).
std::vector<TracedBlockRef> install_traced_blocks(System& sys, const std::vector<TraceCandidate>& chosen);

}  // namespace hxemu::sysc
