#include "tb/traffic/logical_grid.h"

#include <cmath>

namespace hxemu::tb {

LogicalGrid::LogicalGrid(const sysc::System& sys) {
  const auto& c = sys.config();
  const int n = sys.nodes();
  index_of_node_.assign(n, 0);
  node_at_index_.assign(n, 0);
  if (c.topology == sysc::Topology::kFatTree) {
    const int k = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (k * k == n) {
      rows_ = cols_ = k;
    } else {
      rows_ = 1;
      cols_ = n;
    }
    for (int i = 0; i < n; ++i) index_of_node_[i] = node_at_index_[i] = i;
    return;
  }
  rows_ = c.grid_rows * c.board_rows;
  cols_ = c.grid_cols * c.board_cols;
  for (int node = 0; node < n; ++node) {
    const auto p = sys.coord(node);
    const int idx = (p.grid_row * c.board_rows + p.local_row) * cols_ + p.grid_col * c.board_cols +
                    p.local_col;
    index_of_node_[node] = idx;
    node_at_index_[idx] = node;
  }
}

}  // namespace hxemu::tb
