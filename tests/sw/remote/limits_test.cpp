// The server's limits (ServerOptions; docs/remote-protocol.md, "Limits and timeouts") and the one
// table of request kinds:
//   RemoteLimits.FloodWhileParkedStaysBoundedAndOthersAreServed   max_backlog holds a flooding
//                         client back (TCP back-pressure); its backlog is handled in slices while
//                         another client is answered promptly
//   RemoteLimits.OversizedFrameIsAnsweredInOrder   frame_too_large takes its place in the replies,
//                         also behind a parked wait
//   RemoteLimits.MemoryIsCappedBeforeAllocation    memory_bytes over the machine's 1 GiB is refused
//                         by the library and by `hxemu serve --memory` (exit status 2)
//   RemoteProtocol.UnknownRequestListsExactlyTheDispatchedKinds   the error's list, the dispatcher
//                         and docs/remote-protocol.md agree with kRequests
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "remote_test_util.h"

namespace hxemu::test {
namespace {

using sw::remote::Client;
using sw::remote::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

TEST(RemoteLimits, FloodWhileParkedStaysBoundedAndOthersAreServed) {
  sw::remote::ServerOptions so;
  so.max_frame = 256u << 10;
  so.max_backlog = 512u << 10;
  ServerThread server(config("hx2mesh-16"), so);
  // The flood: 96 writes of 144 KiB (192 KiB of base64 each, 18 MiB in all) sent behind a wait
  // that stays parked (a barrier of two with one participant) until the second client comes.
  constexpr int kWrites = 96;
  std::vector<std::uint8_t> data(144u << 10, 0x3c);
  const std::string write_line =
      "{\"req\":\"write\",\"addr\":0,\"data\":\"" + sw::remote::base64_encode(data.data(), data.size()) + "\"}\n";
  ASSERT_LT(write_line.size(), so.max_frame);
  std::string flood;
  for (int i = 0; i < kWrites; ++i) flood += write_line;

  std::atomic<bool> done{false};
  std::string flood_error;
  int flood_ok = 0;
  std::thread flooder([&] {
    try {
      Client a(client_options(server.port(), 60));
      a.hello();
      a.attach(0);
      a.send_raw("{\"req\":\"wait\",\"for\":\"barrier\",\"count\":2}\n");
      a.send_raw(flood);   // returns once the server has read it all
      for (int i = 0; i < 1 + kWrites; ++i) flood_ok += a.read_reply().value("ok", false);
    } catch (const std::exception& e) {
      flood_error = e.what();
    }
    done = true;
  });

  // While the wait is parked the server reads up to max_backlog and then stops reading.
  const auto fill_deadline = Clock::now() + std::chrono::seconds(20);
  while (server.server().peak_backlog() < so.max_backlog - so.max_frame && Clock::now() < fill_deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  std::this_thread::sleep_for(milliseconds(200));   // time to overfill, were it not bounded
  EXPECT_GE(server.server().peak_backlog(), so.max_backlog - so.max_frame) << "the flood did not arrive";
  EXPECT_LE(server.server().peak_backlog(), so.max_backlog);
  EXPECT_FALSE(done.load()) << "the flood was taken in while its wait was parked";

  // Another client is served at once, before and while the backlog is handled.
  Client other(client_options(server.port(), 1));   // every call has a 1 s deadline
  other.hello();
  EXPECT_TRUE(other.stats(0).value("ok", false));
  Client partner(client_options(server.port(), 10));
  partner.hello();
  partner.attach(1);
  partner.barrier(2);   // releases the flooder's wait: its backlog is handled from now
  partner.detach();
  double worst_ms = 0;
  int answered = 0;
  const auto drain_deadline = Clock::now() + std::chrono::seconds(60);
  while (!done.load() && Clock::now() < drain_deadline) {
    const auto t0 = Clock::now();
    EXPECT_TRUE(other.stats(0).value("ok", false));
    worst_ms = std::max(worst_ms, ms_since(t0));
    ++answered;
  }
  flooder.join();
  EXPECT_EQ(flood_error, "");
  EXPECT_EQ(flood_ok, 1 + kWrites) << "every request of the flood is answered";
  EXPECT_LT(worst_ms, 1000.0) << "another client waited that long for the flood's backlog";
  EXPECT_LE(server.server().peak_backlog(), so.max_backlog) << "the backlog grew past its bound";
  RecordProperty("answered_during_backlog", std::to_string(answered));
  RecordProperty("worst_ms_during_backlog", std::to_string(worst_ms));
  EXPECT_EQ(good_client(server.port()), "");
}

TEST(RemoteLimits, OversizedFrameIsAnsweredInOrder) {
  sw::remote::ServerOptions so;
  so.max_frame = 4096;
  ServerThread server(config("hx2mesh-16"), so);
  Client a(client_options(server.port(), 10));
  a.hello();
  a.attach(0);
  // Parked wait, then an oversized line, then a request: the replies come in this order.
  a.send_raw("{\"req\":\"wait\",\"for\":\"barrier\",\"count\":2,\"id\":1}\n" + std::string(10000, 'x') +
             "\n{\"req\":\"poll\",\"id\":3}\n");
  std::this_thread::sleep_for(milliseconds(100));
  Client b(client_options(server.port(), 10));
  b.hello();
  b.attach(1);
  b.barrier(2);
  const json r1 = a.read_reply(), r2 = a.read_reply(), r3 = a.read_reply();
  EXPECT_EQ(r1.value("id", 0), 1) << r1.dump();
  EXPECT_TRUE(r1.value("ok", false)) << r1.dump();
  EXPECT_EQ(r2.value("error", std::string()), "frame_too_large") << r2.dump();
  EXPECT_EQ(r3.value("id", 0), 3) << r3.dump();
  EXPECT_TRUE(r3.value("ok", false)) << r3.dump();
}

TEST(RemoteLimits, MemoryIsCappedBeforeAllocation) {
  using sw::remote::ServerOptions;
  EXPECT_EQ(sw::remote::max_memory_per_node(16), 64u << 20);
  EXPECT_EQ(sw::remote::default_memory_per_node(16), 4u << 20);
  EXPECT_EQ(sw::remote::default_memory_per_node(1024), 1u << 20);
  EXPECT_EQ(sw::remote::default_memory_per_node(65536), 16u << 10);
  ServerOptions so;
  so.memory_bytes = 64u << 20;
  EXPECT_NO_THROW(so.validate(16));
  for (std::uint64_t bad : {(64u << 20) + 4096u, 2u << 30, 5000u, 0u + 2048u}) {
    so.memory_bytes = bad;
    try {
      so.validate(16);
      ADD_FAILURE() << bad << " bytes per node accepted";
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("memory_bytes"), std::string::npos) << m;
      EXPECT_NE(m.find("from 4 KiB to 64 MiB per node"), std::string::npos) << m;
      EXPECT_NE(m.find("1 GiB"), std::string::npos) << m;
    }
  }
  // The server refuses at once: 2 GiB x 16 nodes would be 32 GiB.
  so.memory_bytes = 2u << 30;
  const auto t0 = Clock::now();
  EXPECT_THROW(sw::remote::Server(config("hx2mesh-16"), so), std::invalid_argument);
  EXPECT_LT(ms_since(t0), 2000.0);
}

// Runs a command line (under `timeout`, so a regression cannot hang the test) and returns its exit
// status and what it printed on stdout and stderr.
std::pair<int, std::string> run_command(const std::string& cmd) {
  std::string out;
  FILE* p = popen(("timeout 60 " + cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(RemoteLimits, ServeCommandRefusesMemoryOverTheCap) {
  const std::string serve = std::string(HXEMU_BIN) + " serve --config " + HX_CONFIG_DIR + "/hx2mesh-16.json --port 0";
  const auto [status, out] = run_command(serve + " --memory 2G");
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("--memory = 2 GiB is out of range"), std::string::npos) << out;
  EXPECT_NE(out.find("from 4 KiB to 64 MiB per node"), std::string::npos) << out;
  EXPECT_EQ(out.find("listening"), std::string::npos) << out;
  const auto [status2, out2] = run_command(serve + " --max-backlog 1K");
  EXPECT_EQ(status2, 2) << out2;
  EXPECT_NE(out2.find("--max-backlog"), std::string::npos) << out2;
  const auto [status3, out3] = run_command(serve + " --idle-timeout -1");
  EXPECT_EQ(status3, 2) << out3;
  EXPECT_NE(out3.find("--idle-timeout"), std::string::npos) << out3;
}

TEST(RemoteProtocol, UnknownRequestListsExactlyTheDispatchedKinds) {
  std::set<std::string> table;
  for (const auto& r : sw::remote::kRequests) table.insert(r.name);
  ASSERT_EQ(table.size(), std::size(sw::remote::kRequests)) << "a name twice in kRequests";

  ServerThread server(config("hx2mesh-16"));
  Client c(client_options(server.port(), 10));
  c.hello();
  c.send_raw("{\"req\":\"frobnicate\"}\n");
  const json r = c.read_reply();
  ASSERT_EQ(r.value("error", std::string()), "unknown_request") << r.dump();
  const std::string msg = r.value("message", std::string());
  const std::smatch m = [&] {
    std::smatch k;
    std::regex_search(msg, k, std::regex(R"(\(requests: ([a-z_, ]+)\))"));
    return k;
  }();
  ASSERT_EQ(m.size(), 2u) << msg;
  std::set<std::string> listed;
  std::stringstream names(m[1].str());
  for (std::string n; std::getline(names, n, ',');) listed.insert(n.substr(n.find_first_not_of(' ')));
  EXPECT_EQ(listed, table);
  // The dispatcher knows every listed name (the reply to a bare request is never unknown_request)
  // and no other.
  for (const std::string& name : listed) {
    Client k(client_options(server.port(), 10));
    k.hello();
    k.send_raw(sw::remote::dump_line({{"req", name}}));
    EXPECT_NE(k.read_reply().value("error", std::string()), "unknown_request") << name;
  }
  for (const char* name : {"Hello", "waits", "stat", "", "hello "}) {
    c.send_raw(sw::remote::dump_line({{"req", name}}));
    EXPECT_EQ(c.read_reply().value("error", std::string()), "unknown_request") << name;
  }
  // docs/remote-protocol.md documents exactly these requests (its table's first column).
  std::ifstream doc(std::string(HX_DOCS_DIR) + "/remote-protocol.md");
  ASSERT_TRUE(doc) << "docs/remote-protocol.md";
  std::set<std::string> documented;
  bool in_table = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| request |", 0) == 0) {
      in_table = true;
    } else if (in_table && line.rfind("| `", 0) == 0) {
      documented.insert(line.substr(3, line.find('`', 3) - 3));
    } else if (in_table && line.rfind("| ---", 0) != 0) {
      in_table = false;
    }
  }
  EXPECT_EQ(documented, table);
}

}  // namespace
}  // namespace hxemu::test
