// The same schedules run in-process (HostCpu) and through the socket (one client thread per node,
// the client-side program runner): equal cycle counts, correct data.
//   RemoteAllreduce.RingOnHx2Mesh16MatchesInProcess   16 clients, ring allreduce, 64 KiB and 256 KiB
//                                                     int32 (and 64 KiB float32): results checked
//                                                     through the protocol's memory reads, cycles ==
//                                                     CollectiveSession::run; wall clock of both
//   RemoteAllreduce.MixedProgramMatchesHostCpu        puts, recvs, reduces, copies and joins on 4
//                                                     nodes: per-node finish cycles and memory equal
//   RemoteAllreduce.DisconnectMidCollective           a client leaves mid-allreduce: the others get
//                                                     a clean error; the server serves on
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "remote_test_util.h"
#include "sw/collectives/reference.h"
#include "sw/collectives/session.h"
#include "sw/remote/program_runner.h"
#include "sysc/host/host_memory.h"

namespace hxemu::test {
namespace {

using sw::remote::Client;
using sw::remote::RemoteRunResult;

constexpr std::uint64_t kSeed = 1;

struct RemoteCollective {
  std::uint64_t cycles = 0;
  double wall_seconds = 0;       // connect, write inputs, run, read and check results
  double run_seconds = 0;        // from the start barrier to the last program's end
  std::uint64_t rounds = 0;      // waits, all clients
  std::uint64_t checked = 0, wrong = 0;
  std::vector<std::string> errors;
};

// Runs `algo` allreduce of `bytes` per node over the socket, one client thread per node. The
// schedule, inputs and checks are those CollectiveSession::run uses.
RemoteCollective run_remote(std::uint16_t port, const sw::CollectiveSession& session, const std::string& algo,
                            std::uint64_t bytes, sw::DataType type) {
  const auto& comms = session.communicators();
  const int nodes = static_cast<int>(comms.front().nodes.size());
  const sw::BufferLayout layout = sw::BufferLayout::for_bytes(bytes);
  sw::ScheduleBuilder b(nodes, layout);
  sw::BuildOptions opt;
  opt.count = bytes / 4;
  opt.rails = const_cast<sw::CollectiveSession&>(session).rails();
  sw::build_collective(b, sw::CollectiveOp::kAllreduce, algo, comms, opt);
  sw::DataSpec d;
  d.op = sw::CollectiveOp::kAllreduce;
  d.type = type;
  d.count = opt.count;
  d.seed = kSeed ^ (bytes * 0x9E3779B97F4A7C15ull);   // as CollectiveSession::run

  RemoteCollective out;
  std::mutex mu;
  std::vector<RemoteRunResult> results(static_cast<std::size_t>(nodes));
  std::vector<std::chrono::steady_clock::time_point> run_end(static_cast<std::size_t>(nodes));
  std::chrono::steady_clock::time_point run_start{};
  sw::CheckResult check;
  const std::vector<std::uint32_t> reduced = sw::reduced_reference(d, comms.front());
  const auto wall0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int rank = 0; rank < nodes; ++rank) {
    threads.emplace_back([&, rank] {
      const int node = comms.front().nodes[rank];
      try {
        Client c(client_options(port, 120));
        c.hello("allreduce rank " + std::to_string(rank));
        c.attach(node);
        sysc::HostMemory local(layout.memory_bytes, 256, 1);
        sw::write_inputs(local, layout, d, comms.front(), rank);
        c.write(0, local.bytes(0, layout.memory_bytes).data(), layout.memory_bytes);
        const auto start = c.barrier(nodes);
        if (rank == 0) run_start = std::chrono::steady_clock::now();
        results[rank] = sw::remote::run_program(c, std::move(b.at(node)), type, start.events);
        run_end[rank] = std::chrono::steady_clock::now();
        const auto back = c.read(0, layout.memory_bytes);
        local.write(0, back.data(), back.size());
        {
          std::lock_guard<std::mutex> lock(mu);
          sw::check_result(local, layout, d, comms.front(), rank, reduced, check);
        }
        c.detach();
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        results[rank].errors.push_back("rank " + std::to_string(rank) + ": " + e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  auto last_end = run_start;
  for (const auto& t : run_end) last_end = std::max(last_end, t);
  out.run_seconds = std::chrono::duration<double>(last_end - run_start).count();
  std::uint64_t start = results.front().started, end = start;
  for (const auto& r : results) {
    if (r.started != start) out.errors.push_back("programs started at different cycles");
    end = std::max(end, r.finished_at);
    out.rounds += r.rounds;
    for (const auto& e : r.errors) out.errors.push_back(e);
  }
  out.cycles = end - start;
  out.checked = check.checked;
  out.wrong = check.wrong;
  if (check.wrong) out.errors.push_back(check.first_wrong);
  return out;
}

void compare(const std::string& label, sw::DataType type, const std::vector<std::uint64_t>& sizes) {
  sw::SessionConfig sc;
  sc.type = type;
  sc.max_bytes = sizes.back();
  sc.seed = kSeed;
  sw::CollectiveSession session(config("hx2mesh-16"), sc);
  sw::remote::ServerOptions so;
  so.memory_bytes = 4u << 20;
  ServerThread server(config("hx2mesh-16"), so);
  for (std::uint64_t bytes : sizes) {
    const auto local = session.run(sw::CollectiveOp::kAllreduce, "ring", bytes);
    ASSERT_TRUE(local.ok) << (local.errors.empty() ? "" : local.errors.front());
    const auto remote = run_remote(server.port(), session, "ring", bytes, type);
    EXPECT_TRUE(remote.errors.empty()) << remote.errors.front();
    EXPECT_EQ(remote.wrong, 0u);
    EXPECT_EQ(remote.checked, local.checked);
    EXPECT_EQ(remote.cycles, local.cycles) << label << " " << bytes << " bytes: over the socket vs in-process";
    const std::string key = label + "_" + std::to_string(bytes / 1024) + "KiB";
    ::testing::Test::RecordProperty(key + "_cycles_in_process", std::to_string(local.cycles));
    ::testing::Test::RecordProperty(key + "_cycles_remote", std::to_string(remote.cycles));
    ::testing::Test::RecordProperty(key + "_wall_s_in_process", std::to_string(local.wall_seconds));
    ::testing::Test::RecordProperty(key + "_wall_s_remote", std::to_string(remote.wall_seconds));
    ::testing::Test::RecordProperty(key + "_run_s_remote", std::to_string(remote.run_seconds));
    std::printf("[ remote   ] %s allreduce ring %llu KiB: %llu cycles in-process, %llu over the socket; "
                "wall %.3f s in-process, %.3f s remote (%.3f s from the start barrier, %llu waits)\n",
                label.c_str(), static_cast<unsigned long long>(bytes / 1024),
                static_cast<unsigned long long>(local.cycles), static_cast<unsigned long long>(remote.cycles),
                local.wall_seconds, remote.wall_seconds, remote.run_seconds,
                static_cast<unsigned long long>(remote.rounds));
  }
}

TEST(RemoteAllreduce, RingOnHx2Mesh16MatchesInProcess) {
  compare("int32", sw::DataType::kInt32, {64 * 1024, 256 * 1024});
}

TEST(RemoteAllreduce, RingFloat32OnHx2Mesh16MatchesInProcess) {
  compare("float32", sw::DataType::kFloat32, {64 * 1024});
}

// Every kind of op, cross-dependent, on 4 nodes; the remote runner against HostCpu.
TEST(RemoteAllreduce, MixedProgramMatchesHostCpu) {
  const sw::BufferLayout layout = sw::BufferLayout::for_bytes(64 * 1024);
  auto build = [&](sw::ScheduleBuilder& b) {
    const int nodes[4] = {0, 5, 10, 15};
    for (int i = 0; i < 4; ++i) {
      const int me = nodes[i], next = nodes[(i + 1) % 4], prev = nodes[(i + 3) % 4];
      sw::Program& p = b.at(me);
      const int cp = p.copy(1, layout.scratch + 32768, layout.data, 8192);
      const int put1 = p.put(0, next, layout.data, layout.scratch, 16384, 1, {});
      const int put2 = p.put(2, next, layout.scratch + 32768, layout.scratch + 16384, 8192, 2, {cp});
      const int r1 = p.recv(0, prev, 1);
      const int r2 = p.recv(2, prev, 2);
      const int red = p.reduce(3, layout.data, layout.scratch, 16384, {r1});
      const int red2 = p.reduce(3, layout.data, layout.scratch + 16384, 8192, {r2, red});
      const int j = p.join({put1, put2, red2});
      p.put(1, next, layout.data, layout.scratch + 49152, 64, 3, {j});
      p.recv(1, prev, 3);
      p.put(3, next, 0, 0, 0, 4, {j});   // a notification (no payload)
      p.recv(3, prev, 4);
    }
  };
  sw::DataSpec d;
  d.count = layout.bytes / 4;
  d.seed = 7;
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession session(config("hx2mesh-16"), sc);
  sw::Communicator all = session.communicators().front();
  for (int r = 0; r < all.size(); ++r) sw::write_inputs(session.memory(all.nodes[r]), layout, d, all, r);
  sw::ScheduleBuilder local_b(16, layout);
  build(local_b);
  std::vector<std::string> errors;
  const auto local_finish = session.execute(local_b, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();

  ServerThread server(config("hx2mesh-16"));
  sw::ScheduleBuilder remote_b(16, layout);
  build(remote_b);
  const int nodes[4] = {0, 5, 10, 15};
  std::vector<RemoteRunResult> res(4);
  std::vector<std::vector<std::uint8_t>> mem(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      try {
        Client c(client_options(server.port()));
        c.hello();
        c.attach(nodes[i]);
        sysc::HostMemory in(layout.memory_bytes, 256, 1);
        const int rank = static_cast<int>(std::find(all.nodes.begin(), all.nodes.end(), nodes[i]) - all.nodes.begin());
        sw::write_inputs(in, layout, d, all, rank);
        c.write(0, in.bytes(0, layout.memory_bytes).data(), layout.memory_bytes);
        const auto start = c.barrier(4);
        res[i] = sw::remote::run_program(c, std::move(remote_b.at(nodes[i])), sw::DataType::kInt32, start.events);
        mem[i] = c.read(0, layout.memory_bytes);
      } catch (const std::exception& e) {
        res[i].errors.push_back(e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(res[i].ok) << "node " << nodes[i] << ": " << (res[i].errors.empty() ? "" : res[i].errors.front());
    EXPECT_EQ(res[i].finished_at - res[i].started, local_finish[nodes[i]]) << "node " << nodes[i];
    std::vector<std::uint8_t> want(layout.memory_bytes);
    session.memory(nodes[i]).read(0, want.data(), want.size());
    std::size_t first = 0;
    while (first < want.size() && first < mem[i].size() && mem[i][first] == want[first]) ++first;
    EXPECT_TRUE(mem[i] == want) << "node " << nodes[i] << ": host memory differs from the in-process run at byte "
                                << first << " of " << want.size();
  }
}

// Node 5's client runs the first ops of its allreduce program, sends a wait and disconnects
// without reading the reply. The others' waits end with a `never` error once the machine has
// drained (their neighbour will never send); nobody hangs; the server serves on and node 5 is free.
TEST(RemoteAllreduce, DisconnectMidCollective) {
  sw::SessionConfig sc;
  sc.max_bytes = 64 * 1024;
  sw::CollectiveSession session(config("hx2mesh-16"), sc);
  ServerThread server(config("hx2mesh-16"));
  const auto& comms = session.communicators();
  const sw::BufferLayout layout = sw::BufferLayout::for_bytes(64 * 1024);
  sw::ScheduleBuilder b(16, layout);
  sw::BuildOptions opt;
  opt.count = 64 * 1024 / 4;
  opt.rails = session.rails();
  sw::build_collective(b, sw::CollectiveOp::kAllreduce, "ring", comms, opt);
  std::vector<RemoteRunResult> res(16);
  std::atomic<bool> leaver_done{false};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int node = 0; node < 16; ++node) {
    threads.emplace_back([&, node] {
      try {
        Client c(client_options(server.port(), 60));
        c.hello();
        c.attach(node);
        const auto start = c.barrier(16);
        if (node == 5) {
          // The first few ops only (ops depend on earlier ones only, so a prefix is a program).
          const sw::Program& full = b.at(node);
          sw::Program prefix;
          for (int i = 0; i < 4 && i < full.size(); ++i) {
            const sw::Op op = full.op(i);
            if (op.kind == sw::OpKind::kPut) prefix.put(op.rail, op.peer, op.src, op.dst, op.len, op.tag);
            if (op.kind == sw::OpKind::kRecv) prefix.recv(op.rail, op.peer, op.tag);
          }
          res[node] = sw::remote::run_program(c, std::move(prefix), sw::DataType::kInt32, start.events);
          c.send_raw("{\"req\":\"wait\",\"for\":\"any\"}\n");
          c.close();   // gone, mid-collective, with a wait parked
          leaver_done = true;
        } else {
          res[node] = sw::remote::run_program(c, std::move(b.at(node)), sw::DataType::kInt32, start.events);
        }
      } catch (const std::exception& e) {
        res[node].errors.push_back(e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(leaver_done);
  int never = 0;
  for (int node = 0; node < 16; ++node) {
    if (node == 5) continue;
    EXPECT_FALSE(res[node].ok) << "node " << node << " finished an allreduce missing a member";
    bool clean = false;
    for (const auto& e : res[node].errors) clean = clean || e.find("never") != std::string::npos;
    never += clean ? 1 : 0;
    EXPECT_TRUE(clean) << "node " << node << ": " << (res[node].errors.empty() ? "no error" : res[node].errors.front());
  }
  EXPECT_EQ(never, 15);
  EXPECT_LT(seconds, 50.0) << "the others should not wait for a timeout";
  // The server survives, and node 5 is free again.
  EXPECT_EQ(good_client(server.port(), 5, 6), "");
  EXPECT_EQ(good_client(server.port()), "");
}

}  // namespace
}  // namespace hxemu::test
