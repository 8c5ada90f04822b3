// The server's timeouts (ServerOptions; docs/remote-protocol.md, "Limits and timeouts"), each with
// a short configured value and the others off, so that each test sees one of them at work:
//   RemoteTimeouts.HandshakeTimeoutFreesTheSlot        silent connections filling max_clients are
//                                                      closed after handshake_timeout; others connect
//   RemoteTimeouts.IdleTimeoutClosesATrickleNotAWait   bytes without a complete line are no
//                                                      activity; requests and a parked wait are
//   RemoteTimeouts.HoldTimeoutDetachesAndTimeResumes   an attached client that does nothing while
//                                                      another waits is detached; time resumes
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "remote_test_util.h"

namespace hxemu::test {
namespace {

using sw::remote::Client;
using sw::remote::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kTimeout{300};
// A timeout fires within an eighth of its value (the sweep); this is room for a loaded machine.
constexpr milliseconds kSlack{2000};

sw::remote::ServerOptions no_timeouts() {
  sw::remote::ServerOptions so;
  so.handshake_timeout = so.idle_timeout = so.hold_timeout = milliseconds(0);
  return so;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The one line the server sent before closing a connection for a timeout.
json closing_reply(const RawConnection& c) {
  const std::string& got = c.received();
  const auto nl = got.find('\n');
  if (nl == std::string::npos || nl + 1 != got.size()) return json{{"unexpected", got}};
  return json::parse(got.substr(0, nl), nullptr, false);
}

TEST(RemoteTimeouts, HandshakeTimeoutFreesTheSlot) {
  auto so = no_timeouts();
  so.max_clients = 2;
  so.handshake_timeout = kTimeout;
  ServerThread server(config("hx2mesh-16"), so);
  const auto t0 = Clock::now();
  RawConnection silent1(server.port()), silent2(server.port());
  // Both slots are taken: a third connection is refused.
  {
    Client third(client_options(server.port(), 10));
    EXPECT_EQ(third.read_reply().value("error", std::string()), "too_many_clients");
  }
  for (RawConnection* c : {&silent1, &silent2}) {
    ASSERT_TRUE(c->wait_closed(t0 + kTimeout + kSlack)) << "a silent connection was not closed";
    const json r = closing_reply(*c);
    EXPECT_EQ(r.value("error", std::string()), "timeout") << r.dump();
    EXPECT_NE(r.value("message", std::string()).find("handshake_timeout (300 ms)"), std::string::npos) << r.dump();
  }
  EXPECT_GE(ms_since(t0), kTimeout.count()) << "closed before its timeout";
  EXPECT_EQ(server.server().timeouts().handshake, 2u);
  // The slots are free again; a client that says hello in time is not closed afterwards.
  Client greeted(client_options(server.port(), 10));
  greeted.hello();
  EXPECT_EQ(good_client(server.port()), "");
  std::this_thread::sleep_for(2 * kTimeout);
  EXPECT_TRUE(greeted.stats(0).value("ok", false));
  EXPECT_EQ(server.server().timeouts().handshake, 2u);
}

TEST(RemoteTimeouts, IdleTimeoutClosesATrickleNotAWait) {
  auto so = no_timeouts();
  so.idle_timeout = kTimeout;
  ServerThread server(config("hx2mesh-16"), so);
  // A slow loris: hello, then a byte every 20 ms of a request that never ends.
  {
    RawConnection loris(server.port());
    ASSERT_TRUE(loris.send("{\"req\":\"hello\",\"version\":1}\n"));
    const auto t0 = Clock::now();
    const std::string body = "{\"req\":\"stats\",\"node\":0" + std::string(4000, ' ');
    bool closed = false;
    for (std::size_t i = 0; i < body.size() && !closed && Clock::now() < t0 + kTimeout + kSlack; ++i) {
      loris.send(body.substr(i, 1));
      std::this_thread::sleep_for(milliseconds(20));
      closed = loris.poll_closed();
    }
    ASSERT_TRUE(closed) << "a client trickling bytes was not closed";
    EXPECT_GE(ms_since(t0), kTimeout.count() - 20);
    const std::string& got = loris.received();
    const auto nl = got.find('\n');   // the hello reply, then the timeout
    ASSERT_NE(nl, std::string::npos);
    const json r = json::parse(got.substr(nl + 1), nullptr, false);
    EXPECT_EQ(r.value("error", std::string()), "timeout") << got;
    EXPECT_NE(r.value("message", std::string()).find("idle_timeout (300 ms)"), std::string::npos) << got;
    EXPECT_EQ(server.server().timeouts().idle, 1u);
  }
  // A complete request every 100 ms is activity: served throughout.
  {
    Client steady(client_options(server.port(), 10));
    steady.hello();
    for (int i = 0; i < 12; ++i) {
      std::this_thread::sleep_for(milliseconds(100));
      EXPECT_TRUE(steady.stats(0).value("ok", false)) << i;
    }
  }
  // A wait parked for longer than the timeout is not idleness: the server owes the reply.
  Client parked(client_options(server.port(), 10));
  parked.hello();
  parked.attach(0);
  parked.send_raw("{\"req\":\"wait\",\"for\":\"barrier\",\"count\":2,\"id\":1}\n");
  std::this_thread::sleep_for(3 * kTimeout);
  Client partner(client_options(server.port(), 10));
  partner.hello();
  partner.attach(1);
  const auto mine = partner.barrier(2);
  const json r = parked.read_reply();
  EXPECT_TRUE(r.value("ok", false)) << r.dump();
  EXPECT_EQ(r.value("cycle", std::uint64_t{1}), mine.cycle);
  parked.detach();
  partner.detach();
  EXPECT_EQ(server.server().timeouts().idle, 1u) << "only the slow loris timed out";
}

TEST(RemoteTimeouts, HoldTimeoutDetachesAndTimeResumes) {
  auto so = no_timeouts();
  so.hold_timeout = kTimeout;
  ServerThread server(config("hx2mesh-16"), so);
  Client holder(client_options(server.port(), 10));
  holder.hello();
  holder.attach(0);
  // Alone, an attached client that does nothing holds nobody up: it stays attached.
  std::this_thread::sleep_for(2 * kTimeout);
  EXPECT_EQ(server.server().timeouts().hold, 0u);
  Client waiter(client_options(server.port(), 10));
  waiter.hello();
  waiter.attach(1);
  const std::uint64_t t = waiter.now();
  // The holder keeps sending requests for a while (that is activity), then stops.
  std::thread busy([&] {
    for (int i = 0; i < 8; ++i) {
      std::this_thread::sleep_for(milliseconds(100));
      holder.stats(0);
    }
  });
  const auto t0 = Clock::now();
  const auto w = waiter.wait_cycles(1000);   // held still until the holder is detached
  busy.join();
  EXPECT_GE(ms_since(t0), 800 + kTimeout.count() - 50);
  EXPECT_LT(ms_since(t0), 800 + kTimeout.count() + kSlack.count());
  EXPECT_EQ(w.cycle, t + 1000) << "time resumed for the waiter";
  EXPECT_EQ(server.server().timeouts().hold, 1u);
  // The holder's next request is not run: it learns that it was detached.
  try {
    holder.stats(0);
    ADD_FAILURE() << "the detached client's next request was run";
  } catch (const sw::remote::RemoteError& e) {
    EXPECT_EQ(e.code(), "detached");
    EXPECT_NE(std::string(e.what()).find("hold_timeout (300 ms)"), std::string::npos) << e.what();
  }
  // Its connection goes on, its node is free: it may attach again.
  EXPECT_TRUE(holder.stats(0).value("ok", false));
  EXPECT_FALSE(holder.stats(0)["nodes"][0].value("attached", true));
  holder.attach(0);
  holder.detach();
  waiter.detach();
  EXPECT_EQ(good_client(server.port()), "");
}

}  // namespace
}  // namespace hxemu::test
