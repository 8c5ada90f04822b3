// The collective operations and their algorithms, each a function that builds every node's
// Program (sw/collectives/schedule_builder.h) for one or several concurrent communicators.
//
// The algorithms of each operation are listed, with what each one is, in algorithm_table
// (algorithms.cpp); `hxemu collective --help` prints it.
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
// Every operation's name, for messages: "allreduce, reduce-scatter, ...".
std::string op_names();
// nccl-tests' bus-bandwidth factor for `n` ranks.
double busbw_factor(CollectiveOp op, int n);

struct BuildOptions {
  std::uint64_t count = 0;          // elements (4 bytes each) per node buffer
  std::uint32_t chunk_bytes = 0;    // pipelining chunk; 0: automatic
  int rails = 4;                    // NICs per node available
  int root = 0;                     // broadcast root rank
  int micro_batches = 4;            // sendrecv pipeline depth
  int bank = 0;                     // scratch bank (0/1) for the (first) reduction phase: collectives
                                    // that follow each other on the same nodes alternate banks
};

// One algorithm of an operation. algorithm_table(op) is the only list of algorithm names: dispatch
// (build_collective), validation (find_algorithm, suitability), --help text and error messages all
// read it, so a name cannot be accepted by one and unknown to another.
struct Algorithm {
  std::string name;
  std::vector<std::string> aliases;   // other names it answers to (reports use `name`)
  std::string summary;                // what it is, one line
  // Why it cannot run on `c` ("" when it can): a shape the algorithm needs.
  std::string (*unsuitable)(const Communicator& c);
  void (*build)(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt);
};
const std::vector<Algorithm>& algorithm_table(CollectiveOp op);
// The canonical names of algorithm_table(op), in table order.
std::vector<std::string> algorithms(CollectiveOp op);
// "ring, biring, ..., hamiltonian (alias rings), ...": the table as error messages list it.
std::string algorithm_names(CollectiveOp op);
// The entry whose name or alias is `name`. Otherwise throws std::invalid_argument
// "<option> '<name>' is not an algorithm of <op> (allowed: <algorithm_names(op)><also>)".
const Algorithm& find_algorithm(CollectiveOp op, const std::string& name,
                                const std::string& option = "--algo", const std::string& also = "");
// Every operation with its algorithms, one line each (for --help).
std::string algorithms_help();

// Builds the schedule of `algo` (a name or alias) for every communicator into `b` (programs indexed
// by node id). Throws std::invalid_argument naming the algorithm and why it does not apply.
void build_collective(ScheduleBuilder& b, CollectiveOp op, const std::string& algo,
                      const std::vector<Communicator>& comms, const BuildOptions& opt);

}  // namespace hxemu::sw
