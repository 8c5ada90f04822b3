// Ring phases held as rules (sw/runtime/ring_phase.h) against the same schedules built op by op
// (ScheduleBuilder::set_compact_rings(false)):
//   - every node's program has the same ops in the same order, each with the same fields and the
//     same dependencies, for every algorithm of allreduce, reduce-scatter and allgather, on several
//     ring sizes, chunk counts and a gated program;
//   - run by ProgramState against a toy network (fixed delays for TX completion, arrival and
//     reduction), both start the same ops in the same cycles in the same order;
//   - the compact schedule of a 32x32 ring allreduce keeps a small fraction of the stored size.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule_builder.h"
#include "sw/runtime/program_state.h"

namespace hxemu::test {
namespace {

sw::Communicator grid(int rows, int cols) {
  sw::Communicator c;
  c.name = "grid";
  c.rows = rows;
  c.cols = cols;
  // Node ids not in rank order, so a mix-up of rank and node shows.
  for (int i = 0; i < rows * cols; ++i) c.nodes.push_back((i * 7 + 3) % (rows * cols));
  return c;
}

sw::ScheduleBuilder build(bool compact, sw::CollectiveOp op, const std::string& algo,
                          const sw::Communicator& c, std::uint64_t count, std::uint32_t chunk,
                          bool gated) {
  sw::BuildOptions opt;
  opt.count = count;
  opt.chunk_bytes = chunk;
  opt.rails = 4;
  sw::ScheduleBuilder b(c.size(), sw::BufferLayout::for_bytes(count * 4));
  b.set_compact_rings(compact);
  if (gated) {
    // A first phase whose join gates everything after it (as a training step sequences its
    // collectives), and the collective twice (the tags of the second continue the first's).
    for (int n = 0; n < c.size(); ++n) {
      auto& p = b.at(n);
      const int a = p.copy(0, 0, 64, 64);
      p.set_gate(p.join({a}));
    }
  }
  sw::build_collective(b, op, algo, {c}, opt);
  if (gated) sw::build_collective(b, op, algo, {c}, opt);
  return b;
}

std::vector<int> deps(const sw::Program& p, int i) {
  std::vector<int> d;
  p.for_each_dep(i, [&d](int x) { d.push_back(x); });
  std::sort(d.begin(), d.end());
  return d;
}

void same_programs(sw::ScheduleBuilder& a, sw::ScheduleBuilder& b, const std::string& what) {
  ASSERT_EQ(a.programs().size(), b.programs().size());
  for (std::size_t n = 0; n < a.programs().size(); ++n) {
    const sw::Program& pa = a.at(static_cast<int>(n));
    const sw::Program& pb = b.at(static_cast<int>(n));
    ASSERT_EQ(pa.size(), pb.size()) << what << " node " << n;
    for (int i = 0; i < pa.size(); ++i) {
      const sw::Op x = pa.op(i), y = pb.op(i);
      ASSERT_EQ(std::make_tuple(x.kind, x.rail, x.tag, x.peer, x.src, x.dst, x.len),
                std::make_tuple(y.kind, y.rail, y.tag, y.peer, y.src, y.dst, y.len))
          << what << " node " << n << " op " << i;
      ASSERT_EQ(deps(pa, i), deps(pb, i)) << what << " node " << n << " op " << i;
      ASSERT_EQ(pa.deps_of(i), pb.deps_of(i)) << what << " node " << n << " op " << i;
    }
  }
}

// Runs every node's program against a toy network: a put's TX completion comes 3 cycles after it
// starts, its message arrives 5 + (src + dst) % 4 cycles after; a reduction or copy takes 2.
// Returns (cycle, node, op id) of every op a host issued, in order.
std::vector<std::tuple<std::uint64_t, int, int>> run(sw::ScheduleBuilder& b, std::uint64_t* end) {
  const int nodes = static_cast<int>(b.programs().size());
  std::vector<sw::ProgramState> st;
  for (int n = 0; n < nodes; ++n) st.emplace_back(n);
  for (int n = 0; n < nodes; ++n) st[n].load(std::move(b.at(n)), 4, 0);
  struct Event {
    int kind;   // 0 tx, 1 rx, 2 engine
    int node, rail, peer, tag, op;
  };
  std::map<std::uint64_t, std::vector<Event>> events;
  std::vector<std::tuple<std::uint64_t, int, int>> log;
  std::uint64_t t = 0;
  auto all_done = [&] {
    for (const auto& s : st) {
      if (!s.done()) return false;
    }
    return true;
  };
  for (; t < 200000 && !all_done(); ++t) {
    auto it = events.find(t);
    if (it != events.end()) {
      for (const Event& e : it->second) {
        if (e.kind == 0) {
          st[e.node].tx_completed(e.rail, sysc::TxCompletion{static_cast<std::uint16_t>(e.tag), static_cast<std::uint16_t>(e.peer)}, t);
        } else if (e.kind == 1) {
          st[e.node].rx_arrived(e.rail, sysc::RxCompletion{static_cast<std::uint16_t>(e.peer), static_cast<std::uint16_t>(e.tag), 4}, t);
        } else {
          st[e.node].engine_done(e.op, t);
        }
      }
      events.erase(it);
    }
    for (int n = 0; n < nodes; ++n) {
      st[n].start_ready(t, [&](int id, const sw::Op& op) {
        log.emplace_back(t, n, id);
        if (op.kind == sw::OpKind::kPut) {
          events[t + 3].push_back({0, n, op.rail, op.peer, op.tag, id});
          events[t + 5 + static_cast<std::uint64_t>((n + op.peer) % 4)].push_back({1, op.peer, op.rail, n, op.tag, id});
        } else {
          events[t + 2].push_back({2, n, op.rail, -1, 0, id});
        }
      });
    }
  }
  for (const auto& s : st) EXPECT_TRUE(s.errors().empty()) << s.errors().front();
  *end = t;
  return log;
}

struct Case {
  sw::CollectiveOp op;
  int rows, cols;
  std::uint64_t count;
  std::uint32_t chunk;
  bool gated;
};

TEST(RingPhase, SameOpsAndSameRunAsStoredOps) {
  const std::vector<Case> cases = {
      {sw::CollectiveOp::kAllreduce, 3, 3, 1009, 0, false},
      {sw::CollectiveOp::kAllreduce, 4, 4, 4099, 256, false},   // several chunks per segment
      {sw::CollectiveOp::kAllreduce, 4, 4, 4099, 256, true},
      {sw::CollectiveOp::kAllreduce, 1, 2, 7, 0, false},        // a ring of two
      {sw::CollectiveOp::kReduceScatter, 3, 4, 12 * 37, 64, false},
      {sw::CollectiveOp::kAllgather, 3, 4, 12 * 37, 64, true},
  };
  int compared = 0;
  for (const Case& c : cases) {
    const sw::Communicator comm = grid(c.rows, c.cols);
    for (const auto& algo : sw::algorithms(c.op)) {
      if (!sw::find_algorithm(c.op, algo).unsuitable(comm).empty()) continue;
      const std::string what = std::string(sw::op_name(c.op)) + " " + algo + " " +
                               std::to_string(c.rows) + "x" + std::to_string(c.cols) +
                               (c.gated ? " gated" : "");
      auto stored = build(false, c.op, algo, comm, c.count, c.chunk, c.gated);
      auto compact = build(true, c.op, algo, comm, c.count, c.chunk, c.gated);
      same_programs(stored, compact, what);
      std::uint64_t end_stored = 0, end_compact = 0;
      const auto log_stored = run(stored, &end_stored);
      const auto log_compact = run(compact, &end_compact);
      EXPECT_GT(log_stored.size(), 0u) << what;
      EXPECT_EQ(log_stored.size(), log_compact.size()) << what;
      for (std::size_t i = 0; i < std::min(log_stored.size(), log_compact.size()); ++i) {
        if (log_stored[i] == log_compact[i]) continue;
        ADD_FAILURE() << what << ": issue " << i << " differs: cycle " << std::get<0>(log_stored[i])
                      << " node " << std::get<1>(log_stored[i]) << " op " << std::get<2>(log_stored[i])
                      << " stored, cycle " << std::get<0>(log_compact[i]) << " node "
                      << std::get<1>(log_compact[i]) << " op " << std::get<2>(log_compact[i]) << " compact";
        break;
      }
      EXPECT_EQ(end_stored, end_compact) << what;
      EXPECT_LT(end_stored, 200000u) << what << ": did not finish";
      ++compared;
    }
  }
  EXPECT_GE(compared, 12);   // the ring-based algorithms of all three operations took part
}

TEST(RingPhase, CompactRingKeepsNoOps) {
  // A ring allreduce over 1,024 nodes: 2 x 1,023 steps; each node keeps two ring phases and a join.
  const sw::Communicator comm = grid(32, 32);
  auto b = build(true, sw::CollectiveOp::kAllreduce, "ring", comm, 1024 * 64, 0, false);
  const sw::Program& p = b.at(comm.nodes[5]);
  EXPECT_EQ(p.phases().size(), 2u);
  EXPECT_EQ(p.stored_ops().size(), 1u);   // the join of the two phases
  EXPECT_EQ(p.size(), 3 * 1023 + 1 + 2 * 1023 + 1 + 1);
  // The stored equivalent.
  auto s = build(false, sw::CollectiveOp::kAllreduce, "ring", comm, 1024 * 64, 0, false);
  EXPECT_EQ(s.at(comm.nodes[5]).stored_ops().size(), static_cast<std::size_t>(p.size()));
}

}  // namespace
}  // namespace hxemu::test
