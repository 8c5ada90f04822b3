// Ring building blocks, chunked and pipelined: the segment a node forwards in step s+1 goes out
// chunk by chunk as soon as that chunk was received and reduced in step s (NCCL-style), so links,
// NICs and reduction engines all stay busy.
//
// A ring is an order of nodes (data flows from position p to p+1, wrapping) on one rail. The
// region it works on is split into one segment per position; `owner[p]` is the segment position p
// ends up holding (reduce-scatter) or starts with (allgather).
#pragma once

#include <cstdint>
#include <vector>

#include "sw/collectives/schedule_builder.h"

namespace hxemu::sw {

struct RingPlan {
  std::vector<int> order;   // node at each position
  int rail = 0;
  std::vector<Span> segments;   // byte spans of the buffers, one per position
  std::vector<int> owner;       // segment index owned by each position
  int chunks = 1;               // chunks per segment (segments split evenly into this many)
};

// Per position and chunk: the op after which that chunk of the position's owned segment is final
// (reduce-scatter) or after which the position has a chunk (allgather); and per position the join
// of everything it did in the phase.
struct RingProgress {
  std::vector<std::vector<int>> chunk_ready;
  std::vector<int> done;
};

// Chunks per segment for a ring whose largest segment has `max_seg_bytes`, given a target chunk.
int chunks_for(std::uint32_t max_seg_bytes, std::uint32_t chunk_bytes);

// Reduce-scatter: partial sums travel the ring, received into the scratch buffer (at `bank`
// bytes past its start) and reduced into the data buffer. `start[p]` (or -1) must finish before
// position p begins.
RingProgress ring_reduce_scatter(ScheduleBuilder& b, const RingPlan& r, std::uint32_t bank,
                                 const std::vector<int>& start);
// Allgather: each position's owned segment travels the ring into the others' data buffers.
// `ready[p][j]` (or -1) is when chunk j of position p's own segment is ready to send.
RingProgress ring_allgather(ScheduleBuilder& b, const RingPlan& r,
                            const std::vector<std::vector<int>>& ready);

}  // namespace hxemu::sw
