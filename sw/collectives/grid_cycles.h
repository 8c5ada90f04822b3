// Node orders for rings on a communicator's rows x cols grid.
//   snake: row 0 left to right, row 1 right to left, ... (neighbours on the grid except the closing
//          hop);
//   Hamiltonian cycles A and B of the rows x cols torus (rows == cols >= 3), edge-disjoint, so that
//          running each in both directions keeps all four ports of every node busy. On a
//          HammingMesh the torus wrap-around hops go through the row and column trees.
//          A: row r is traversed rightward from column -r (mod k), then one hop down;
//          B: column c is traversed downward from row -c (mod k), then one hop right.
//          A uses every horizontal edge except, in row r, the one between columns -r-1 and -r, and
//          the vertical edge below (r, -r-1); B uses exactly the edges A leaves.
#pragma once

#include <vector>

#include "sw/collectives/communicator.h"

namespace hxemu::sw {

std::vector<int> snake_order(const Communicator& c);
std::vector<int> row_order(const Communicator& c, int row);
std::vector<int> col_order(const Communicator& c, int col);
// Throws std::invalid_argument unless rows == cols >= 3.
std::vector<int> hamiltonian_a(const Communicator& c);
std::vector<int> hamiltonian_b(const Communicator& c);
// True when the two are edge-disjoint Hamiltonian cycles of the rows x cols torus (for tests).
bool edge_disjoint_hamiltonian(const Communicator& c, const std::vector<int>& a, const std::vector<int>& b);

}  // namespace hxemu::sw
