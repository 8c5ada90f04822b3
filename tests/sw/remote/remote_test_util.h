// Helpers of the remote-interface tests: a server on a loopback port served by a thread of its own,
// and a well-behaved client that proves the server still works.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include <boost/asio.hpp>

#include "sw/remote/client.h"
#include "sw/remote/server.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {

inline sysc::SystemConfig config(const std::string& name) {
  return sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + name + ".json");
}

// A Server on 127.0.0.1 (a free port) running on its own thread until destruction.
class ServerThread {
 public:
  explicit ServerThread(const sysc::SystemConfig& cfg, sw::remote::ServerOptions opt = {})
      : server_(cfg, opt), thread_([this] { server_.run(); }) {}
  ~ServerThread() {
    server_.stop();
    thread_.join();
  }
  std::uint16_t port() const { return server_.port(); }
  // Thread-safe counters of the server (Server::peak_backlog, Server::timeouts).
  const sw::remote::Server& server() const { return server_; }

 private:
  sw::remote::Server server_;
  std::thread thread_;
};

inline sw::remote::ClientOptions client_options(std::uint16_t port, double timeout = 60) {
  sw::remote::ClientOptions o;
  o.port = port;
  o.timeout_seconds = timeout;
  return o;
}

// A client that does everything right: hello, attach to `node`, write a pattern, put it to `peer`,
// wait for the put, wait for the network to drain, detach. Returns an empty string or what failed.
inline std::string good_client(std::uint16_t port, int node = 14, int peer = 15) {
  try {
    sw::remote::Client c(client_options(port, 30));
    const auto info = c.hello("good client");
    if (info.nodes <= node || info.nodes <= peer) return "the machine is too small";
    c.attach(node);
    std::vector<std::uint8_t> data(4096);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + node);
    c.write(8192, data.data(), data.size());
    const auto op = c.put(0, peer, 8192, 65536, 4096, 77);
    const auto w = c.wait_op(op);
    bool seen = false;
    for (const auto& e : w.events) seen = seen || (e.kind == sw::remote::EventKind::kPutDone && e.op == op);
    if (!seen) return "no put_done event for the put";
    c.wait_idle();
    if (c.read(8192, 4096) != data) return "memory read back differs";
    c.detach();
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

// A bare TCP connection to the server that speaks no protocol of its own: for clients that
// misbehave on purpose (silent, trickling bytes). Non-blocking underneath; every wait has a deadline.
class RawConnection {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RawConnection(std::uint16_t port) : socket_(io_) {
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    socket_.non_blocking(true);
  }

  // Sends `bytes`; false if the connection broke or they did not go out within a second.
  bool send(const std::string& bytes) {
    std::size_t off = 0;
    const auto deadline = Clock::now() + std::chrono::seconds(1);
    while (off < bytes.size() && Clock::now() < deadline) {
      boost::system::error_code ec;
      off += socket_.write_some(boost::asio::buffer(bytes.data() + off, bytes.size() - off), ec);
      if (ec == boost::asio::error::would_block) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      } else if (ec) {
        return false;
      }
    }
    return off == bytes.size();
  }

  // Takes what the server has sent so far into received(); true once the server has closed the
  // connection (end of stream or reset).
  bool poll_closed() {
    char buf[4096];
    for (;;) {
      boost::system::error_code ec;
      const std::size_t n = socket_.read_some(boost::asio::buffer(buf), ec);
      received_.append(buf, n);
      if (ec == boost::asio::error::would_block) return false;
      if (ec) return true;
    }
  }

  // Polls until the server closes the connection or `deadline` passes; returns whether it closed.
  bool wait_closed(Clock::time_point deadline) {
    while (!poll_closed()) {
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
  }

  const std::string& received() const { return received_; }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  std::string received_;
};

}  // namespace hxemu::test
