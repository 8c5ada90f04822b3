// LIBRA's analytical time of a collective on a multi-dimensional platform (docs/multidim.md; Won
// et al., LIBRA ISPASS'24), the figure hxemu checks cycle-accurately.
//
// Dimensions are taken innermost first. With m the bytes per NPU (the buffer of the collective):
//   reduce-scatter  dimension d carries m_d (n_d - 1) / n_d per NPU, m_0 = m, m_{d+1} = m_d / n_d
//   allgather       the same loads (the reverse order)
//   allreduce       twice the reduce-scatter loads
//   alltoall        m (n_d - 1) / n_d on every dimension
// Bandwidth per NPU of dimension d: its links out of one NPU (Ring 2L, FC (n-1)L, Switch L) x one
// flit per cycle. LIBRA assumes all dimensions fully pipelined, so its time is the largest
// load_d / bw_d.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw {

struct DimEstimate {
  std::string name;
  double load_bytes = 0;           // bytes one NPU sends into the dimension
  double bytes_per_cycle = 0;      // its bandwidth per NPU
  double cycles = 0;               // load / bandwidth
};

struct LibraEstimate {
  std::vector<DimEstimate> dims;
  double cycles = 0;               // the largest dimension time
  int bottleneck = 0;              // the dimension that sets it
};

// Throws std::invalid_argument for a configuration that is not multidim or an operation LIBRA's
// model has no load for (broadcast, sendrecv).
LibraEstimate libra_estimate(const sysc::SystemConfig& cfg, CollectiveOp op, std::uint64_t bytes);

// The same model over a communicator that spans part of the platform: per dimension it takes
// part in (innermost first), the members it has there (`size`, at most the dimension's) and the
// dimension's index on the platform, whose per-NPU bandwidth it uses (LIBRA's communicator files
// give such shapes: [4, 4, -1, -1] is 4 members on dimensions 0 and 1 each).
struct CommDim {
  int size = 1;
  int platform_dim = 0;
};
LibraEstimate libra_estimate(const sysc::SystemConfig& cfg, CollectiveOp op, std::uint64_t bytes,
                             const std::vector<CommDim>& dims);

}  // namespace hxemu::sw
