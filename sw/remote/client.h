// Client: the C++ client library of the remote host interface (docs/remote-protocol.md) --
// synchronous calls over one TCP connection (Boost.Asio), each with a wall-clock timeout. Server
// error replies throw RemoteError (its code() is the protocol's error code); a broken connection or
// a timeout throws TransportError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/asio.hpp>

#include "sw/remote/protocol.h"
#include "sw/runtime/program.h"

namespace hxemu::sw::remote {

class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The hello reply.
struct SystemInfo {
  int version = 0;
  std::string name, topology;
  int nodes = 0, rails = 0, flit_bits = 0, max_packet_flits = 0;
  double clock_ghz = 0;
  std::uint64_t memory_bytes = 0;
  double reduce_cycles_per_byte = 0;
  std::size_t max_frame = 0, max_read = 0;
  int max_clients = 0;
};

// A wait or poll reply: the cycle the machine stands at and the events delivered.
struct WaitResult {
  std::uint64_t cycle = 0;
  std::vector<Event> events;
};

struct ClientOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  double timeout_seconds = 120;           // per call
  std::size_t max_reply = 256u << 20;     // longest reply line accepted
};

class Client {
 public:
  // Connects (throws TransportError if it cannot).
  explicit Client(const ClientOptions& opt);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // ---- requests ----------------------------------------------------------------------------
  SystemInfo hello(const std::string& name = "");
  void attach(int node);
  void detach();
  void write(std::uint32_t addr, const void* data, std::size_t n);    // in frames the server accepts
  std::vector<std::uint8_t> read(std::uint32_t addr, std::size_t n);  // in reads of max_read
  std::uint64_t put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len,
                    std::uint16_t tag);
  std::uint64_t reduce(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len, DataType type);
  std::uint64_t copy(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len);
  WaitResult wait_any();
  WaitResult wait_op(std::uint64_t op);
  WaitResult wait_cycles(std::uint64_t cycles);
  WaitResult wait_idle();
  WaitResult barrier(int count);
  WaitResult poll();
  json stats(int node = -1);

  // ---- lower level ---------------------------------------------------------------------------
  // One request; throws RemoteError on an error reply.
  json call(const json& req);
  // Several requests sent at once (pipelined) and their replies, in order; error replies are
  // returned, not thrown.
  std::vector<json> call_batch(const std::vector<json>& reqs);
  // Raw bytes out (for tests of malformed input) and one reply line in.
  void send_raw(const std::string& bytes);
  json read_reply();

  // The cycle of the last reply that carried one.
  std::uint64_t now() const { return now_; }
  const SystemInfo& info() const { return info_; }
  int node() const { return node_; }
  bool connected() const { return socket_.is_open(); }
  void close();

  static WaitResult wait_result(const json& reply);
  static json request_json(RequestKind kind);

 private:
  void run_until(const bool& done, const char* what);
  json parse_reply(const std::string& line);
  std::string read_line();

  ClientOptions opt_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::streambuf in_;
  SystemInfo info_;
  std::uint64_t now_ = 0;
  int node_ = -1;
};

}  // namespace hxemu::sw::remote
