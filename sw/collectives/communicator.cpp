#include "sw/collectives/communicator.h"

#include "sysc/util/parse_number.h"

#include <sstream>
#include <stdexcept>

namespace hxemu::sw {

namespace {
Communicator region(const sysc::System& sys, const std::string& name, int r0, int c0, int rows,
                    int cols) {
  Communicator c;
  c.name = name;
  c.rows = rows;
  c.cols = cols;
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < cols; ++k) c.nodes.push_back(sys.node_at_global(r0 + r, c0 + k));
  }
  return c;
}
}  // namespace

std::vector<Communicator> make_groups(const sysc::System& sys, const std::string& spec) {
  const int R = sys.global_rows(), C = sys.global_cols();
  std::vector<Communicator> out;
  if (spec == "all") {
    out.push_back(region(sys, "all", 0, 0, R, C));
  } else if (spec == "rows") {
    for (int r = 0; r < R; ++r) out.push_back(region(sys, "row" + std::to_string(r), r, 0, 1, C));
  } else if (spec == "cols") {
    for (int c = 0; c < C; ++c) out.push_back(region(sys, "col" + std::to_string(c), 0, c, R, 1));
  } else if (spec.rfind("subgrid:", 0) == 0) {
    const auto& cfg = sys.config();
    if (cfg.topology == sysc::Topology::kFatTree || cfg.topology == sysc::Topology::kDragonfly ||
        cfg.topology == sysc::Topology::kMultidim) {
      throw std::invalid_argument("--group " + spec + ": a " +
                                  (cfg.topology == sysc::Topology::kFatTree   ? "fat tree"
                                   : cfg.topology == sysc::Topology::kDragonfly ? "Dragonfly"
                                                                                 : "multidim platform") +
                                  " has no boards (use all, rows, cols)");
    }
    std::vector<int> v;
    std::stringstream ss(spec.substr(8));
    std::string tok;
    while (std::getline(ss, tok, ',')) {
      v.push_back(static_cast<int>(sysc::parse_int(tok).value_or(-1)));
    }
    if (v.size() != 4 || v[0] < 0 || v[1] < 0 || v[2] < 1 || v[3] < 1 ||
        v[0] + v[2] > cfg.grid_rows || v[1] + v[3] > cfg.grid_cols) {
      throw std::invalid_argument(
          "--group " + spec + ": expected subgrid:R0,C0,H,W with boards R0..R0+H-1 in 0.." +
          std::to_string(cfg.grid_rows - 1) + " and C0..C0+W-1 in 0.." +
          std::to_string(cfg.grid_cols - 1));
    }
    out.push_back(region(sys, spec, v[0] * cfg.board_rows, v[1] * cfg.board_cols,
                         v[2] * cfg.board_rows, v[3] * cfg.board_cols));
  } else {
    throw std::invalid_argument("--group '" + spec + "': allowed: all, rows, cols, subgrid:R0,C0,H,W");
  }
  // Dimensions: a multidim platform's own (rows = its innermost dimension's groups, cols = the
  // outer dimensions); elsewhere the grid's columns then rows.
  const auto& cfg = sys.config();
  for (auto& c : out) {
    if (cfg.topology == sysc::Topology::kMultidim) {
      const auto& md = cfg.md_dims;
      const std::size_t from = spec == "cols" ? 1 : 0, to = spec == "rows" ? 1 : md.size();
      for (std::size_t d = from; d < to; ++d) c.dims.push_back({md[d].size, md[d].kind, static_cast<int>(d)});
    } else {
      if (c.cols > 1) c.dims.push_back({c.cols, sysc::DimKind::kRing});
      if (c.rows > 1) c.dims.push_back({c.rows, sysc::DimKind::kRing});
    }
  }
  for (const auto& c : out) {
    if (c.size() < 2) throw std::invalid_argument("--group " + spec + ": communicators need at least 2 nodes");
  }
  return out;
}

}  // namespace hxemu::sw
