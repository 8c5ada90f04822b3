#include "sw/collectives/libra_estimate.h"

#include <stdexcept>

namespace hxemu::sw {

LibraEstimate libra_estimate(const sysc::SystemConfig& cfg, CollectiveOp op, std::uint64_t bytes) {
  if (cfg.topology != sysc::Topology::kMultidim) {
    throw std::invalid_argument("LIBRA's estimate needs a multidim configuration");
  }
  if (op == CollectiveOp::kBroadcast || op == CollectiveOp::kSendRecv) {
    throw std::invalid_argument(std::string("LIBRA's model has no load for ") + op_name(op));
  }
  LibraEstimate e;
  const double flit_bytes = cfg.flit_bits / 8.0;
  double m = static_cast<double>(bytes);
  for (std::size_t d = 0; d < cfg.md_dims.size(); ++d) {
    const auto& dim = cfg.md_dims[d];
    const double share = static_cast<double>(dim.size - 1) / dim.size;
    DimEstimate de;
    de.name = dim.name;
    if (op == CollectiveOp::kAlltoall) {
      de.load_bytes = static_cast<double>(bytes) * share;
    } else {
      de.load_bytes = (op == CollectiveOp::kAllreduce ? 2.0 : 1.0) * m * share;
      m /= dim.size;   // what the next dimension works on
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
