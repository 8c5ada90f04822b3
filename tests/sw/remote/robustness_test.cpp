// Bad input, each answered with an error naming the problem, after which a well-behaved client is
// still served; time semantics of waits and barriers; random bytes and truncated frames.
//   RemoteProtocol.Base64RoundTripsAndRejectsGarbage
//   RemoteRobustness.EveryBadInputGetsANamedError     one case per bad input, good client after each
//   RemoteRobustness.OversizedFrameIsSkipped          frame_too_large; the same connection goes on
//   RemoteRobustness.TooManyClients                   the connection over max_clients is refused
//   RemoteRobustness.DetachFreesTheNode               and a barrier others wait at is broken
//   RemoteTime.WaitsStopAtTheirCycle                  wait cycles/op/idle/any, deterministic cycles
//   RemoteTime.CycleCountsDoNotDependOnRequestOrder   the same two-client exchange, client order
//                                                     and delays varied: identical event cycles
//   RemoteFuzz.RandomBytesAndTruncatedFrames          a few seconds of garbage from several
//                                                     connections; no crash; good client after
#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "remote_test_util.h"

namespace hxemu::test {
namespace {

using sw::remote::Client;
using sw::remote::json;

TEST(RemoteProtocol, Base64RoundTripsAndRejectsGarbage) {
  std::mt19937 rng(3);
  for (std::size_t n = 0; n < 40; ++n) {
    std::vector<std::uint8_t> data(n);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    const std::string s = sw::remote::base64_encode(data.data(), data.size());
    std::vector<std::uint8_t> back;
    ASSERT_TRUE(sw::remote::base64_decode(s, back)) << s;
    EXPECT_EQ(back, data);
  }
  std::vector<std::uint8_t> out;
  EXPECT_FALSE(sw::remote::base64_decode("abc", out));       // not a multiple of 4
  EXPECT_FALSE(sw::remote::base64_decode("ab=c", out));      // data after padding
  EXPECT_FALSE(sw::remote::base64_decode("a===", out));      // too much padding
  EXPECT_FALSE(sw::remote::base64_decode("ab!d", out));      // not in the alphabet
  EXPECT_FALSE(sw::remote::base64_decode("AB==", out));      // non-zero bits dropped by padding
  EXPECT_TRUE(sw::remote::base64_decode("AA==", out));
}

// Sends one raw line on the connection and returns the reply.
json raw(Client& c, const std::string& line) {
  c.send_raw(line + "\n");
  return c.read_reply();
}

void expect_error(const json& r, const std::string& code, const std::string& mentions, const std::string& what) {
  EXPECT_EQ(r.value("ok", true), false) << what << ": " << r.dump();
  EXPECT_EQ(r.value("error", std::string()), code) << what << ": " << r.dump();
  EXPECT_NE(r.value("message", std::string()).find(mentions), std::string::npos)
      << what << ": the message should mention '" << mentions << "': " << r.dump();
}

TEST(RemoteRobustness, EveryBadInputGetsANamedError) {
  ServerThread server(config("hx2mesh-16"));
  const auto port = server.port();
  struct Case {
    const char* what;
    bool hello, attach;   // preamble on the connection
    std::string line;
    const char* code;
    const char* mentions;
  };
  const std::vector<Case> cases = {
      {"not JSON", false, false, "this is not json", "bad_frame", "JSON"},
      {"truncated JSON", true, false, "{\"req\":\"hello\",\"vers", "bad_frame", "JSON"},
      {"binary garbage", true, false, std::string("\x01\x02\xff\xfe{", 5), "bad_frame", "JSON"},
      {"JSON array", true, false, "[1,2,3]", "bad_frame", "object"},
      {"no req field", true, false, "{\"node\":1}", "bad_frame", "req"},
      {"req not a string", true, false, "{\"req\":5}", "bad_frame", "req"},
      {"deeply nested", true, false, std::string(5000, '[') + std::string(5000, ']'), "bad_frame", "object"},
      {"before hello", false, false, "{\"req\":\"attach\",\"node\":0}", "handshake_required", "hello"},
      {"wrong version", false, false, "{\"req\":\"hello\",\"version\":99}", "version", "99"},
      {"hello without version", false, false, "{\"req\":\"hello\"}", "bad_argument", "version"},
      {"unknown request", true, false, "{\"req\":\"frobnicate\"}", "unknown_request", "frobnicate"},
      {"node out of range", true, false, "{\"req\":\"attach\",\"node\":16}", "bad_argument", "node 16"},
      {"negative node", true, false, "{\"req\":\"attach\",\"node\":-1}", "bad_argument", "negative"},
      {"node not an integer", true, false, "{\"req\":\"attach\",\"node\":\"zero\"}", "bad_argument", "integer"},
      {"fractional node", true, false, "{\"req\":\"attach\",\"node\":1.5}", "bad_argument", "integer"},
      {"huge node", true, false, "{\"req\":\"attach\",\"node\":1e30}", "bad_argument", "integer"},
      {"put before attach", true, false, "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":0,\"dst\":0,\"len\":4,\"tag\":0}",
       "not_attached", "attach"},
      {"attach twice", true, true, "{\"req\":\"attach\",\"node\":3}", "already_attached", "detach"},
      {"rail out of range", true, true, "{\"req\":\"put\",\"rail\":4,\"peer\":1,\"src\":0,\"dst\":0,\"len\":4,\"tag\":0}",
       "bad_argument", "rail 4"},
      {"peer out of range", true, true, "{\"req\":\"put\",\"rail\":0,\"peer\":99,\"src\":0,\"dst\":0,\"len\":4,\"tag\":0}",
       "bad_argument", "peer node 99"},
      {"put source outside memory", true, true,
       "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":4194300,\"dst\":0,\"len\":8,\"tag\":0}", "bad_argument",
       "outside host memory"},
      {"put destination outside memory", true, true,
       "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":0,\"dst\":4294967295,\"len\":8,\"tag\":0}", "bad_argument",
       "outside host memory"},
      {"oversized length", true, true,
       "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":0,\"dst\":0,\"len\":4294967296,\"tag\":0}", "bad_argument",
       "len"},
      {"tag out of range", true, true, "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":0,\"dst\":0,\"len\":8,\"tag\":65536}",
       "bad_argument", "tag"},
      {"put missing a field", true, true, "{\"req\":\"put\",\"rail\":0,\"peer\":1,\"src\":0,\"len\":8,\"tag\":0}",
       "bad_argument", "dst"},
      {"read past the end", true, true, "{\"req\":\"read\",\"addr\":4194296,\"len\":16}", "bad_argument",
       "outside host memory"},
      {"read too long", true, true, "{\"req\":\"read\",\"addr\":0,\"len\":2000000}", "bad_argument", "max_read"},
      {"write not base64", true, true, "{\"req\":\"write\",\"addr\":0,\"data\":\"@@@@\"}", "bad_argument", "base64"},
      {"write past the end", true, true, "{\"req\":\"write\",\"addr\":4194303,\"data\":\"AAAA\"}", "bad_argument",
       "outside host memory"},
      {"reduce of a partial element", true, true, "{\"req\":\"reduce\",\"rail\":0,\"dst\":0,\"src\":64,\"len\":6}",
       "bad_argument", "multiple of 4"},
      {"reduce of an unknown type", true, true,
       "{\"req\":\"reduce\",\"rail\":0,\"dst\":0,\"src\":64,\"len\":8,\"dtype\":\"int8\"}", "bad_argument", "int8"},
      {"copy outside memory", true, true, "{\"req\":\"copy\",\"rail\":1,\"dst\":4194300,\"src\":0,\"len\":64}",
       "bad_argument", "outside host memory"},
      {"wait for an unknown thing", true, true, "{\"req\":\"wait\",\"for\":\"godot\"}", "bad_argument", "godot"},
      {"wait for an op never issued", true, true, "{\"req\":\"wait\",\"for\":\"op\",\"op\":42}", "bad_argument", "op 42"},
      {"barrier larger than the machine", true, true, "{\"req\":\"wait\",\"for\":\"barrier\",\"count\":17}",
       "bad_argument", "barrier count 17"},
      {"wait before attach", true, false, "{\"req\":\"wait\",\"for\":\"any\"}", "not_attached", "attach"},
      {"stats of a missing node", true, false, "{\"req\":\"stats\",\"node\":16}", "bad_argument", "node 16"},
  };
  for (const Case& k : cases) {
    {
      Client c(client_options(port, 30));
      if (k.hello) c.hello();
      if (k.attach) c.attach(2);
      const json r = raw(c, k.line);
      expect_error(r, k.code, k.mentions, k.what);
      // The connection itself still works after the error.
      if (k.hello) {
        EXPECT_TRUE(raw(c, "{\"req\":\"stats\",\"node\":0}").value("ok", false)) << k.what;
      }
    }   // disconnect: an attached client would hold the clock
    EXPECT_EQ(good_client(port), "") << "after: " << k.what;
  }
  // A second attach to a taken node.
  Client holder(client_options(port));
  holder.hello();
  holder.attach(7);
  Client second(client_options(port));
  second.hello();
  expect_error(raw(second, "{\"req\":\"attach\",\"node\":7}"), "node_taken", "node 7", "taken node");
  holder.detach();
  second.attach(7);   // free again
  second.detach();
  EXPECT_EQ(good_client(port), "");
  // The id is echoed, on errors too.
  EXPECT_EQ(raw(second, "{\"req\":\"frob\",\"id\":\"x1\"}").value("id", std::string()), "x1");
}

TEST(RemoteRobustness, OversizedFrameIsSkipped) {
  sw::remote::ServerOptions so;
  so.max_frame = 4096;
  ServerThread server(config("hx2mesh-16"), so);
  Client c(client_options(server.port()));
  c.hello();
  for (std::size_t len : {4096u, 4097u, 10000u, 100000u}) {
    const std::string line = "{\"req\":\"write\",\"addr\":0,\"data\":\"" + std::string(len, 'A') + "\"}";
    expect_error(raw(c, line), "frame_too_large", "max_frame", "oversized frame");
    EXPECT_TRUE(raw(c, "{\"req\":\"stats\",\"node\":1}").value("ok", false)) << "the connection goes on";
  }
  EXPECT_EQ(good_client(server.port()), "");
}

TEST(RemoteRobustness, TooManyClients) {
  sw::remote::ServerOptions so;
  so.max_clients = 3;
  ServerThread server(config("hx2mesh-16"), so);
  std::vector<std::unique_ptr<Client>> open;
  for (int i = 0; i < 2; ++i) {
    open.push_back(std::make_unique<Client>(client_options(server.port())));
    open.back()->hello();
  }
  Client third(client_options(server.port()));
  third.hello();
  Client fourth(client_options(server.port()));
  const json r = fourth.read_reply();   // the server speaks first, then closes
  expect_error(r, "too_many_clients", "3", "fourth connection");
  third.close();
  open.clear();
  // The server sees the closes asynchronously: a slot is free within a (short) deadline. Until
  // then a connection is refused (too_many_clients, or a reset if the refusal's close overtakes
  // the client's hello).
  std::string served = "not tried";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (served != "" && std::chrono::steady_clock::now() < deadline) {
    served = good_client(server.port());
    if (served != "") std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(served, "");
}

TEST(RemoteRobustness, DetachFreesTheNodeAndBreaksBarriers) {
  ServerThread server(config("hx2mesh-16"));
  Client a(client_options(server.port()));
  a.hello();
  a.attach(0);
  Client b(client_options(server.port()));
  b.hello();
  b.attach(1);
  // a waits at a barrier of 3; b leaves: a's barrier is broken.
  a.send_raw("{\"req\":\"wait\",\"for\":\"barrier\",\"count\":3,\"id\":9}\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  b.close();
  const json r = a.read_reply();
  expect_error(r, "barrier_broken", "node 1", "barrier after a detach");
  EXPECT_EQ(r.value("id", 0), 9);
  Client c(client_options(server.port()));
  c.hello();
  c.attach(1);   // node 1 is free again
  c.detach();
  a.detach();
  EXPECT_EQ(good_client(server.port()), "");
}

TEST(RemoteTime, WaitsStopAtTheirCycle) {
  ServerThread server(config("hx2mesh-16"));
  Client c(client_options(server.port()));
  c.hello();
  c.attach(0);
  const std::uint64_t t0 = c.now();
  EXPECT_EQ(c.wait_cycles(0).cycle, t0);
  EXPECT_EQ(c.wait_cycles(1000).cycle, t0 + 1000);   // an idle machine jumps
  EXPECT_EQ(c.wait_idle().cycle, t0 + 1000);
  // A put: its TX completion, then the network drains; the message lands at node 3.
  std::vector<std::uint8_t> data(4096, 0x5a);
  c.write(0, data.data(), data.size());
  const std::uint64_t posted = c.now();
  const auto op = c.put(0, 3, 0, 8192, 4096, 5);
  const auto w = c.wait_op(op);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(w.events[0].kind, sw::remote::EventKind::kPutDone);
  EXPECT_EQ(w.events[0].cycle, w.cycle);
  EXPECT_GT(w.cycle, posted + 4096 / 32);   // at least the serialization of 128 flits
  const auto idle = c.wait_idle();
  EXPECT_GE(idle.cycle, w.cycle);
  // Nothing else can happen: a wait for any event is refused once the machine is idle.
  try {
    c.wait_any();
    ADD_FAILURE() << "wait any on an idle machine returned";
  } catch (const sw::remote::RemoteError& e) {
    EXPECT_EQ(e.code(), "never");
  }
  // A copy takes ceil(len * cycles_per_byte) cycles from the cycle it is issued.
  const std::uint64_t t1 = c.now();
  const auto cp = c.copy(1, 16384, 0, 4096);
  const auto done = c.wait_op(cp);
  EXPECT_EQ(done.cycle, t1 + 4096 / 32);
  EXPECT_EQ(c.read(16384, 4096), data);
  const json s = c.stats(3);
  EXPECT_EQ(s["nodes"][0]["rails"][0]["rx_completions"].get<int>(), 1);
  EXPECT_EQ(s["nodes"][0]["rails"][0]["rx_bytes"].get<int>(), 4096);
}

// Two clients exchange messages; one of them dawdles before each request, and the order in which
// they attach varies. The cycles of every event must not change.
std::vector<std::uint64_t> exchange(std::uint16_t port, bool a_first, int delay_ms) {
  std::vector<std::uint64_t> cycles;
  std::mutex mu;
  auto side = [&](int me, int peer, int delay) {
    Client c(client_options(port));
    c.hello();
    c.attach(me);
    c.barrier(2);
    for (int round = 0; round < 3; ++round) {
      if (delay) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      c.put(round % 4, peer, 0, 65536 + 4096 * round, 2048 * (round + 1), static_cast<std::uint16_t>(round));
      int got_put = 0, got_msg = 0;
      while (got_put < 1 || got_msg < 1) {
        for (const auto& e : c.wait_any().events) {
          got_put += e.kind == sw::remote::EventKind::kPutDone;
          got_msg += e.kind == sw::remote::EventKind::kMessage;
          std::lock_guard<std::mutex> lock(mu);
          cycles.push_back(static_cast<std::uint64_t>(me) << 48 | e.cycle);
        }
      }
    }
    c.detach();
  };
  std::thread ta, tb;
  if (a_first) {
    ta = std::thread(side, 4, 9, delay_ms);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    tb = std::thread(side, 9, 4, 0);
  } else {
    tb = std::thread(side, 9, 4, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ta = std::thread(side, 4, 9, delay_ms);
  }
  ta.join();
  tb.join();
  std::sort(cycles.begin(), cycles.end());
  return cycles;
}

TEST(RemoteTime, CycleCountsDoNotDependOnRequestOrder) {
  std::vector<std::vector<std::uint64_t>> runs;
  for (auto [first, delay] : {std::pair{true, 0}, std::pair{false, 0}, std::pair{true, 30}, std::pair{false, 15}}) {
    ServerThread server(config("hx2mesh-16"));   // a fresh machine: absolute cycles compare
    runs.push_back(exchange(server.port(), first, delay));
  }
  ASSERT_EQ(runs[0].size(), 12u);
  for (std::size_t i = 1; i < runs.size(); ++i) EXPECT_EQ(runs[i], runs[0]) << "run " << i;
}

// A few seconds of garbage: random bytes, truncated and corrupted requests, valid requests with
// random values, abrupt disconnects, from several connections at once. The server must neither
// crash nor stop answering (the AddressSanitizer build checks for memory errors and leaks).
TEST(RemoteFuzz, RandomBytesAndTruncatedFrames) {
  sw::remote::ServerOptions so;
  so.max_frame = 65536;
  so.max_read = 65536;
  ServerThread server(config("hx2mesh-16"), so);
  const auto port = server.port();
  const std::vector<std::string> templates = {
      R"({"req":"hello","version":1})",
      R"({"req":"attach","node":3})",
      R"({"req":"write","addr":128,"data":"AAECAwQFBgc="})",
      R"({"req":"read","addr":0,"len":64})",
      R"({"req":"put","rail":1,"peer":6,"src":0,"dst":4096,"len":1024,"tag":9})",
      R"({"req":"reduce","rail":2,"dst":0,"src":512,"len":256,"dtype":"float32"})",
      R"({"req":"copy","rail":3,"dst":0,"src":512,"len":256})",
      R"({"req":"wait","for":"cycles","cycles":50})",
      R"({"req":"wait","for":"idle"})",
      R"({"req":"poll"})",
      R"({"req":"stats","node":2})",
      R"({"req":"detach"})",
  };
  std::atomic<std::uint64_t> sent{0}, connections{0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  auto fuzzer = [&](unsigned seed) {
    std::mt19937_64 rng(seed);
    while (std::chrono::steady_clock::now() < deadline) {
      boost::asio::io_context io;
      boost::asio::ip::tcp::socket s(io);
      boost::system::error_code ec;
      s.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
      if (ec) continue;
      ++connections;
      std::string out;
      const int mode = static_cast<int>(rng() % 5);
      const int lines = 1 + static_cast<int>(rng() % 12);
      if (mode != 0) out += templates[0] + "\n";   // most connections get past the handshake
      for (int i = 0; i < lines; ++i) {
        std::string t = templates[rng() % templates.size()];
        switch (mode) {
          case 0: {   // random bytes, some newlines
            const std::size_t n = rng() % 2000;
            for (std::size_t k = 0; k < n; ++k) t += static_cast<char>(rng() % 7 == 0 ? '\n' : rng() & 0xff);
            break;
          }
          case 1:   // truncated
            t = t.substr(0, rng() % t.size());
            break;
          case 2:   // corrupted bytes
            for (int k = 0; k < 3; ++k) t[rng() % t.size()] = static_cast<char>(rng() & 0xff);
            break;
          case 3: {   // valid shape, random numbers
            json j = json::parse(t);
            for (auto it = j.begin(); it != j.end(); ++it) {
              json& v = it.value();
              if (!v.is_number()) continue;
              switch (rng() % 5) {
                case 0: v = rng(); break;
                case 1: v = -static_cast<std::int64_t>(rng() % 100); break;
                case 2: v = static_cast<double>(rng() % 1000) / 7.0; break;
                case 3: v = rng() % 20; break;
                default: v = rng() % 70000; break;
              }
            }
            if (j["req"] == "wait" && j.value("for", "") == "cycles") j["cycles"] = rng() % 5000;
            if (j["req"] == "put" || j["req"] == "copy" || j["req"] == "reduce") {
              if (rng() % 2) j["len"] = rng() % 8192;
            }
            t = j.dump();
            break;
          }
          default:   // oversized
            t = std::string(70000 + rng() % 1000, 'x');
            break;
        }
        out += t;
        if (rng() % 8 != 0) out += "\n";
      }
      boost::asio::write(s, boost::asio::buffer(out), ec);
      sent += out.size();
      if (rng() % 3 == 0) {
        s.close(ec);   // abruptly, replies unread
        continue;
      }
      // Half-close and read what comes back, for a little while.
      s.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
      s.non_blocking(true, ec);
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      char buf[4096];
      while (std::chrono::steady_clock::now() < until) {
        const std::size_t n = s.read_some(boost::asio::buffer(buf), ec);
        if (ec == boost::asio::error::would_block) {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          continue;
        }
        if (ec || n == 0) break;
      }
      s.close(ec);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < 4; ++k) threads.emplace_back(fuzzer, 1000 + k);
  for (auto& t : threads) t.join();
  RecordProperty("fuzz_connections", std::to_string(connections.load()));
  RecordProperty("fuzz_bytes", std::to_string(sent.load()));
  EXPECT_GT(connections.load(), 20u);
  // Every fuzz connection is closed; once the server has seen the last of them, no node is held.
  Client c(client_options(port));
  c.hello();
  int attached = -1;
  for (int i = 0; i < 500 && attached != 0; ++i) {
    if (i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const json s = c.stats(0);
    EXPECT_TRUE(s.value("ok", false));
    attached = s.value("attached", -1);
  }
  EXPECT_EQ(attached, 0) << "every fuzz connection's node was freed";
  EXPECT_EQ(good_client(port), "");
}

}  // namespace
}  // namespace hxemu::test
