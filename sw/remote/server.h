// Server: the remote host interface on TCP (docs/remote-protocol.md). One io_context on one thread
// does everything -- accepting, reading and writing JSON lines asynchronously, and running the
// emulation (RemoteMachine::advance) in slices posted between the I/O handlers -- so the emulated
// machine is only ever touched by that thread and runs deterministically.
//
// Per connection: requests are read ahead (at most max_pipeline) and handled in order; a wait
// parks the connection's queue until its reply. Reading continues while a wait is parked, so a
// client that disconnects is noticed at once and detached. A line longer than max_frame gets a
// frame_too_large error and is skipped up to its newline.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include <boost/asio.hpp>

#include "sw/remote/machine.h"

namespace hxemu::sw::remote {

class Server {
 public:
  // Builds the machine and binds (throws std::runtime_error naming the address if it cannot).
  Server(const sysc::SystemConfig& cfg, const ServerOptions& opt);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::uint16_t port() const { return port_; }
  const RemoteMachine& machine() const { return *machine_; }

  // Serves until stop(); call from one thread.
  void run();
  // Thread-safe: closes every connection and makes run() return.
  void stop();
  // stop() on SIGINT and SIGTERM (for the command line).
  void stop_on_signals();

  // Emulated cycles run per slice between I/O handlers.
  static constexpr std::uint64_t kSliceCycles = 256;

 private:
  class Session;
  void accept();
  void schedule_advance();
  void deliver(RemoteMachine::ClientId id, const json& reply);
  void session_closed(RemoteMachine::ClientId id);

  ServerOptions opt_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::unique_ptr<boost::asio::signal_set> signals_;
  std::unique_ptr<RemoteMachine> machine_;
  std::map<RemoteMachine::ClientId, std::shared_ptr<Session>> sessions_;
  std::uint16_t port_ = 0;
  bool advance_scheduled_ = false;
  bool stopping_ = false;
};

}  // namespace hxemu::sw::remote
