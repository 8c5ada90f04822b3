#include "sw/collectives/algorithms.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sw/collectives/grid_cycles.h"
#include "sw/collectives/hierarchical.h"
#include "sw/collectives/ring_stages.h"
#include "sw/collectives/rings.h"

namespace hxemu::sw {

namespace {

std::vector<int> identity(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

int rail_for(int wanted, const BuildOptions& opt) { return wanted % std::max(1, opt.rails); }

// Rank of each node in a communicator.
std::map<int, int> ranks_of(const Communicator& c) {
  std::map<int, int> r;
  for (int i = 0; i < c.size(); ++i) r[c.nodes[i]] = i;
  return r;
}

// A ring allreduce of `region` (element span) over `order` on `rail`, after `start` (per position;
// empty: none). Returns per position the op after which the region is final at that node.
std::vector<int> ring_allreduce(ScheduleBuilder& b, const std::vector<int>& order, int rail,
                                const Span& region, std::uint32_t bank, const std::vector<int>& start,
                                const BuildOptions& opt) {
  const int n = static_cast<int>(order.size());
  RingPlan r;
  r.order = order;
  r.rail = rail;
  r.segments = split_elems(region.offset / 4, region.len / 4, n);
  r.owner = identity(n);
  r.chunks = chunks_for(max_len(r.segments), auto_chunk(opt, max_len(r.segments)));
  const std::vector<int> st = start.empty() ? std::vector<int>(n, -1) : start;
  const auto rs = ring_reduce_scatter(b, r, bank, st);
  const auto ag = ring_allgather(b, r, rs.chunk_ready);
  std::vector<int> done;
  for (int p = 0; p < n; ++p) done.push_back(b.at(order[p]).join({rs.done[p], ag.done[p]}));
  return done;
}

std::vector<int> ring_order_for(const Communicator& c) {
  if (c.rows == c.cols && c.rows >= 3) return hamiltonian_a(c);
  return snake_order(c);
}

// ---- allreduce ----------------------------------------------------------------------------------

// The scratch bank of the (first) reduction phase, and the other one.
std::uint32_t first_bank(const ScheduleBuilder& b, const BuildOptions& opt) {
  return opt.bank ? b.layout().scratch_bank : 0;
}
std::uint32_t second_bank(const ScheduleBuilder& b, const BuildOptions& opt) {
  return opt.bank ? 0 : b.layout().scratch_bank;
}

// ---- when an algorithm applies (Algorithm::unsuitable) -------------------------------------------

std::string shape(const Communicator& c) { return std::to_string(c.rows) + "x" + std::to_string(c.cols); }

std::string any_shape(const Communicator&) { return ""; }

std::string needs_2d(const Communicator& c) {
  if (c.rows >= 2 && c.cols >= 2) return "";
  return "needs a 2D communicator (rows and columns of at least 2), this one is " + shape(c);
}

std::string needs_square(const Communicator& c) {
  if (c.rows == c.cols && c.rows >= 3) return "";
  return "needs a square communicator of at least 3x3 nodes, this one is " + shape(c);
}

std::string needs_power_of_two(const Communicator& c) {
  const int n = c.size();
  if (n > 0 && (n & (n - 1)) == 0) return "";
  return "needs a power-of-two communicator, this one has " + std::to_string(n) + " nodes";
}

void check_suits(const char* op, const std::string& algo, std::string (*unsuitable)(const Communicator&),
                 const Communicator& c) {
  const std::string why = unsuitable(c);
  if (!why.empty()) throw std::invalid_argument(std::string(op) + " " + algo + " " + why);
}

// ---- allreduce ----------------------------------------------------------------------------------

Span whole(const BuildOptions& opt) { return Span{0, static_cast<std::uint32_t>(opt.count * 4)}; }

void allreduce_ring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  ring_allreduce(b, ring_order_for(c), 0, whole(opt), first_bank(b, opt), {}, opt);
}

void allreduce_biring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  const std::uint32_t bank = first_bank(b, opt);
  const auto halves = split_elems(0, opt.count, 2);
  const auto order = ring_order_for(c);
  ring_allreduce(b, order, rail_for(0, opt), halves[0], bank, {}, opt);
  ring_allreduce(b, reversed(order), rail_for(1, opt), halves[1], bank, {}, opt);
}

void allreduce_torus2d(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  check_suits("allreduce", "torus2d", needs_2d, c);
  const std::uint32_t bank = first_bank(b, opt), other_bank = second_bank(b, opt);
  const auto q = split_elems(0, opt.count, 4);
  // Quarter i: (first dimension, direction) -- 0,1: rows first; 2,3: columns first; odd ones run
  // their rings backwards. Rails by sending direction: row +, row -, column +, column -.
  for (int i = 0; i < 4; ++i) {
    const bool rows_first = i < 2;
    const bool backward = i % 2 == 1;
    std::map<int, int> after_first;   // node -> join of its first phase
    for (int phase = 0; phase < 2; ++phase) {
      const bool rows = (phase == 0) == rows_first;
      const int rail = rail_for((rows ? 0 : 2) + (backward ? 1 : 0), opt);
      const int rings = rows ? c.rows : c.cols;
      std::map<int, int> done_of_node;
      for (int k = 0; k < rings; ++k) {
        std::vector<int> order = rows ? row_order(c, k) : col_order(c, k);
        if (backward) order = reversed(order);
        const auto start = phase == 0 ? std::vector<int>{} : starts_for(order, after_first);
        const auto done = ring_allreduce(b, order, rail, q[i], phase == 0 ? bank : other_bank, start, opt);
        for (std::size_t p = 0; p < order.size(); ++p) done_of_node[order[p]] = done[p];
      }
      after_first = done_of_node;
    }
  }
}

void allreduce_hamiltonian(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  check_suits("allreduce", "hamiltonian", needs_square, c);
  const std::uint32_t bank = first_bank(b, opt);
  const auto a = hamiltonian_a(c);
  const auto bb = hamiltonian_b(c);
  const auto q = split_elems(0, opt.count, 4);
  ring_allreduce(b, a, rail_for(0, opt), q[0], bank, {}, opt);
  ring_allreduce(b, reversed(a), rail_for(1, opt), q[1], bank, {}, opt);
  ring_allreduce(b, bb, rail_for(2, opt), q[2], bank, {}, opt);
  ring_allreduce(b, reversed(bb), rail_for(3, opt), q[3], bank, {}, opt);
}

void allreduce_halving_doubling(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  check_suits("allreduce", "halving-doubling", needs_power_of_two, c);
  const int n = c.size();
  const std::uint32_t bank = first_bank(b, opt);
  const auto& L = b.layout();
  const int parts = std::max(1, opt.rails);
  const auto pieces = split_elems(0, opt.count, parts);
  std::vector<int> distances;
  for (int d = n / 2; d >= 1; d /= 2) distances.push_back(d);
  for (int part = 0; part < parts; ++part) {
    const int rail = part;
    std::vector<Span> region(n, pieces[part]);   // each rank's current region
    std::vector<std::vector<int>> ready(n);      // what a rank's next step waits for
    std::vector<std::vector<int>> all_ops(n);
    // Recursive halving (reduce-scatter): partners r and r^d share a region; each keeps the half
    // on its side of bit d and receives the partner's partial sum of it into a scratch area of
    // its own for this step (the areas shrink with the regions, so all steps of a part stack
    // within that part's range of the scratch buffer), then reduces.
    std::uint32_t area = 0;
    for (int d : distances) {
      std::vector<Span> kept(n);
      std::vector<std::vector<int>> next(n);
      std::uint32_t step_area = 0;
      for (int r = 0; r < n; ++r) {
        const auto h = split_elems(region[r].offset / 4, region[r].len / 4, 2);
        kept[r] = (r & d) ? h[1] : h[0];
        step_area = std::max(step_area, std::max(h[0].len, h[1].len));
      }
      for (int r = 0; r < n; ++r) {
        const int partner = r ^ d;
        const Span give = kept[partner];
        for (const Span& ch : chunk_span(give, auto_chunk(opt, give.len))) {
          const std::uint32_t at = L.scratch + bank + pieces[part].offset + area + (ch.offset - give.offset);
          const auto m = b.send(rail, c.nodes[r], c.nodes[partner], L.data + ch.offset, at, ch.len);
          for (int dep : ready[r]) b.at(c.nodes[r]).depend_last_on(dep);
          const int red = b.at(c.nodes[partner]).reduce(rail, L.data + ch.offset, at, ch.len, {m.recv});
          for (int dep : ready[partner]) b.at(c.nodes[partner]).depend_last_on(dep);
          next[partner].push_back(red);
          all_ops[r].push_back(m.put);
        }
      }
      area += step_area;
      region = kept;
      ready = next;
    }
    // Recursive doubling (allgather): exchange the current regions into each other's data
    // buffers; regions double until they cover the part again.
    for (auto it = distances.rbegin(); it != distances.rend(); ++it) {
      const int d = *it;
      std::vector<std::vector<int>> next(n);
      std::vector<Span> grown(n);
      std::vector<int> gate(n);
      for (int r = 0; r < n; ++r) gate[r] = b.at(c.nodes[r]).join(ready[r]);
      // A rank's next gate must include this one: receives have no dependencies of their own,
      // so without it an early (e.g. empty) message would open the gate before earlier data
      // has landed.
      for (int r = 0; r < n; ++r) next[r].push_back(gate[r]);
      for (int r = 0; r < n; ++r) {
        const int partner = r ^ d;
        const Span mine = region[r], theirs = region[partner];
        grown[r] = Span{std::min(mine.offset, theirs.offset), mine.len + theirs.len};
        for (const Span& ch : chunk_span(mine, auto_chunk(opt, mine.len))) {
          const auto m = b.send(rail, c.nodes[r], c.nodes[partner], L.data + ch.offset,
                                L.data + ch.offset, ch.len, {gate[r]});
          next[partner].push_back(m.recv);
          all_ops[r].push_back(m.put);
        }
      }
      region = grown;
      ready = next;
    }
    for (int r = 0; r < n; ++r) {
      all_ops[r].insert(all_ops[r].end(), ready[r].begin(), ready[r].end());
      b.at(c.nodes[r]).join(all_ops[r]);
    }
  }
}

// ---- reduce-scatter and allgather -----------------------------------------------------------------

// Rank r's block: elements [r*count/n ...) (split_elems over the whole buffer).
std::vector<Span> blocks(const BuildOptions& opt, int n) { return split_elems(0, opt.count, n); }

// Ring (one direction) or biring (both, half of each block each way) reduce-scatter or allgather
// over the communicator's ring order.
void rs_or_ag_over_ring(ScheduleBuilder& b, bool rs, bool both_ways, const Communicator& c,
                        const BuildOptions& opt) {
  const int n = c.size();
  const auto blk = blocks(opt, n);
  const auto rank = ranks_of(c);
  // Position p of the ring ends with (reduce-scatter) or starts with (allgather) its rank's block.
  const auto order = ring_order_for(c);
  std::vector<Span> owned(n);
  for (int p = 0; p < n; ++p) owned[p] = blk[rank.at(order[p])];
  rs_or_ag_ring(b, rs, order, owned, rail_for(0, opt), rail_for(1, opt), both_ways, 0, {}, opt);
}

// 2D: reduce-scatter along columns then rows, allgather along rows then columns.
void rs_or_ag_2d(ScheduleBuilder& b, bool rs, const Communicator& c, const BuildOptions& opt) {
  check_suits(rs ? "reduce-scatter" : "allgather", "2d", needs_2d, c);
  const auto blk = blocks(opt, c.size());
  // Row group H_r = the blocks of row r's ranks, contiguous [r*C, (r+1)*C).
  std::vector<Span> group(c.rows);
  for (int r = 0; r < c.rows; ++r) {
    group[r] = Span{blk[r * c.cols].offset, 0};
    for (int k = 0; k < c.cols; ++k) group[r].len += blk[r * c.cols + k].len;
  }
  auto column_phase = [&](const std::map<int, int>& start, std::uint32_t bank) {
    std::map<int, int> done;
    for (int k = 0; k < c.cols; ++k) {
      const auto order = col_order(c, k);   // position = row
      std::vector<Span> owned(c.rows);
      for (int p = 0; p < c.rows; ++p) owned[p] = group[p];
      const auto d = rs_or_ag_ring(b, rs, order, owned, rail_for(2, opt), rail_for(3, opt), true,
                                   bank, start, opt);
      done.insert(d.begin(), d.end());
    }
    return done;
  };
  auto row_phase = [&](const std::map<int, int>& start, std::uint32_t bank) {
    std::map<int, int> done;
    for (int r = 0; r < c.rows; ++r) {
      const auto order = row_order(c, r);   // position = column
      std::vector<Span> owned(c.cols);
      for (int p = 0; p < c.cols; ++p) owned[p] = blk[r * c.cols + p];
      const auto d = rs_or_ag_ring(b, rs, order, owned, rail_for(0, opt), rail_for(1, opt), true,
                                   bank, start, opt);
      done.insert(d.begin(), d.end());
    }
    return done;
  };
  if (rs) {
    const auto first = column_phase({}, 0);
    row_phase(first, b.layout().scratch_bank);
  } else {
    const auto first = row_phase({}, 0);
    column_phase(first, 0);
  }
}

void reduce_scatter_ring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_over_ring(b, true, false, c, opt);
}
void reduce_scatter_biring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_over_ring(b, true, true, c, opt);
}
void reduce_scatter_2d(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_2d(b, true, c, opt);
}
void allgather_ring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_over_ring(b, false, false, c, opt);
}
void allgather_biring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_over_ring(b, false, true, c, opt);
}
void allgather_2d(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  rs_or_ag_2d(b, false, c, opt);
}

// ---- alltoall -------------------------------------------------------------------------------------

void alltoall(ScheduleBuilder& b, bool pairwise, const Communicator& c, const BuildOptions& opt) {
  const int n = c.size();
  const auto blk = blocks(opt, n);
  const auto& L = b.layout();
  const int rails = std::max(1, opt.rails);
  const bool all_at_once = !pairwise;
  std::vector<std::vector<int>> prev(n);   // pairwise: the previous step's ops per rank
  // Rank r receives the piece from rank s at scratch + s * stride (pieces are blk[r] long).
  const std::uint32_t stride = static_cast<std::uint32_t>((opt.count + n - 1) / n * 4);
  for (int r = 0; r < n; ++r) {
    // The rank's own block is a local copy.
    b.at(c.nodes[r]).copy(0, L.scratch + static_cast<std::uint32_t>(r) * stride, L.data + blk[r].offset,
                          blk[r].len);
  }
  for (int s = 1; s < n; ++s) {
    std::vector<std::vector<int>> cur(n);
    for (int r = 0; r < n; ++r) {
      // Each block goes out in `rails` parts, one per NIC. Destinations are staggered (rank r
      // starts with r + 1) so that every rank has one sender at a time, and each rail starts a
      // quarter of the way further on, so the rails of a node send to different nodes over
      // different paths instead of piling onto one route.
      for (int k = 0; k < rails; ++k) {
        const int shift = all_at_once ? k * (n - 1) / rails : 0;
        const int to = (r + 1 + (s - 1 + shift) % (n - 1)) % n;
        const auto parts = split_elems(blk[to].offset / 4, blk[to].len / 4, rails);
        const std::uint32_t dst = L.scratch + static_cast<std::uint32_t>(r) * stride +
                                  (parts[k].offset - blk[to].offset);
        const auto m = b.send(k, c.nodes[r], c.nodes[to], L.data + parts[k].offset, dst, parts[k].len);
        if (pairwise) {
          for (int dep : prev[r]) b.at(c.nodes[r]).depend_last_on(dep);
        }
        cur[r].push_back(m.put);
        cur[to].push_back(m.recv);
      }
    }
    if (pairwise) {
      for (int r = 0; r < n; ++r) prev[r] = {b.at(c.nodes[r]).join(cur[r])};
    }
  }
}

void alltoall_pairwise(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  alltoall(b, true, c, opt);
}
void alltoall_all_at_once(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  alltoall(b, false, c, opt);
}

// ---- broadcast ------------------------------------------------------------------------------------

void check_root(const Communicator& c, const BuildOptions& opt) {
  if (opt.root < 0 || opt.root >= c.size()) {
    throw std::invalid_argument("broadcast root rank " + std::to_string(opt.root) + " is not a rank of " +
                                c.name + " (0.." + std::to_string(c.size() - 1) + ")");
  }
}

void broadcast_ring(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  check_root(c, opt);
  const int n = c.size();
  const auto& L = b.layout();
  // A pipelined chain from the root, in both directions around the ring (half the data each).
  auto order = ring_order_for(c);
  const auto it = std::find(order.begin(), order.end(), c.nodes[opt.root]);
  std::rotate(order.begin(), it, order.end());
  const auto halves = split_elems(0, opt.count, 2);
  for (int dir = 0; dir < 2; ++dir) {
    std::vector<int> chain = order;
    if (dir == 1) std::reverse(chain.begin() + 1, chain.end());
    const auto chunks = chunk_span(halves[dir], auto_chunk(opt, halves[dir].len));
    const int rail = rail_for(dir, opt);
    for (const Span& ch : chunks) {
      int have = -1;   // the op after which chain[p] has this chunk
      for (int p = 0; p + 1 < n; ++p) {
        const auto m = b.send(rail, chain[p], chain[p + 1], L.data + ch.offset, L.data + ch.offset,
                              ch.len, {have});
        have = m.recv;
      }
    }
  }
}

void broadcast_binomial(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  check_root(c, opt);
  const int n = c.size();
  const auto& L = b.layout();
  const Span all = whole(opt);
  // Round k: relative ranks below 2^k send everything to relative rank + 2^k.
  std::vector<int> have(n, -1);
  for (int d = 1; d < n; d *= 2) {
    for (int rel = 0; rel < d && rel + d < n; ++rel) {
      const int from = c.nodes[(rel + opt.root) % n], to = c.nodes[(rel + d + opt.root) % n];
      const auto chunks = chunk_span(all, 1u << 30);
      for (const Span& ch : chunks) {
        const auto m = b.send(0, from, to, L.data + ch.offset, L.data + ch.offset, ch.len, {have[rel]});
        have[rel + d] = m.recv;
      }
    }
  }
}

// ---- pipeline send/receive ------------------------------------------------------------------------

void sendrecv_pipeline(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  const int n = c.size();
  const auto& L = b.layout();
  const auto batches = split_elems(0, opt.count, std::max(1, opt.micro_batches));
  const auto order = snake_order(c);   // stages along neighbours
  for (std::size_t k = 0; k < batches.size(); ++k) {
    int have = -1;
    for (int p = 0; p + 1 < n; ++p) {
      const auto m = b.send(rail_for(static_cast<int>(k), opt), order[p], order[p + 1],
                            L.data + batches[k].offset, L.data + batches[k].offset, batches[k].len, {have});
      have = m.recv;
    }
  }
}

}  // namespace

const char* op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllreduce: return "allreduce";
    case CollectiveOp::kReduceScatter: return "reduce-scatter";
    case CollectiveOp::kAllgather: return "allgather";
    case CollectiveOp::kAlltoall: return "alltoall";
    case CollectiveOp::kBroadcast: return "broadcast";
    case CollectiveOp::kSendRecv: return "sendrecv";
  }
  return "?";
}

namespace {
constexpr CollectiveOp kOps[] = {CollectiveOp::kAllreduce, CollectiveOp::kReduceScatter,
                                 CollectiveOp::kAllgather, CollectiveOp::kAlltoall,
                                 CollectiveOp::kBroadcast,  CollectiveOp::kSendRecv};
}  // namespace

std::string op_names() {
  std::string list;
  for (auto op : kOps) list += (list.empty() ? "" : ", ") + std::string(op_name(op));
  return list;
}

CollectiveOp parse_op(const std::string& name) {
  for (auto op : kOps) {
    if (name == op_name(op)) return op;
  }
  throw std::invalid_argument("--op '" + name + "': allowed: " + op_names());
}

double busbw_factor(CollectiveOp op, int n) {
  switch (op) {
    case CollectiveOp::kAllreduce: return 2.0 * (n - 1) / n;
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllgather:
    case CollectiveOp::kAlltoall: return static_cast<double>(n - 1) / n;
    case CollectiveOp::kBroadcast:
    case CollectiveOp::kSendRecv: return 1.0;
  }
  return 1.0;
}

const std::vector<Algorithm>& algorithm_table(CollectiveOp op) {
  // "rings" is what the HammingMesh paper calls its Hamiltonian-cycle allreduce, so it names that
  // algorithm here (not the one-direction `ring`).
  static const std::vector<Algorithm> kAllreduce{
      {"ring", {}, "one ring in one direction over all the data", any_shape, allreduce_ring},
      {"biring", {}, "one ring, both directions, half the data each way", any_shape, allreduce_biring},
      {"torus2d", {}, "4 rings on a quarter each: rows then columns for two quarters, columns then "
       "rows for the other two, concurrently", needs_2d, allreduce_torus2d},
      {"hamiltonian", {"rings"}, "two edge-disjoint Hamiltonian cycles of the grid, each in both "
       "directions, a quarter of the data each", needs_square, allreduce_hamiltonian},
      {"halving-doubling", {}, "Rabenseifner's recursive halving then doubling, one instance per "
       "rail", needs_power_of_two, allreduce_halving_doubling},
      {"hierarchical", {}, "LIBRA's multi-dimensional schedule: reduce-scatter along each network "
       "dimension in turn, allgather back, pipelined in stripes (rings; direct on FC)", needs_dims,
       allreduce_hierarchical}};
  static const std::vector<Algorithm> kReduceScatter{
      {"ring", {}, "one ring in one direction", any_shape, reduce_scatter_ring},
      {"biring", {}, "one ring, both directions, half of each block each way", any_shape,
       reduce_scatter_biring},
      {"2d", {}, "along columns, then along rows", needs_2d, reduce_scatter_2d},
      {"hierarchical", {}, "along each network dimension in turn, innermost first", needs_dims,
       reduce_scatter_hierarchical}};
  static const std::vector<Algorithm> kAllgather{
      {"ring", {}, "one ring in one direction", any_shape, allgather_ring},
      {"biring", {}, "one ring, both directions, half of each block each way", any_shape, allgather_biring},
      {"2d", {}, "along rows, then along columns", needs_2d, allgather_2d},
      {"hierarchical", {}, "along each network dimension in turn, outermost first", needs_dims,
       allgather_hierarchical}};
  static const std::vector<Algorithm> kAlltoall{
      {"pairwise", {}, "one partner at a time", any_shape, alltoall_pairwise},
      {"all-at-once", {}, "every piece posted at once", any_shape, alltoall_all_at_once}};
  static const std::vector<Algorithm> kBroadcast{
      {"ring", {}, "a pipelined chain from the root, both directions around the ring", any_shape,
       broadcast_ring},
      {"binomial", {}, "a binomial tree from the root", any_shape, broadcast_binomial}};
  static const std::vector<Algorithm> kSendRecv{
      {"pipeline", {}, "stage i forwards micro-batches to stage i+1", any_shape, sendrecv_pipeline}};
  switch (op) {
    case CollectiveOp::kAllreduce: return kAllreduce;
    case CollectiveOp::kReduceScatter: return kReduceScatter;
    case CollectiveOp::kAllgather: return kAllgather;
    case CollectiveOp::kAlltoall: return kAlltoall;
    case CollectiveOp::kBroadcast: return kBroadcast;
    case CollectiveOp::kSendRecv: return kSendRecv;
  }
  return kSendRecv;
}

std::vector<std::string> algorithms(CollectiveOp op) {
  std::vector<std::string> names;
  for (const auto& a : algorithm_table(op)) names.push_back(a.name);
  return names;
}

std::string algorithm_names(CollectiveOp op) {
  std::string list;
  for (const auto& a : algorithm_table(op)) {
    list += (list.empty() ? "" : ", ") + a.name;
    for (const auto& alias : a.aliases) list += " (alias " + alias + ")";
  }
  return list;
}

const Algorithm& find_algorithm(CollectiveOp op, const std::string& name, const std::string& option,
                                const std::string& also) {
  for (const auto& a : algorithm_table(op)) {
    if (a.name == name || std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end()) return a;
  }
  throw std::invalid_argument(option + " '" + name + "' is not an algorithm of " + op_name(op) +
                              " (allowed: " + algorithm_names(op) + also + ")");
}

std::string algorithms_help() {
  std::string s;
  for (auto op : kOps) {
    s += std::string(op_name(op)) + ":\n";
    for (const auto& a : algorithm_table(op)) {
      std::string name = a.name;
      for (const auto& alias : a.aliases) name += " (alias " + alias + ")";
      s += "  " + name + std::string(name.size() < 26 ? 26 - name.size() : 1, ' ') + a.summary + "\n";
    }
  }
  return s;
}

void build_collective(ScheduleBuilder& b, CollectiveOp op, const std::string& algo,
                      const std::vector<Communicator>& comms, const BuildOptions& opt) {
  const Algorithm& a = find_algorithm(op, algo);
  for (const auto& c : comms) a.build(b, c, opt);
}

}  // namespace hxemu::sw
