// Ring stages the collective algorithms compose (sw/collectives/algorithms.cpp, hierarchical.cpp):
// the automatic pipelining chunk, and one reduce-scatter or allgather phase over a ring of nodes,
// in one direction or both, after per-node start ops.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule_builder.h"

namespace hxemu::sw {

// Automatic pipelining chunk for segments of up to `max_seg` bytes (opt.chunk_bytes when set).
std::uint32_t auto_chunk(const BuildOptions& opt, std::uint32_t max_seg);
// The longest span's length.
std::uint32_t max_len(const std::vector<Span>& v);
std::vector<int> reversed(std::vector<int> v);
// The start op of each ring position from a node -> op map (-1 where the node has none).
std::vector<int> starts_for(const std::vector<int>& order, const std::map<int, int>& start_of_node);

// One ring phase of RS or AG over `order` where position p ends with (RS) or starts with (AG)
// `owned[p]`; each span is split in halves for the two directions when `both_ways`. RS receives
// into the scratch buffer `bank` bytes past its start. Returns node -> the join of its part.
std::map<int, int> rs_or_ag_ring(ScheduleBuilder& b, bool reduce_scatter, const std::vector<int>& order,
                                 const std::vector<Span>& owned, int rail_fwd, int rail_bwd,
                                 bool both_ways, std::uint32_t bank, const std::map<int, int>& start,
                                 const BuildOptions& opt);

}  // namespace hxemu::sw
