// Communicator: the nodes taking part in a collective, in rank order, with a 2D layout for the
// algorithms that use rows and columns (rank = row * cols + col, in the global accelerator grid).
// Groups (make_groups):
//   all                  the whole machine (one communicator)
//   rows                 every global accelerator row is a communicator (they run concurrently)
//   cols                 every global accelerator column
//   subgrid:R0,C0,H,W    the accelerators of the H x W boards whose top-left board is (R0, C0)
#pragma once

#include <string>
#include <vector>

#include "sysc/system/system.h"

namespace hxemu::sw {

struct Communicator {
  std::string name;
  std::vector<int> nodes;   // rank -> node id
  int rows = 1, cols = 1;
  // Network dimensions for the hierarchical algorithms (sw/collectives/hierarchical.h), innermost
  // first: rank = sum of coordinate x stride, stride of dims[0] = 1. A multidim platform's own
  // dimensions; elsewhere the grid's columns then rows, as rings.
  struct Dim {
    int size = 1;
    sysc::DimKind kind = sysc::DimKind::kRing;
    int platform_dim = -1;   // a multidim platform's dimension it lies in (-1: a grid's rows/columns)
  };
  std::vector<Dim> dims;
  int size() const { return static_cast<int>(nodes.size()); }
  int at(int r, int c) const { return nodes[r * cols + c]; }
};

// Throws std::invalid_argument naming the group spec and what is allowed.
std::vector<Communicator> make_groups(const sysc::System& sys, const std::string& spec);

}  // namespace hxemu::sw
