#include "tb/traffic/logical_grid.h"

namespace hxemu::tb {

LogicalGrid::LogicalGrid(const sysc::System& sys)
    : rows_(sys.global_rows()), cols_(sys.global_cols()) {
  const int n = sys.nodes();
  index_of_node_.assign(n, 0);
  node_at_index_.assign(n, 0);
  for (int node = 0; node < n; ++node) {
    const int idx = sys.global_row(node) * cols_ + sys.global_col(node);
    index_of_node_[node] = idx;
    node_at_index_[idx] = node;
  }
}

}  // namespace hxemu::tb
