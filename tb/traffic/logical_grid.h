// LogicalGrid: the nodes of a system laid out as a rows x cols grid, the frame in which the
// classic synthetic patterns are defined: the system's global accelerator grid
// (sysc::System::global_rows/cols), with a row-major index.
#pragma once

#include <vector>

#include "sysc/system/system.h"

namespace hxemu::tb {

class LogicalGrid {
 public:
  explicit LogicalGrid(const sysc::System& sys);
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int nodes() const { return rows_ * cols_; }
  // Row-major logical index <-> node id.
  int index_of(int node) const { return index_of_node_[node]; }
  int node_at(int index) const { return node_at_index_[index]; }
  int node_at(int row, int col) const { return node_at_index_[row * cols_ + col]; }
  int row_of(int node) const { return index_of(node) / cols_; }
  int col_of(int node) const { return index_of(node) % cols_; }

 private:
  int rows_ = 1, cols_ = 1;
  std::vector<int> index_of_node_, node_at_index_;
};

}  // namespace hxemu::tb
