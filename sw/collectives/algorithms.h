// The collective operations and their algorithms, each a function that builds every node's
// Program (sw/collectives/schedule_builder.h) for one or several concurrent communicators.
//
//   allreduce       ring (one direction), biring (two directions, half the data each),
//                   torus2d (4 rings on S/4: rows then columns for two quarters, columns then rows
//                   for the other two, concurrently), hamiltonian (two edge-disjoint Hamiltonian
//                   cycles, each in both directions, S/4 each), halving-doubling (Rabenseifner,
//                   one instance per rail)
//   reduce-scatter  ring, biring, 2d (columns then rows)
//   allgather       ring, biring, 2d (rows then columns)
//   alltoall        pairwise (one partner at a time), all-at-once (everything posted at once)
//   broadcast       ring (pipelined, both directions), binomial (tree)
//   sendrecv        pipeline (stage i forwards micro-batches to stage i+1)
//
// Results live in the node's data buffer (allreduce: all of it; reduce-scatter: rank r's block r;
// allgather: all blocks; broadcast and sendrecv: all of it), except alltoall, whose result is the
// scratch buffer (block s came from rank s).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/communicator.h"
#include "sw/collectives/schedule_builder.h"

namespace hxemu::sw {

enum class CollectiveOp { kAllreduce, kReduceScatter, kAllgather, kAlltoall, kBroadcast, kSendRecv };

const char* op_name(CollectiveOp op);
// Throws std::invalid_argument listing the operations.
CollectiveOp parse_op(const std::string& name);
// nccl-tests' bus-bandwidth factor for `n` ranks.
double busbw_factor(CollectiveOp op, int n);
const std::vector<std::string>& algorithms(CollectiveOp op);

struct BuildOptions {
  std::uint64_t count = 0;          // elements (4 bytes each) per node buffer
  std::uint32_t chunk_bytes = 0;    // pipelining chunk; 0: automatic
  int rails = 4;                    // NICs per node available
  int root = 0;                     // broadcast root rank
  int micro_batches = 4;            // sendrecv pipeline depth
  int bank = 0;                     // scratch bank (0/1) for the (first) reduction phase: collectives
                                    // that follow each other on the same nodes alternate banks
};

// Builds the schedule of `algo` for every communicator into `b` (programs indexed by node id).
// Throws std::invalid_argument naming the algorithm and why it does not apply.
void build_collective(ScheduleBuilder& b, CollectiveOp op, const std::string& algo,
                      const std::vector<Communicator>& comms, const BuildOptions& opt);

}  // namespace hxemu::sw
