// Server: the remote host interface on TCP (docs/remote-protocol.md). One io_context on one thread
// does everything -- accepting, reading and writing JSON lines asynchronously, and running the
// emulation (RemoteMachine::advance) in slices posted between the I/O handlers -- so the emulated
// machine is only ever touched by that thread and runs deterministically.
//
// Per connection: requests are read ahead and handled in order; a wait parks the connection's
// queue until its reply. Reading continues while a wait is parked (so a client that disconnects is
// noticed at once) until max_backlog bytes of requests are buffered: then the server stops reading
// that socket and TCP flow control holds the client back. Queued requests are handled in slices
// (kSliceRequests requests or kSliceBytes bytes), each its own handler, so one connection's backlog
// interleaves with every other connection's requests and with the emulation. A line longer than
// max_frame gets a frame_too_large error (in its place in the reply order) and is skipped up to its
// newline. A periodic sweep applies the handshake, idle and hold timeouts (ServerOptions).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>

#include <boost/asio.hpp>

#include "sw/remote/machine.h"

namespace hxemu::sw::remote {

class Server {
 public:
  // Builds the machine and binds. Throws std::invalid_argument naming a bad option (before any
  // host memory is allocated) and std::runtime_error naming the address if it cannot listen.
  Server(const sysc::SystemConfig& cfg, const ServerOptions& opt);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::uint16_t port() const { return port_; }
  // Not thread-safe while run() runs on another thread (the machine belongs to that thread).
  const RemoteMachine& machine() const { return *machine_; }
  // The options in force, defaults resolved.
  const ServerOptions& options() const { return opt_; }

  // Serves until stop(); call from one thread.
  void run();
  // Thread-safe: closes every connection and makes run() return.
  void stop();
  // stop() on SIGINT and SIGTERM (for the command line).
  void stop_on_signals();

  // Thread-safe: the most request bytes one connection ever had buffered but not yet handled
  // (never above max_backlog), and the connections closed or detached by each timeout so far.
  std::size_t peak_backlog() const { return peak_backlog_.load(); }
  struct TimeoutCounts {
    std::uint64_t handshake = 0, idle = 0, hold = 0;
  };
  TimeoutCounts timeouts() const { return {handshake_closed_.load(), idle_closed_.load(), hold_detached_.load()}; }

  // Emulated cycles run per slice between I/O handlers.
  static constexpr std::uint64_t kSliceCycles = 256;
  // Requests, and request bytes, one connection has handled per slice before others get a turn.
  static constexpr int kSliceRequests = 32;
  static constexpr std::size_t kSliceBytes = 256u << 10;

 private:
  class Session;
  using Clock = std::chrono::steady_clock;
  void accept();
  void schedule_advance();
  void deliver(RemoteMachine::ClientId id, const json& reply);
  void session_closed(RemoteMachine::ClientId id);
  void note_backlog(std::size_t bytes);
  void start_sweep();
  void arm_sweep();
  void sweep();
  void close_all();

  ServerOptions opt_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer sweep_timer_;
  Clock::duration sweep_every_{};   // zero: no timeouts configured
  std::unique_ptr<boost::asio::signal_set> signals_;
  std::unique_ptr<RemoteMachine> machine_;
  std::map<RemoteMachine::ClientId, std::shared_ptr<Session>> sessions_;
  std::uint16_t port_ = 0;
  bool advance_scheduled_ = false;
  bool stopping_ = false;
  std::atomic<std::size_t> peak_backlog_{0};
  std::atomic<std::uint64_t> handshake_closed_{0}, idle_closed_{0}, hold_detached_{0};
};

}  // namespace hxemu::sw::remote
