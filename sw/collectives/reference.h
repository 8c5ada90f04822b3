// Real data for collectives and its check: seeded inputs written into every member's host memory
// before a collective, and a bit-exact comparison of every result element with a reference
// computed in C++ afterwards.
//
// int32 elements are sums of values in [-32768, 32767] (exact). float32 elements are multiples of
// 1/16 in [-128, 128), so every partial sum of up to 2^16 of them is exactly representable and
// the result is bit-exact whatever order an algorithm reduces in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sw/runtime/program.h"
#include "sysc/host/host_memory.h"

namespace hxemu::sw {

struct DataSpec {
  CollectiveOp op = CollectiveOp::kAllreduce;
  DataType type = DataType::kInt32;
  std::uint64_t count = 0;
  std::uint64_t seed = 1;
  int root = 0;                   // broadcast root rank
};

// Where alltoall puts the piece from rank s at rank r: scratch + s * stride elements, stride =
// ceil(count / n) (pieces are blk[r] long, which differ by at most one element between ranks).
std::uint32_t alltoall_stride_bytes(std::uint64_t count, int n);

// Input element i of `node`, as raw 32 bits (int32 or float32 per d.type).
std::uint32_t input_word(const DataSpec& d, int node, std::uint64_t i);

void write_inputs(sysc::HostMemory& mem, const BufferLayout& l, const DataSpec& d,
                  const Communicator& c, int rank);

struct CheckResult {
  std::uint64_t checked = 0;
  std::uint64_t wrong = 0;
  std::string first_wrong;        // where the first wrong element is, with expected and actual
};
// Under mpirun each rank checks the nodes it steps: adds up every rank's counts, and takes the
// lowest rank's first wrong element. Call from every rank (nothing to do in one process).
void merge_ranks(CheckResult& r);
// What every member of a reducing op (allreduce, reduce-scatter) must hold: element i is the sum
// of every member's input element i. Empty for the other ops. Computed once per communicator and
// shared by every member's check: n x count input elements, where summing them again for each
// member costs n^2 x count (a 1,024-node 8 KiB allreduce: 2 G, a third of the whole run).
std::vector<std::uint32_t> reduced_reference(const DataSpec& d, const Communicator& c);
// Adds the check of `rank`'s result to `r`. `reduced`: reduced_reference(d, c) (std::invalid_argument
// if a reducing op's has another length).
void check_result(const sysc::HostMemory& mem, const BufferLayout& l, const DataSpec& d,
                  const Communicator& c, int rank, const std::vector<std::uint32_t>& reduced,
                  CheckResult& r);

}  // namespace hxemu::sw
