#include "sw/collectives/grid_cycles.h"

#include <set>
#include <stdexcept>
#include <utility>

namespace hxemu::sw {

std::vector<int> snake_order(const Communicator& c) {
  std::vector<int> o;
  for (int r = 0; r < c.rows; ++r) {
    for (int k = 0; k < c.cols; ++k) o.push_back(c.at(r, r % 2 == 0 ? k : c.cols - 1 - k));
  }
  return o;
}

std::vector<int> row_order(const Communicator& c, int row) {
  std::vector<int> o;
  for (int k = 0; k < c.cols; ++k) o.push_back(c.at(row, k));
  return o;
}

std::vector<int> col_order(const Communicator& c, int col) {
  std::vector<int> o;
  for (int r = 0; r < c.rows; ++r) o.push_back(c.at(r, col));
  return o;
}

namespace {
void need_square(const Communicator& c) {
  if (c.rows != c.cols || c.rows < 3) {
    throw std::invalid_argument("the Hamiltonian-cycle algorithm needs a square communicator of at "
                                "least 3x3 nodes, this one is " + std::to_string(c.rows) + "x" +
                                std::to_string(c.cols));
  }
}
int mod(int a, int k) { return ((a % k) + k) % k; }
}  // namespace

std::vector<int> hamiltonian_a(const Communicator& c) {
  need_square(c);
  const int k = c.rows;
  std::vector<int> o;
  for (int r = 0; r < k; ++r) {
    for (int i = 0; i < k; ++i) o.push_back(c.at(r, mod(-r + i, k)));
  }
  return o;
}

std::vector<int> hamiltonian_b(const Communicator& c) {
  need_square(c);
  const int k = c.rows;
  std::vector<int> o;
  for (int col = 0; col < k; ++col) {
    for (int i = 0; i < k; ++i) o.push_back(c.at(mod(-col + i, k), col));
  }
  return o;
}

bool edge_disjoint_hamiltonian(const Communicator& c, const std::vector<int>& a,
                               const std::vector<int>& b) {
  const int n = c.size();
  std::vector<int> row(n), col(n);
  std::vector<int> index_of_node;
  int max_node = 0;
  for (int v : c.nodes) max_node = std::max(max_node, v);
  index_of_node.assign(max_node + 1, -1);
  for (int i = 0; i < n; ++i) {
    index_of_node[c.nodes[i]] = i;
    row[i] = i / c.cols;
    col[i] = i % c.cols;
  }
  auto edges = [&](const std::vector<int>& cyc, std::set<std::pair<int, int>>& out) {
    if (static_cast<int>(cyc.size()) != n) return false;
    std::set<int> seen(cyc.begin(), cyc.end());
    if (static_cast<int>(seen.size()) != n) return false;
    for (int i = 0; i < n; ++i) {
      const int u = index_of_node[cyc[i]], v = index_of_node[cyc[(i + 1) % n]];
      const int dr = mod(row[v] - row[u], c.rows), dc = mod(col[v] - col[u], c.cols);
      const bool torus_edge = (dr == 0 && (dc == 1 || dc == c.cols - 1)) ||
                              (dc == 0 && (dr == 1 || dr == c.rows - 1));
      if (!torus_edge) return false;
      out.insert({std::min(u, v), std::max(u, v)});
    }
    return static_cast<int>(out.size()) == n;
  };
  std::set<std::pair<int, int>> ea, eb;
  if (!edges(a, ea) || !edges(b, eb)) return false;
  for (const auto& e : ea) {
    if (eb.count(e)) return false;
  }
  return true;
}

}  // namespace hxemu::sw
