// RemoteMachine: the emulated machine as the remote host interface serves it, without the sockets
// (sw/remote/server.h puts it on TCP). Clients are numbered connections; each may attach to one
// node and then drives that node's host -- its NICs, host memory and reduction engines, through
// the same HostEngine as the in-process HostCpu (sw/runtime/host_engine.h).
//
// Time (docs/remote-protocol.md, "Time"): the machine stands at cycle `now` (cycles before it have
// run). A request takes effect at `now`, exactly as HostCpu's reaction in cycle `now` would: a put
// is offered to the NIC from now + 1, a reduce/copy job that finds its engine free starts at now,
// events visible at now are those the hardware delivered before it. The emulation advances only
// while every attached client waits (advance()); it stops at the first cycle at which a waiting
// client's condition holds, answers every client whose condition holds then, and goes on once all
// attached clients wait again. So cycle counts depend on neither host scheduling nor the order in
// which requests from different clients arrive.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "sw/remote/protocol.h"
#include "sw/remote/server_options.h"
#include "sw/runtime/host_engine.h"
#include "sysc/host/nic_node.h"
#include "sysc/system/system.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw::remote {


class RemoteMachine {
 public:
  using ClientId = int;
  // `deliver` sends a reply that completes a parked wait (or ends it with an error); it must not
  // call back into the machine.
  using Deliver = std::function<void(ClientId, const json&)>;

  RemoteMachine(const sysc::SystemConfig& cfg, const ServerOptions& opt, Deliver deliver);
  ~RemoteMachine();

  const sysc::System& system() const { return *sys_; }
  const ServerOptions& options() const { return opt_; }
  std::uint64_t now() const;
  int clients() const { return static_cast<int>(clients_.size()); }
  int attached() const { return attached_; }

  ClientId connect();
  // The connection is gone: detach (node freed, events dropped, waits cancelled).
  void disconnect(ClientId c);
  // Whether the client has completed its hello.
  bool greeted(ClientId c) const;
  // The attached clients that hold simulated time still for others: those not waiting while some
  // attached client waits (empty once the emulation failed: time stands still anyway).
  std::vector<ClientId> clock_holders() const;
  // Detaches the client as detach does (it must not be waiting); its next request is not run but
  // answered with a `detached` error carrying `why`.
  void force_detach(ClientId c, const std::string& why);

  // One request. Returns the reply, or nothing when the client now waits (the reply comes through
  // `deliver`, from advance() or from another client's request).
  std::optional<json> handle(ClientId c, const json& req);

  // Runs the emulation for at most `max_cycles` cycles while every attached client waits. Returns
  // true when it stopped only for the budget (call again).
  bool advance(std::uint64_t max_cycles);

 private:
  struct Wait {
    enum class Kind { kAny, kOp, kCycles, kIdle, kBarrier } kind = Kind::kAny;
    std::uint64_t op = 0;
    std::uint64_t until = 0;   // kCycles: the cycle it ends at
    int count = 0;             // kBarrier: participants
    json id;                   // the request's id, echoed
  };
  struct Client {
    bool hello = false;
    int node = -1;
    std::uint64_t generation = 0;   // of the node, while attached
    std::uint64_t next_op = 1;
    std::unordered_set<std::uint64_t> pending;   // ops issued, not done
    std::deque<Event> events;
    std::uint64_t dropped = 0;
    bool waiting = false;
    Wait wait;
    std::string detached_why;   // force_detach's reason, the reply to the next request
  };
  struct PostedPut {
    std::uint64_t generation;
    std::uint64_t op;
    std::uint16_t peer;
    std::uint16_t tag;
  };
  struct RailCounters {
    std::uint64_t puts = 0, tx = 0, rx = 0, rx_bytes = 0, jobs = 0;
  };
  struct Node;
  class Collector;

  json error(ErrorCode code, const std::string& message) const;
  json ok() const;
  std::optional<json> dispatch(ClientId id, Client& c, const json& req, const std::string& name, const json& echo);
  json node_request(Client& c, const RequestSpec& spec, const json& req);
  json hello(Client& c, const json& req);
  json attach(ClientId id, Client& c, const json& req);
  json system_json() const;
  json stats(const json& req);
  std::optional<json> wait(ClientId id, Client& c, const json& req, const json& echo);
  json drain(Client& c);
  void detach(ClientId id, Client& c);

  void collect();                    // what the hosts see at now(), once per cycle
  bool satisfied(const Client& c) const;
  void answer_waits();               // replies to every waiting client whose condition holds
  bool barrier_holds_clock() const;
  bool quiet() const;                // nothing in flight and no host work
  void fail(const std::string& what);

  sysc::SystemConfig cfg_;
  ServerOptions opt_;
  Deliver deliver_;
  std::unique_ptr<sysc::NicFactory> nics_;
  std::unique_ptr<sysc::System> sys_;
  std::vector<std::uint32_t> routes_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::map<ClientId, Client> clients_;
  ClientId next_client_ = 1;
  int attached_ = 0;
  std::uint64_t collected_ = UINT64_MAX;   // cycle collect() last ran for
  std::string failed_;
};

}  // namespace hxemu::sw::remote
