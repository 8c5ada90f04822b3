#include "sw/collectives/libra_estimate.h"

#include <stdexcept>

namespace hxemu::sw {

LibraEstimate libra_estimate(const sysc::SystemConfig& cfg, CollectiveOp op, std::uint64_t bytes) {
  std::vector<CommDim> all;
  for (std::size_t d = 0; d < cfg.md_dims.size(); ++d) all.push_back({cfg.md_dims[d].size, static_cast<int>(d)});
  return libra_estimate(cfg, op, bytes, all);
}

LibraEstimate libra_estimate(const sysc::SystemConfig& cfg, CollectiveOp op, std::uint64_t bytes,
                             const std::vector<CommDim>& dims) {
  if (cfg.topology != sysc::Topology::kMultidim) {
    throw std::invalid_argument("LIBRA's estimate needs a multidim configuration");
  }
  if (op == CollectiveOp::kBroadcast || op == CollectiveOp::kSendRecv) {
    throw std::invalid_argument(std::string("LIBRA's model has no load for ") + op_name(op));
  }
  LibraEstimate e;
  const double flit_bytes = cfg.flit_bits / 8.0;
  double m = static_cast<double>(bytes);
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d].platform_dim < 0 || dims[d].platform_dim >= static_cast<int>(cfg.md_dims.size()) || dims[d].size < 1 ||
        dims[d].size > cfg.md_dims[dims[d].platform_dim].size) {
      throw std::invalid_argument("LIBRA's estimate: communicator dimension " + std::to_string(d) +
                                  " is not part of a platform dimension");
    }
    const auto& dim = cfg.md_dims[dims[d].platform_dim];
    const int n = dims[d].size;
    const double share = static_cast<double>(n - 1) / n;
    DimEstimate de;
    de.name = dim.name;
    if (op == CollectiveOp::kAlltoall) {
      de.load_bytes = static_cast<double>(bytes) * share;
    } else {
      de.load_bytes = (op == CollectiveOp::kAllreduce ? 2.0 : 1.0) * m * share;
      m /= n;   // what the next dimension works on
    }
    de.bytes_per_cycle = dim.ports() * flit_bytes;
    de.cycles = de.load_bytes / de.bytes_per_cycle;
    if (de.cycles > e.cycles) {
      e.cycles = de.cycles;
      e.bottleneck = static_cast<int>(d);
    }
    e.dims.push_back(de);
  }
  return e;
}

}  // namespace hxemu::sw
