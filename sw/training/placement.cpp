#include "sw/training/placement.h"

#include <functional>
#include <sstream>
#include <stdexcept>

namespace hxemu::sw {

namespace {

struct LogicalDim {
  int size = 1;
  sysc::DimKind kind = sysc::DimKind::kRing;
  int platform_dim = -1;
  long long stride = 1;   // logical-rank stride
};

// A multidim platform's own dimensions, or a grid of `cols` x `rows` accelerators.
std::vector<LogicalDim> logical_dims(const sysc::SystemConfig& cfg, int cols, int rows) {
  std::vector<LogicalDim> out;
  if (cfg.topology == sysc::Topology::kMultidim) {
    for (std::size_t d = 0; d < cfg.md_dims.size(); ++d) {
      out.push_back({cfg.md_dims[d].size, cfg.md_dims[d].kind, static_cast<int>(d), 1});
    }
  } else {
    out.push_back({cols, sysc::DimKind::kRing, -1, 1});
    out.push_back({rows, sysc::DimKind::kRing, -1, 1});
  }
  long long s = 1;
  for (auto& d : out) {
    d.stride = s;
    s *= d.size;
  }
  return out;
}

// The group's factor on each dimension for the logical-rank span [lo, hi) (lo divides hi), or
// an empty list when a factor is not whole (the group would cut a dimension unevenly).
struct Factor {
  int size;
  const LogicalDim* dim;
};
bool split(const std::vector<LogicalDim>& dims, long long lo, long long hi, std::vector<Factor>& out) {
  out.clear();
  if (hi % lo != 0) return false;
  for (const auto& d : dims) {
    const long long a = std::max(lo, d.stride), b = std::min(hi, d.stride * d.size);
    if (b <= a) continue;
    if (b % a != 0 || a % d.stride != 0) return false;
    if ((d.stride * d.size) % b != 0) return false;   // a group must not straddle two of the dimension's rings
    if (b / a > 1) out.push_back({static_cast<int>(b / a), &d});
  }
  return true;
}

std::string allowed_sizes(const std::vector<LogicalDim>& dims, long long lo, long long total) {
  std::string s;
  std::vector<Factor> f;
  for (long long k = 1; lo * k <= total; ++k) {
    if (total % (lo * k) == 0 && split(dims, lo, lo * k, f)) s += (s.empty() ? "" : ", ") + std::to_string(k);
  }
  return s;
}

std::string dims_text(const std::vector<LogicalDim>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i].size);
  return s + "]";
}

}  // namespace

const std::vector<Communicator>& Placement::groups(GroupKind g, int stage, bool backward) const {
  switch (g) {
    case GroupKind::kTensor: return tensor.at(stage);
    case GroupKind::kData: return data.at(stage);
    case GroupKind::kAll: return all.at(stage);
    case GroupKind::kPipeline: return backward ? to_previous.at(stage - 1) : to_next.at(stage);
  }
  throw std::logic_error("unknown group kind");
}

const std::vector<CommDim>& Placement::dims(GroupKind g) const {
  return g == GroupKind::kTensor ? tensor_dims : g == GroupKind::kData ? data_dims : all_dims;
}

std::string Placement::describe() const {
  std::ostringstream os;
  auto shape = [&](const std::vector<Communicator>& gs) {
    if (gs.empty() || gs.front().dims.empty()) return std::string();
    std::string s = " (";
    for (std::size_t i = 0; i < gs.front().dims.size(); ++i) s += (i ? " x " : "") + std::to_string(gs.front().dims[i].size);
    return s + ")";
  };
  os << "tensor " << par.tp << shape(tensor.front()) << " x data " << par.dp << shape(data.front()) << " x pipeline "
     << par.pp << " = " << used << " accelerators";
  return os.str();
}

namespace {

// rank -> node id.
using NodeOf = std::function<int(long long)>;

Placement place_on(const sysc::SystemConfig& cfg, const std::vector<LogicalDim>& dims, long long n,
                   const NodeOf& node_of, const Parallelism& par_in) {
  Placement p;
  p.par = par_in;
  Parallelism& par = p.par;
  if (par.pp < 1 || par.tp < 1 || par.dp < 0) throw std::invalid_argument("parallelism sizes must be positive");
  if (par.kind == "MODEL" && par.tp == 1) par.tp = static_cast<int>(n / par.pp);
  if (par.dp == 0) {
    const long long per = static_cast<long long>(par.tp) * par.pp;
    if (per > n || n % per != 0) {
      throw std::invalid_argument("tensor group " + std::to_string(par.tp) + " x pipeline stages " +
                                  std::to_string(par.pp) + " does not divide the machine's " + std::to_string(n) +
                                  " accelerators (tensor group sizes that split its dimensions " + dims_text(dims) +
                                  ": " + allowed_sizes(dims, 1, n) + ")");
    }
    par.dp = static_cast<int>(n / per);
  }
  const long long tp = par.tp, dp = par.dp, pp = par.pp, per_stage = tp * dp;
  if (per_stage * pp > n) {
    throw std::invalid_argument("tensor " + std::to_string(tp) + " x data " + std::to_string(dp) + " x pipeline " +
                                std::to_string(pp) + " needs " + std::to_string(per_stage * pp) +
                                " accelerators; the machine has " + std::to_string(n));
  }
  std::vector<Factor> ft, fd, fs, fp;
  if (!split(dims, 1, tp, ft)) {
    throw std::invalid_argument("tensor group size (model_parallel_NPU_group) " + std::to_string(tp) +
                                " does not split the machine's dimensions " + dims_text(dims) +
                                " (allowed: " + allowed_sizes(dims, 1, n) + ")");
  }
  if (!split(dims, tp, per_stage, fd)) {
    throw std::invalid_argument("data-parallel group size " + std::to_string(dp) + " (with tensor groups of " +
                                std::to_string(tp) + ") does not split the machine's dimensions " + dims_text(dims) +
                                " (allowed: " + allowed_sizes(dims, tp, n) + ")");
  }
  if (!split(dims, per_stage, per_stage * pp, fp)) {
    throw std::invalid_argument("pipeline stages " + std::to_string(pp) + " (of " + std::to_string(per_stage) +
                                " accelerators each) do not split the machine's dimensions " + dims_text(dims) +
                                " (allowed: " + allowed_sizes(dims, per_stage, n) + ")");
  }
  split(dims, 1, per_stage, fs);
  p.used = static_cast<int>(per_stage * pp);
  const bool md = cfg.topology == sysc::Topology::kMultidim;
  // Members base + j x lo for j < size, with the group's factors as its dimensions.
  auto make = [&](const std::string& name, long long base, long long lo, const std::vector<Factor>& f) {
    Communicator c;
    c.name = name;
    long long size = 1;
    for (const auto& x : f) {
      size *= x.size;
      c.dims.push_back({x.size, x.dim->kind, x.dim->platform_dim});
    }
    for (long long j = 0; j < size; ++j) c.nodes.push_back(node_of(base + j * lo));
    if (md) {
      c.cols = f.empty() ? 1 : f.front().size;
    } else {
      c.cols = 1;
      for (const auto& x : f) {
        if (x.dim == &dims[0]) c.cols = x.size;
      }
    }
    c.rows = static_cast<int>(size / c.cols);
    return c;
  };
  auto comm_dims = [](const std::vector<Factor>& f) {
    std::vector<CommDim> out;
    for (const auto& x : f) out.push_back({x.size, x.dim->platform_dim});
    return out;
  };
  p.tensor_dims = comm_dims(ft);
  p.data_dims = comm_dims(fd);
  p.all_dims = comm_dims(fs);
  for (long long s = 0; s < pp; ++s) {
    const long long base = s * per_stage;
    const std::string st = "s" + std::to_string(s);
    p.tensor.emplace_back();
    p.data.emplace_back();
    p.all.emplace_back();
    if (tp > 1) {
      for (long long r = 0; r < dp; ++r) p.tensor.back().push_back(make("tensor." + st + "." + std::to_string(r), base + r * tp, 1, ft));
    }
    if (dp > 1) {
      for (long long k = 0; k < tp; ++k) p.data.back().push_back(make("data." + st + "." + std::to_string(k), base + k, tp, fd));
    }
    if (per_stage > 1) p.all.back().push_back(make("stage." + st, base, 1, fs));
    if (s + 1 < pp) {
      p.to_next.emplace_back();
      p.to_previous.emplace_back();
      for (long long l = 0; l < per_stage; ++l) {
        Communicator c;
        c.name = "pipe." + st + "." + std::to_string(l);
        c.cols = 2;
        c.nodes = {node_of(base + l), node_of(base + per_stage + l)};
        p.to_next.back().push_back(c);
        std::swap(c.nodes[0], c.nodes[1]);
        p.to_previous.back().push_back(c);
      }
    }
  }
  return p;
}

}  // namespace

Placement place(const sysc::System& sys, const Parallelism& par) {
  const auto& cfg = sys.config();
  const int cols = sys.global_cols();
  return place_on(cfg, logical_dims(cfg, cols, sys.global_rows()), sys.nodes(),
                  [&](long long g) { return sys.node_at_global(static_cast<int>(g / cols), static_cast<int>(g % cols)); },
                  par);
}

Placement place(const sysc::SystemConfig& cfg, const Parallelism& par) {
  if (cfg.topology != sysc::Topology::kMultidim) {
    throw std::invalid_argument("placing a workload from the configuration alone needs a multidim platform");
  }
  return place_on(cfg, logical_dims(cfg, 1, 1), cfg.nodes(), [](long long g) { return static_cast<int>(g); }, par);
}

}  // namespace hxemu::sw
