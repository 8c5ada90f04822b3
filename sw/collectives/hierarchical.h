// Hierarchical collectives over a communicator's network dimensions (Communicator::dims, or its
// grid's columns then rows; LIBRA's model, docs/multidim.md): reduce-scatter along dimension 0,
// then 1, ..., each on the data the previous one left (a 1/n_d share), and allgather back in the
// reverse order.
//
// The buffer's N blocks (rank r's reduce-scatter result is block r) are split into `stripes`
// sub-blocks each; stripe s is a whole hierarchical collective over the s-th sub-block of every
// block, and stripes follow each other through every stage, so that while one stripe crosses an
// outer dimension the next crosses an inner one: all dimensions work at once.
//
// A stage on dimension d runs, for every group (the ranks that differ only in coordinate d) and
// every combination of the coordinates above d, the algorithm that fits the dimension's block:
// a ring in both directions on a Ring and on a Switch, direct sends to every member on a
// FullyConnected group (one link each). Reductions of stage k receive into scratch bank area k
// (hierarchical_banks), so a fast neighbour's next stage never lands on data still being reduced.
#pragma once

#include <cstdint>
#include <string>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/communicator.h"
#include "sw/collectives/schedule_builder.h"

namespace hxemu::sw {

// "" when `c` has dimensions to work along, else why not.
std::string needs_dims(const Communicator& c);

void allreduce_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt);
void reduce_scatter_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt);
void allgather_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt);

// Stripes a hierarchical collective of `count` elements over `ranks` ranks uses by default: up to
// 8, and sub-blocks of at least 256 elements (1 KiB) where the blocks allow. A chunk size
// (BuildOptions::chunk_bytes, --chunk) sets the sub-block size instead (up to 64 stripes).
int hierarchical_stripes(std::uint64_t count, int ranks);
// The scratch banks a hierarchical collective over `dims` needs (a ring stage one, a direct
// stage n-1), and the size each must have for `count` elements over `ranks` ranks.
int hierarchical_banks(const std::vector<Communicator::Dim>& dims);
std::uint64_t hierarchical_bank_bytes(std::uint64_t count, int ranks);

}  // namespace hxemu::sw
