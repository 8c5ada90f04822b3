#include "sw/collectives/hierarchical.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sw/collectives/ring_stages.h"

namespace hxemu::sw {

namespace {

constexpr std::uint64_t kMaxStripes = 64;
// Stripes a stage may work on at once at a node: stripe s starts a stage once stripe s - 1 has
// finished it there. Measured on md-ring4-fc4-sw4, 1 MiB allreduce: 33,151 cycles; two at a time
// 33,845; all at once 35,961; one stripe only 37,639.
constexpr int kStripeWindow = 1;

// The communicator's dimensions as mixed-radix digits of the rank.
struct Shape {
  int D = 0, N = 1;
  std::vector<int> size, stride;
  std::vector<sysc::DimKind> kind;
  int coord(int r, int d) const { return (r / stride[d]) % size[d]; }
  // Combinations of the coordinates above dimension k.
  int combos(int k) const { return N / (stride[k] * size[k]); }
};

// The communicator's dimensions; without any, its grid's columns then rows, as rings.
std::vector<Communicator::Dim> dims_of(const Communicator& c) {
  if (!c.dims.empty()) return c.dims;
  std::vector<Communicator::Dim> d;
  if (c.cols > 1) d.push_back({c.cols, sysc::DimKind::kRing});
  if (c.rows > 1) d.push_back({c.rows, sysc::DimKind::kRing});
  return d;
}

Shape shape_of(const Communicator& c) {
  Shape s;
  const auto dims = dims_of(c);
  s.D = static_cast<int>(dims.size());
  for (const auto& d : dims) {
    s.stride.push_back(s.N);
    s.size.push_back(d.size);
    s.kind.push_back(d.kind);
    s.N *= d.size;
  }
  return s;
}

// Everything one hierarchical collective's stages share.
struct Build {
  ScheduleBuilder& b;
  const Communicator& c;
  const BuildOptions& opt;
  Shape sh;
  int stripes = 1;
  std::vector<std::vector<Span>> vblk{}; // [stripe][block]: sub-block `stripe` of block `block`
  std::vector<std::uint32_t> area{};     // reduce-scatter stage k receives at scratch + area[k]
  std::uint32_t slot = 4;                // bytes per direct-send slot: the longest sub-block
  int rails = 1;
};

using Done = std::vector<std::vector<int>>;   // [combo][rank] -> op after which that part is done

int join_of(Program& p, std::vector<int> deps) {
  deps.erase(std::remove(deps.begin(), deps.end(), -1), deps.end());
  if (deps.empty()) return -1;
  if (deps.size() == 1) return deps.front();
  return p.join(deps);
}

// Direct reduce-scatter (RS) or allgather over a FullyConnected group: every member sends each
// other member that member's block (RS: the partial sum, reduced on arrival out of a slot of
// its own, sender j of receiver q at slot j of q's block; AG: the final block, into place).
void direct_stage(Build& x, bool rs, int k, int s, const std::vector<int>& ranks,
                  const std::vector<int>& blocks, const std::vector<int>& start, int rail0,
                  std::vector<int>& done) {
  const int n = static_cast<int>(ranks.size());
  const auto& L = x.b.layout();
  std::vector<std::vector<int>> ops(n);
  for (int q = 0; q < n; ++q) {
    const Span& vq = x.vblk[s][blocks[q]];
    if (vq.len == 0) continue;
    int prev = -1;
    for (int p = 0; p < n; ++p) {
      if (p == q) continue;
      const int j = p < q ? p : p - 1;
      const int rail = (rail0 + j) % x.rails;
      const int src = x.c.nodes[ranks[p]], dst = x.c.nodes[ranks[q]];
      if (rs) {
        const std::uint32_t slot =
            L.scratch + x.area[k] +
            static_cast<std::uint32_t>((static_cast<std::uint64_t>(s) * x.sh.N + blocks[q]) * (n - 1) + j) * x.slot;
        const auto m = x.b.send(rail, src, dst, L.data + vq.offset, slot, vq.len, {start[p]}, {});
        prev = x.b.at(dst).reduce(rail, L.data + vq.offset, slot, vq.len, {m.recv, start[q], prev});
        ops[p].push_back(m.put);
      } else {
        // AG: member q's block goes to p (q is the sender here).
        const auto m = x.b.send(rail, dst, src, L.data + vq.offset, L.data + vq.offset, vq.len, {start[q]}, {});
        ops[q].push_back(m.put);
        ops[p].push_back(m.recv);
      }
    }
    if (rs) ops[q].push_back(prev);
  }
  for (int p = 0; p < n; ++p) {
    ops[p].push_back(start[p]);
    done[p] = join_of(x.b.at(x.c.nodes[ranks[p]]), ops[p]);
  }
}

// One stage (dimension k, reduce-scatter or allgather) of stripe s: every group along k, every
// combination of the coordinates above k. start(rank, combo) is the op that must finish first.
template <class Start>
Done run_stage(Build& x, int k, bool rs, int s, const Start& start) {
  const Shape& sh = x.sh;
  const int n = sh.size[k], st = sh.stride[k], O = sh.combos(k);
  Done done(O, std::vector<int>(sh.N, -1));
  for (int base = 0; base < sh.N; ++base) {
    if (sh.coord(base, k) != 0) continue;
    const int inner = base % st;   // coordinates below k; `base` is the group's member at 0
    std::vector<int> ranks(n);
    for (int p = 0; p < n; ++p) ranks[p] = base + p * st;
    for (int o = 0; o < O; ++o) {
      std::vector<int> blocks(n), st_ops(n);
      for (int p = 0; p < n; ++p) {
        blocks[p] = inner + p * st + o * st * n;
        st_ops[p] = start(ranks[p], o);
      }
      // Rails rotate with the dimension, stripe and combination, so every NIC carries a share.
      const int rail0 = 2 * k + s + o;
      std::vector<int> d(n, -1);
      if (sh.kind[k] == sysc::DimKind::kFullyConnected) {
        direct_stage(x, rs, k, s, ranks, blocks, st_ops, rail0, d);
      } else {
        std::vector<int> order(n);
        std::vector<Span> owned(n);
        std::map<int, int> start_of;
        for (int p = 0; p < n; ++p) {
          order[p] = x.c.nodes[ranks[p]];
          owned[p] = x.vblk[s][blocks[p]];
          if (st_ops[p] >= 0) start_of[order[p]] = st_ops[p];
        }
        const auto res = rs_or_ag_ring(x.b, rs, order, owned, rail0 % x.rails, (rail0 + 1) % x.rails, true,
                                       rs ? x.area[k] : 0, start_of, x.opt);
        for (int p = 0; p < n; ++p) d[p] = res.at(order[p]);
      }
      for (int p = 0; p < n; ++p) done[o][ranks[p]] = d[p];
    }
  }
  return done;
}

Build make_build(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  Build x{b, c, opt, shape_of(c)};
  if (x.sh.D == 0 || x.sh.N != c.size()) {
    throw std::invalid_argument("hierarchical: the communicator's dimensions do not multiply to its size");
  }
  x.rails = std::max(1, opt.rails);
  // --chunk sets the stripes' sub-block size (and, inside them, the rings' chunk).
  const std::uint64_t block_bytes = opt.count / static_cast<std::uint64_t>(x.sh.N) * 4;
  x.stripes = opt.chunk_bytes ? static_cast<int>(std::clamp<std::uint64_t>(
                                    (block_bytes + opt.chunk_bytes - 1) / opt.chunk_bytes, 1, kMaxStripes))
                              : hierarchical_stripes(opt.count, x.sh.N);
  const auto blocks = split_elems(0, opt.count, x.sh.N);
  x.vblk.assign(x.stripes, std::vector<Span>(x.sh.N));
  for (int blk = 0; blk < x.sh.N; ++blk) {
    const auto parts = split_elems(blocks[blk].offset / 4, blocks[blk].len / 4, x.stripes);
    for (int s = 0; s < x.stripes; ++s) {
      x.vblk[s][blk] = parts[s];
      x.slot = std::max(x.slot, parts[s].len);
    }
  }
  // Reduce-scatter stage k's scratch: one bank for a ring, n-1 for a direct stage.
  const auto& L = b.layout();
  std::uint32_t bank = 0;
  for (int k = 0; k < x.sh.D; ++k) {
    x.area.push_back(bank * L.scratch_bank);
    bank += x.sh.kind[k] == sysc::DimKind::kFullyConnected ? static_cast<std::uint32_t>(x.sh.size[k] - 1) : 1u;
  }
  // Direct stages' slots (only FullyConnected dimensions have them).
  const bool direct = std::find(x.sh.kind.begin(), x.sh.kind.end(), sysc::DimKind::kFullyConnected) != x.sh.kind.end();
  const std::uint64_t need_slots =
      direct ? static_cast<std::uint64_t>(x.stripes) * static_cast<std::uint64_t>(x.sh.N) * x.slot : 0;
  if (bank > L.banks || need_slots > L.scratch_bank) {
    throw std::logic_error("hierarchical: the buffer layout has " + std::to_string(L.banks) + " scratch banks of " +
                           std::to_string(L.scratch_bank) + " bytes; this collective needs " + std::to_string(bank) +
                           " of " + std::to_string(need_slots));
  }
  return x;
}

// The whole collective: reduce-scatter stages 0 .. D-1 (when `rs`), then allgather stages D-1 .. 0
// (when `ag`), stripe after stripe.
void hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt, bool rs, bool ag) {
  const std::string why = needs_dims(c);
  if (!why.empty()) throw std::invalid_argument("hierarchical " + why);
  Build x = make_build(b, c, opt);
  const Shape& sh = x.sh;
  const int D = sh.D;
  // done_rs[k][s], done_ag[k][s]
  std::vector<std::vector<Done>> done_rs(D, std::vector<Done>(x.stripes)), done_ag(D, std::vector<Done>(x.stripes));
  auto node_prog = [&](int rank) -> Program& { return b.at(c.nodes[rank]); };
  for (int s = 0; s < x.stripes; ++s) {
    if (rs) {
      for (int k = 0; k < D; ++k) {
        done_rs[k][s] = run_stage(x, k, true, s, [&](int rank, int o) {
          std::vector<int> deps;
          if (k > 0) {
            for (int p = 0; p < sh.size[k]; ++p) deps.push_back(done_rs[k - 1][s][p + sh.size[k] * o][rank]);
          }
          if (s >= kStripeWindow) deps.push_back(done_rs[k][s - kStripeWindow][o][rank]);
          return join_of(node_prog(rank), deps);
        });
      }
    }
    if (ag) {
      for (int k = D - 1; k >= 0; --k) {
        done_ag[k][s] = run_stage(x, k, false, s, [&](int rank, int o) {
          std::vector<int> deps;
          if (k < D - 1) {
            deps.push_back(done_ag[k + 1][s][o / sh.size[k + 1]][rank]);
          } else if (rs) {
            deps.push_back(done_rs[D - 1][s][0][rank]);
          }
          if (s >= kStripeWindow) deps.push_back(done_ag[k][s - kStripeWindow][o][rank]);
          return join_of(node_prog(rank), deps);
        });
      }
    }
  }
}

}  // namespace

std::string needs_dims(const Communicator& c) {
  const auto dims = dims_of(c);
  if (dims.empty()) return "needs a communicator of at least 2 nodes";
  int n = 1;
  for (const auto& d : dims) n *= d.size;
  if (n != c.size()) return "needs dimensions that multiply to the communicator's size";
  return "";
}

int hierarchical_stripes(std::uint64_t count, int ranks) {
  const std::uint64_t per_block = count / static_cast<std::uint64_t>(std::max(ranks, 1));
  return static_cast<int>(std::clamp<std::uint64_t>(per_block / 256, 1, 8));
}

int hierarchical_banks(const std::vector<Communicator::Dim>& dims) {
  int banks = 0;
  for (const auto& d : dims) banks += d.kind == sysc::DimKind::kFullyConnected ? d.size - 1 : 1;
  return std::max(banks, 2);
}

std::uint64_t hierarchical_bank_bytes(std::uint64_t count, int ranks) {
  // Stripes x ranks slots of the longest sub-block: at most count + 2 x stripes x ranks elements.
  return (count + 2ull * kMaxStripes * static_cast<std::uint64_t>(std::max(ranks, 1))) * 4;
}

void allreduce_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  hierarchical(b, c, opt, true, true);
}
void reduce_scatter_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  hierarchical(b, c, opt, true, false);
}
void allgather_hierarchical(ScheduleBuilder& b, const Communicator& c, const BuildOptions& opt) {
  hierarchical(b, c, opt, false, true);
}

}  // namespace hxemu::sw
