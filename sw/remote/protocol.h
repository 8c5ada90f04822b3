// The remote host protocol (docs/remote-protocol.md): JSON lines over TCP. What server and client
// share -- the version, the error codes, events and their JSON form, base64 for memory contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hxemu::sw::remote {

using nlohmann::json;

inline constexpr int kProtocolVersion = 1;

// Error codes of {"ok": false, "error": CODE, "message": "..."} replies.
enum class ErrorCode {
  kBadFrame,          // not a JSON object on one line
  kFrameTooLarge,     // a line longer than the server's max_frame
  kUnknownRequest,    // "req" names no request
  kBadArgument,       // a field is missing, of the wrong type, or out of range
  kHandshake,         // a request before hello
  kVersion,           // hello with a version the server does not speak
  kNotAttached,       // the request needs an attached node
  kAlreadyAttached,   // attach while attached
  kNodeTaken,         // another client holds the node
  kTooManyClients,    // the server's max_clients connections are open
  kNever,             // a wait that cannot complete: the machine is idle and nobody else waits for time
  kBarrierBroken,     // a client detached while others waited at a barrier
  kEmulationFailed,   // the emulation threw; the server only answers hello and stats now
  kTimeout,           // the connection was closed: no hello, or no request, within the server's timeout
  kDetached,          // the client held the clock too long without waiting: its node was detached
  kInternal,          // a bug in the server
};
const char* error_name(ErrorCode c);

// The requests a client may send. This one table is what the server dispatches on and what its
// unknown_request error lists, so the two cannot disagree.
enum class RequestKind { kHello, kAttach, kDetach, kWrite, kRead, kPut, kReduce, kCopy, kWait, kPoll, kStats };

// What a request needs before it runs; each level includes the ones before it, and they are
// checked in this order (handshake_required, not_attached, emulation_failed).
enum class Needs {
  kNothing,    // hello
  kHello,      // a completed hello
  kNode,       // an attached node
  kLiveNode,   // an attached node and an emulation that has not failed
};

struct RequestSpec {
  RequestKind kind;
  const char* name;
  Needs needs;
};

// Every request, in the order the protocol document lists them.
inline constexpr RequestSpec kRequests[] = {
    {RequestKind::kHello, "hello", Needs::kNothing},     {RequestKind::kAttach, "attach", Needs::kHello},
    {RequestKind::kDetach, "detach", Needs::kNode},      {RequestKind::kWrite, "write", Needs::kLiveNode},
    {RequestKind::kRead, "read", Needs::kLiveNode},      {RequestKind::kPut, "put", Needs::kLiveNode},
    {RequestKind::kReduce, "reduce", Needs::kLiveNode},  {RequestKind::kCopy, "copy", Needs::kLiveNode},
    {RequestKind::kWait, "wait", Needs::kLiveNode},      {RequestKind::kPoll, "poll", Needs::kNode},
    {RequestKind::kStats, "stats", Needs::kHello},
};
// The entry named `name`, or nullptr.
const RequestSpec* find_request(std::string_view name);
const char* request_name(RequestKind k);
// "hello, attach, ..., stats": the names of kRequests, for error messages.
std::string request_names();

// A server error reply, thrown by the client library.
class RemoteError : public std::runtime_error {
 public:
  RemoteError(std::string code, const std::string& message)
      : std::runtime_error(code + ": " + message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// What a host sees (a NIC completion or a finished reduction-engine job), visible from `cycle`.
enum class EventKind { kPutDone, kMessage, kReduceDone, kCopyDone };
const char* event_name(EventKind k);

struct Event {
  EventKind kind = EventKind::kPutDone;
  std::uint64_t op = 0;       // put_done, reduce_done, copy_done: the op id the server returned
  int rail = 0;
  int node = 0;               // put_done: the destination; message: the source
  std::uint16_t tag = 0;      // put_done, message
  std::uint32_t len = 0;      // message: bytes
  std::uint64_t cycle = 0;
};
json event_json(const Event& e);
// Throws std::invalid_argument on a malformed event.
Event event_from_json(const json& j);

std::string base64_encode(const void* data, std::size_t n);
// False on anything that is not canonical padded base64.
bool base64_decode(std::string_view s, std::vector<std::uint8_t>& out);

// JSON text for the wire: invalid UTF-8 in strings is replaced rather than thrown about.
std::string dump_line(const json& j);

}  // namespace hxemu::sw::remote
