#include "sw/remote/machine.h"

#include <algorithm>
#include <limits>

namespace hxemu::sw::remote {

namespace {

// A request field that is missing, of the wrong type or out of range.
struct ArgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr std::size_t kMaxOpsInFlight = 65536;   // per client
constexpr std::uint64_t kQuietCheckEvery = 64;   // cycles between idle-machine checks
constexpr int kGenerationShift = 40;             // engine job token = generation << 40 | op

std::uint64_t job_token(std::uint64_t generation, std::uint64_t op) {
  return (generation << kGenerationShift) | op;   // generations wrap at 2^24, ops at 2^40
}
std::uint64_t token_generation(std::uint64_t token) { return token >> kGenerationShift; }
std::uint64_t token_op(std::uint64_t token) { return token & ((std::uint64_t{1} << kGenerationShift) - 1); }

std::uint64_t get_uint(const json& req, const char* key, std::uint64_t max) {
  auto it = req.find(key);
  if (it == req.end()) throw ArgError(std::string("missing field \"") + key + "\"");
  if (it->is_number_unsigned()) {
    const auto v = it->get<std::uint64_t>();
    if (v > max) {
      throw ArgError(std::string("\"") + key + "\" = " + std::to_string(v) + " is out of range (at most " +
                     std::to_string(max) + ")");
    }
    return v;
  }
  if (it->is_number_integer()) throw ArgError(std::string("\"") + key + "\" must not be negative");
  throw ArgError(std::string("\"") + key + "\" must be a non-negative integer");
}

std::string get_string(const json& req, const char* key) {
  auto it = req.find(key);
  if (it == req.end()) throw ArgError(std::string("missing field \"") + key + "\"");
  if (!it->is_string()) throw ArgError(std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

}  // namespace

struct RemoteMachine::Node {
  std::unique_ptr<HostEngine> engine;
  ClientId client = 0;                         // 0: none attached
  std::uint64_t generation = 0;                // bumped at every attach and detach
  std::vector<std::deque<PostedPut>> posted;   // per rail, in posting order
  std::vector<RailCounters> counters;
};

// Turns what a node's HostEngine reports at cycle `now` into events for its client; completions
// of ops whose client left are counted and dropped.
class RemoteMachine::Collector final : public HostEvents {
 public:
  Collector(Node& n, Client* c, std::uint64_t now, std::size_t max_events)
      : n_(n), c_(c), now_(now), max_events_(max_events) {}

  void tx_done(int rail, const sysc::TxCompletion& t) override {
    ++n_.counters[rail].tx;
    // The NIC completes puts in the order they finish (its packets of several messages alternate):
    // the oldest posted put with this destination and tag.
    auto& q = n_.posted[rail];
    auto it = std::find_if(q.begin(), q.end(),
                           [&](const PostedPut& p) { return p.peer == t.dst && p.tag == t.tag; });
    if (it == q.end()) return;   // cannot happen: every put the NIC sends was posted here
    const PostedPut p = *it;
    q.erase(it);
    if (!c_ || p.generation != n_.generation) return;
    c_->pending.erase(p.op);
    Event e;
    e.kind = EventKind::kPutDone;
    e.op = p.op;
    e.rail = rail;
    e.node = t.dst;
    e.tag = t.tag;
    push(e);
  }
  void rx_done(int rail, const sysc::RxCompletion& r) override {
    ++n_.counters[rail].rx;
    n_.counters[rail].rx_bytes += r.len;
    if (!c_) return;
    Event e;
    e.kind = EventKind::kMessage;
    e.rail = rail;
    e.node = r.src;
    e.tag = r.tag;
    e.len = r.len;
    push(e);
  }
  void job_done(int rail, const EngineJob& job, bool) override {
    ++n_.counters[rail].jobs;
    const std::uint64_t op = token_op(job.token);
    if (!c_ || token_generation(job.token) != token_generation(job_token(n_.generation, 0))) return;
    c_->pending.erase(op);
    Event e;
    e.kind = job.kind == OpKind::kReduce ? EventKind::kReduceDone : EventKind::kCopyDone;
    e.op = op;
    e.rail = rail;
    push(e);
  }

 private:
  void push(Event e) {
    e.cycle = now_;
    if (c_->events.size() >= max_events_) {
      c_->events.pop_front();
      ++c_->dropped;
    }
    c_->events.push_back(e);
  }
  Node& n_;
  Client* c_;
  std::uint64_t now_;
  std::size_t max_events_;
};

RemoteMachine::RemoteMachine(const sysc::SystemConfig& cfg, const ServerOptions& opt, Deliver deliver)
    : cfg_(cfg), opt_(opt.resolved(cfg.nodes())), deliver_(std::move(deliver)) {
  opt.validate(cfg.nodes());   // before the host memories below are allocated
  if (opt_.reduce_cycles_per_byte <= 0) opt_.reduce_cycles_per_byte = 8.0 / cfg.flit_bits;
  nics_ = std::make_unique<sysc::NicFactory>(opt_.rails, static_cast<std::size_t>(opt_.memory_bytes),
                                             opt_.memory_latency);
  sys_ = std::make_unique<sysc::System>(cfg, *nics_);
  for (int n = 0; n < sys_->nodes(); ++n) routes_.push_back(sys_->route_of(n));
  const int rails = sys_->rails();
  for (int n = 0; n < sys_->nodes(); ++n) {
    auto node = std::make_unique<Node>();
    std::vector<sysc::NicNode*> nics;
    for (int r = 0; r < rails; ++r) nics.push_back(&nics_->nic(n, r));
    node->engine = std::make_unique<HostEngine>(nics, nics_->memory(n), routes_, opt_.reduce_cycles_per_byte);
    node->posted.resize(static_cast<std::size_t>(rails));
    node->counters.resize(static_cast<std::size_t>(rails));
    nodes_.push_back(std::move(node));
  }
}

RemoteMachine::~RemoteMachine() = default;

std::uint64_t RemoteMachine::now() const { return sys_->net().now(); }

json RemoteMachine::error(ErrorCode code, const std::string& message) const {
  return {{"ok", false}, {"error", error_name(code)}, {"message", message}, {"cycle", now()}};
}

json RemoteMachine::ok() const { return {{"ok", true}, {"cycle", now()}}; }

RemoteMachine::ClientId RemoteMachine::connect() {
  const ClientId id = next_client_++;
  clients_.emplace(id, Client{});
  return id;
}

void RemoteMachine::disconnect(ClientId id) {
  auto it = clients_.find(id);
  if (it == clients_.end()) return;
  if (it->second.node >= 0) detach(id, it->second);
  clients_.erase(it);
}

bool RemoteMachine::greeted(ClientId id) const {
  auto it = clients_.find(id);
  return it != clients_.end() && it->second.hello;
}

std::vector<RemoteMachine::ClientId> RemoteMachine::clock_holders() const {
  std::vector<ClientId> holders;
  if (!failed_.empty()) return holders;
  bool someone_waits = false;
  for (const auto& [id, c] : clients_) {
    if (c.node < 0) continue;
    if (c.waiting) {
      someone_waits = true;
    } else {
      holders.push_back(id);
    }
  }
  if (!someone_waits) holders.clear();
  return holders;
}

void RemoteMachine::force_detach(ClientId id, const std::string& why) {
  auto it = clients_.find(id);
  if (it == clients_.end() || it->second.node < 0 || it->second.waiting) return;
  detach(id, it->second);
  it->second.detached_why = why;
}

void RemoteMachine::detach(ClientId id, Client& c) {
  Node& n = *nodes_[c.node];
  n.client = 0;
  ++n.generation;            // its puts still in flight complete unseen
  n.engine->clear_jobs();    // its reduction jobs are dropped
  const int node = c.node;
  c.node = -1;
  c.pending.clear();
  c.events.clear();
  c.dropped = 0;
  c.waiting = false;
  --attached_;
  // A barrier the others wait at can no longer be trusted to have all its participants.
  for (auto& [other_id, other] : clients_) {
    if (other_id == id || !other.waiting || other.wait.kind != Wait::Kind::kBarrier) continue;
    other.waiting = false;
    json r = error(ErrorCode::kBarrierBroken,
                   "the client of node " + std::to_string(node) + " detached while this client waited at a barrier");
    if (!other.wait.id.is_null()) r["id"] = other.wait.id;
    deliver_(other_id, r);
  }
}

std::optional<json> RemoteMachine::handle(ClientId id, const json& req) {
  auto it = clients_.find(id);
  if (it == clients_.end()) return error(ErrorCode::kInternal, "unknown connection");
  Client& c = it->second;
  json echo;
  if (req.is_object()) {
    auto idit = req.find("id");
    if (idit != req.end() && (idit->is_number() || (idit->is_string() && idit->get_ref<const std::string&>().size() <= 256))) {
      echo = *idit;
    }
  }
  json reply;
  try {
    if (!c.detached_why.empty()) {
      reply = error(ErrorCode::kDetached, c.detached_why);
      c.detached_why.clear();
    } else if (!req.is_object()) {
      reply = error(ErrorCode::kBadFrame, "a request is one JSON object per line");
    } else {
      auto rit = req.find("req");
      if (rit == req.end() || !rit->is_string()) {
        reply = error(ErrorCode::kBadFrame, "a request needs a string field \"req\" naming it");
      } else {
        auto r = dispatch(id, c, req, rit->get<std::string>(), echo);
        if (!r) return std::nullopt;   // a wait, parked
        reply = std::move(*r);
      }
    }
  } catch (const ArgError& e) {
    reply = error(ErrorCode::kBadArgument, e.what());
  } catch (const std::exception& e) {
    reply = error(ErrorCode::kInternal, e.what());
  }
  if (!echo.is_null()) reply["id"] = echo;
  return reply;
}

std::optional<json> RemoteMachine::dispatch(ClientId id, Client& c, const json& req, const std::string& name,
                                            const json& echo) {
  const RequestSpec* spec = find_request(name);
  if (!spec) {
    const std::string shown = name.size() > 64 ? name.substr(0, 64) + "..." : name;
    return error(ErrorCode::kUnknownRequest, "unknown request \"" + shown + "\" (requests: " + request_names() + ")");
  }
  if (spec->needs >= Needs::kHello && !c.hello) return error(ErrorCode::kHandshake, "send hello first");
  if (spec->needs >= Needs::kNode && c.node < 0) {
    return error(ErrorCode::kNotAttached, "\"" + name + "\" needs an attached node: attach first");
  }
  if (spec->needs >= Needs::kLiveNode && !failed_.empty()) return error(ErrorCode::kEmulationFailed, failed_);

  switch (spec->kind) {
    case RequestKind::kHello: return hello(c, req);
    case RequestKind::kStats: return stats(req);
    case RequestKind::kAttach: return attach(id, c, req);
    case RequestKind::kDetach:
      detach(id, c);
      return ok();
    case RequestKind::kPoll: return drain(c);
    case RequestKind::kWait: return wait(id, c, req, echo);
    case RequestKind::kWrite:
    case RequestKind::kRead:
    case RequestKind::kPut:
    case RequestKind::kReduce:
    case RequestKind::kCopy: return node_request(c, *spec, req);
  }
  return error(ErrorCode::kInternal, "request \"" + name + "\" not dispatched");
}

// write, read, put, reduce and copy: what the attached node's host does.
json RemoteMachine::node_request(Client& c, const RequestSpec& spec, const json& req) {
  const std::string name = spec.name;
  Node& n = *nodes_[c.node];
  sysc::HostMemory& mem = n.engine->memory();
  const std::uint64_t mem_bytes = mem.size();
  auto check_range = [&](const char* what, std::uint64_t addr, std::uint64_t len) {
    if (addr + len > mem_bytes) {
      throw ArgError(std::string(what) + " range [" + std::to_string(addr) + ", " + std::to_string(addr + len) +
                     ") is outside host memory (" + std::to_string(mem_bytes) + " bytes)");
    }
  };
  auto get_rail = [&]() {
    const std::uint64_t rail = get_uint(req, "rail", std::numeric_limits<std::uint32_t>::max());
    if (rail >= static_cast<std::uint64_t>(n.engine->rails())) {
      throw ArgError("rail " + std::to_string(rail) + " does not exist (the node has " +
                     std::to_string(n.engine->rails()) + " rails: 0.." + std::to_string(n.engine->rails() - 1) + ")");
    }
    return static_cast<int>(rail);
  };
  auto new_op = [&]() {
    if (c.pending.size() >= kMaxOpsInFlight) {
      throw ArgError("too many ops in flight (" + std::to_string(kMaxOpsInFlight) + "): wait for some first");
    }
    const std::uint64_t op = c.next_op++;
    c.pending.insert(op);
    return op;
  };

  if (spec.kind == RequestKind::kWrite) {
    const std::uint64_t addr = get_uint(req, "addr", 0xFFFFFFFFu);
    const std::string data = get_string(req, "data");
    std::vector<std::uint8_t> bytes;
    if (!base64_decode(data, bytes)) throw ArgError("\"data\" is not padded base64");
    check_range("write", addr, bytes.size());
    if (!bytes.empty()) mem.write(static_cast<std::uint32_t>(addr), bytes.data(), bytes.size());
    json r = ok();
    r["bytes"] = bytes.size();
    return r;
  }
  if (spec.kind == RequestKind::kRead) {
    const std::uint64_t addr = get_uint(req, "addr", 0xFFFFFFFFu);
    const std::uint64_t len = get_uint(req, "len", std::numeric_limits<std::uint64_t>::max());
    if (len > opt_.max_read) {
      throw ArgError("read of " + std::to_string(len) + " bytes exceeds the server's max_read (" +
                     std::to_string(opt_.max_read) + ")");
    }
    check_range("read", addr, len);
    std::vector<std::uint8_t> bytes(len);
    if (len) mem.read(static_cast<std::uint32_t>(addr), bytes.data(), len);
    json r = ok();
    r["data"] = base64_encode(bytes.data(), bytes.size());
    return r;
  }
  if (spec.kind == RequestKind::kPut) {
    const int rail = get_rail();
    const std::uint64_t peer = get_uint(req, "peer", std::numeric_limits<std::uint32_t>::max());
    if (peer >= static_cast<std::uint64_t>(sys_->nodes())) {
      throw ArgError("peer node " + std::to_string(peer) + " does not exist (the machine has " +
                     std::to_string(sys_->nodes()) + " nodes: 0.." + std::to_string(sys_->nodes() - 1) + ")");
    }
    const std::uint64_t src = get_uint(req, "src", 0xFFFFFFFFu);
    const std::uint64_t dst = get_uint(req, "dst", 0xFFFFFFFFu);
    const std::uint64_t len = get_uint(req, "len", 0xFFFFFFFFu);
    const std::uint64_t tag = get_uint(req, "tag", 0xFFFFu);
    check_range("put source", src, len);
    check_range("put destination", dst, len);   // every node has the same memory size
    const std::uint64_t op = new_op();
    n.engine->put(rail, static_cast<int>(peer), static_cast<std::uint32_t>(src), static_cast<std::uint32_t>(dst),
                  static_cast<std::uint32_t>(len), static_cast<std::uint16_t>(tag));
    n.posted[rail].push_back({n.generation, op, static_cast<std::uint16_t>(peer), static_cast<std::uint16_t>(tag)});
    ++n.counters[rail].puts;
    json r = ok();
    r["op"] = op;
    return r;
  }
  if (spec.kind == RequestKind::kReduce || spec.kind == RequestKind::kCopy) {
    const int rail = get_rail();
    const std::uint64_t dst = get_uint(req, "dst", 0xFFFFFFFFu);
    const std::uint64_t src = get_uint(req, "src", 0xFFFFFFFFu);
    const std::uint64_t len = get_uint(req, "len", 0xFFFFFFFFu);
    check_range((name + " source").c_str(), src, len);
    check_range((name + " destination").c_str(), dst, len);
    EngineJob job;
    job.kind = spec.kind == RequestKind::kReduce ? OpKind::kReduce : OpKind::kCopy;
    if (job.kind == OpKind::kReduce) {
      if (len % 4 != 0) throw ArgError("reduce length " + std::to_string(len) + " is not a multiple of 4 bytes");
      const std::string type = req.contains("dtype") ? get_string(req, "dtype") : "int32";
      if (type == "int32") {
        job.type = DataType::kInt32;
      } else if (type == "float32") {
        job.type = DataType::kFloat32;
      } else {
        throw ArgError("dtype \"" + type.substr(0, 32) + "\" is not int32 or float32");
      }
    }
    job.dst = static_cast<std::uint32_t>(dst);
    job.src = static_cast<std::uint32_t>(src);
    job.len = static_cast<std::uint32_t>(len);
    const std::uint64_t op = new_op();
    job.token = job_token(n.generation, op);
    n.engine->submit(rail, job);
    json r = ok();
    r["op"] = op;
    return r;
  }
  return error(ErrorCode::kInternal, "request \"" + name + "\" not dispatched");
}

json RemoteMachine::system_json() const {
  return {{"name", cfg_.name},
          {"topology", sysc::topology_name(cfg_.topology)},
          {"nodes", sys_->nodes()},
          {"rails", sys_->rails()},
          {"flit_bits", cfg_.flit_bits},
          {"max_packet_flits", cfg_.max_packet_flits},
          {"clock_ghz", cfg_.clock_ghz},
          {"memory_bytes", opt_.memory_bytes},
          {"memory_latency", opt_.memory_latency},
          {"reduce_cycles_per_byte", opt_.reduce_cycles_per_byte},
          {"grid", {{"rows", sys_->global_rows()}, {"cols", sys_->global_cols()}}}};
}

json RemoteMachine::hello(Client& c, const json& req) {
  const std::uint64_t version = get_uint(req, "version", std::numeric_limits<std::uint32_t>::max());
  if (version != static_cast<std::uint64_t>(kProtocolVersion)) {
    return error(ErrorCode::kVersion, "this server speaks protocol version " + std::to_string(kProtocolVersion) +
                                          ", the client asked for " + std::to_string(version));
  }
  c.hello = true;
  json r = ok();
  r["server"] = "hxemu";
  r["version"] = kProtocolVersion;
  r["system"] = system_json();
  r["limits"] = {{"max_frame", opt_.max_frame},
                 {"max_read", opt_.max_read},
                 {"max_clients", opt_.max_clients},
                 {"max_events", opt_.max_events},
                 {"max_ops_in_flight", kMaxOpsInFlight},
                 {"max_backlog", opt_.max_backlog},
                 {"handshake_timeout_ms", opt_.handshake_timeout.count()},
                 {"idle_timeout_ms", opt_.idle_timeout.count()},
                 {"hold_timeout_ms", opt_.hold_timeout.count()}};
  return r;
}

json RemoteMachine::attach(ClientId id, Client& c, const json& req) {
  const std::uint64_t node = get_uint(req, "node", std::numeric_limits<std::uint32_t>::max());
  if (node >= static_cast<std::uint64_t>(sys_->nodes())) {
    throw ArgError("node " + std::to_string(node) + " does not exist (the machine has " +
                   std::to_string(sys_->nodes()) + " nodes: 0.." + std::to_string(sys_->nodes() - 1) + ")");
  }
  if (c.node >= 0) {
    return error(ErrorCode::kAlreadyAttached, "this client is attached to node " + std::to_string(c.node) +
                                                  ": detach first (one node per client)");
  }
  if (!failed_.empty()) return error(ErrorCode::kEmulationFailed, failed_);
  Node& n = *nodes_[node];
  if (n.client != 0) {
    return error(ErrorCode::kNodeTaken, "node " + std::to_string(node) + " is attached to another client");
  }
  n.client = id;
  ++n.generation;
  c.node = static_cast<int>(node);
  c.generation = n.generation;
  c.next_op = 1;
  c.pending.clear();
  c.events.clear();
  c.dropped = 0;
  ++attached_;
  json r = ok();
  r["node"] = node;
  return r;
}

json RemoteMachine::drain(Client& c) {
  json r = ok();
  json ev = json::array();
  for (const Event& e : c.events) ev.push_back(event_json(e));
  c.events.clear();
  r["events"] = std::move(ev);
  if (c.dropped) {
    r["events_dropped"] = c.dropped;
    c.dropped = 0;
  }
  return r;
}

std::optional<json> RemoteMachine::wait(ClientId id, Client& c, const json& req, const json& echo) {
  const std::string what = get_string(req, "for");
  Wait w;
  w.id = echo;
  if (what == "any") {
    w.kind = Wait::Kind::kAny;
  } else if (what == "op") {
    w.kind = Wait::Kind::kOp;
    w.op = get_uint(req, "op", std::numeric_limits<std::uint64_t>::max());
    if (w.op == 0 || w.op >= c.next_op) {
      throw ArgError("op " + std::to_string(w.op) + " was not issued by this client since it attached");
    }
  } else if (what == "cycles") {
    w.kind = Wait::Kind::kCycles;
    w.until = now() + get_uint(req, "cycles", std::uint64_t{1} << 53);
  } else if (what == "idle") {
    w.kind = Wait::Kind::kIdle;
  } else if (what == "barrier") {
    w.kind = Wait::Kind::kBarrier;
    const std::uint64_t count = get_uint(req, "count", std::numeric_limits<std::uint32_t>::max());
    if (count < 1 || count > static_cast<std::uint64_t>(std::min(sys_->nodes(), opt_.max_clients))) {
      throw ArgError("barrier count " + std::to_string(count) + " is out of range (1.." +
                     std::to_string(std::min(sys_->nodes(), opt_.max_clients)) + ")");
    }
    w.count = static_cast<int>(count);
    for (const auto& [other_id, other] : clients_) {
      if (other_id != id && other.waiting && other.wait.kind == Wait::Kind::kBarrier && other.wait.count != w.count) {
        throw ArgError("barrier count " + std::to_string(count) + " differs from the " +
                       std::to_string(other.wait.count) + " other clients wait for");
      }
    }
  } else {
    throw ArgError("\"for\" must be any, op, cycles, idle or barrier, not \"" + what.substr(0, 32) + "\"");
  }
  c.wait = w;
  c.waiting = true;
  if (w.kind == Wait::Kind::kBarrier) {
    int at_barrier = 0;
    for (const auto& [other_id, other] : clients_) {
      if (other.waiting && other.wait.kind == Wait::Kind::kBarrier) ++at_barrier;
    }
    if (at_barrier < w.count) return std::nullopt;
    // This client completes it: release the others, answer this one directly.
    for (auto& [other_id, other] : clients_) {
      if (other_id == id || !other.waiting || other.wait.kind != Wait::Kind::kBarrier) continue;
      other.waiting = false;
      json r = drain(other);
      if (!other.wait.id.is_null()) r["id"] = other.wait.id;
      deliver_(other_id, r);
    }
    c.waiting = false;
    return drain(c);
  }
  if (satisfied(c)) {
    c.waiting = false;
    return drain(c);
  }
  return std::nullopt;
}

json RemoteMachine::stats(const json& req) {
  int first = 0, last = sys_->nodes() - 1;
  if (req.contains("node")) {
    const std::uint64_t node = get_uint(req, "node", std::numeric_limits<std::uint32_t>::max());
    if (node >= static_cast<std::uint64_t>(sys_->nodes())) {
      throw ArgError("node " + std::to_string(node) + " does not exist (the machine has " +
                     std::to_string(sys_->nodes()) + " nodes)");
    }
    first = last = static_cast<int>(node);
  }
  json r = ok();
  r["flits_moved"] = sys_->net().flits_moved();
  r["clients"] = clients_.size();
  r["attached"] = attached_;
  if (!failed_.empty()) r["failed"] = failed_;
  json nodes = json::array();
  for (int n = first; n <= last; ++n) {
    Node& node = *nodes_[n];
    json rails = json::array();
    for (int rail = 0; rail < node.engine->rails(); ++rail) {
      const RailCounters& k = node.counters[rail];
      sysc::NicNode& nic = node.engine->nic(rail);
      rails.push_back({{"puts", k.puts},
                       {"puts_accepted", nic.puts_accepted()},
                       {"tx_completions", k.tx},
                       {"rx_completions", k.rx},
                       {"rx_bytes", k.rx_bytes},
                       {"engine_jobs", k.jobs},
                       {"dma_reads", nic.memory().reads()},
                       {"dma_writes", nic.memory().writes()}});
    }
    nodes.push_back({{"node", n}, {"attached", node.client != 0}, {"rails", std::move(rails)}});
  }
  r["nodes"] = std::move(nodes);
  return r;
}

void RemoteMachine::collect() {
  const std::uint64_t t = now();
  if (collected_ == t) return;
  collected_ = t;
  for (auto& np : nodes_) {
    Node& n = *np;
    Client* c = nullptr;
    if (n.client != 0) {
      auto it = clients_.find(n.client);
      if (it != clients_.end()) c = &it->second;
    }
    Collector col(n, c, t, opt_.max_events);
    n.engine->collect(t, col);
  }
}

bool RemoteMachine::satisfied(const Client& c) const {
  switch (c.wait.kind) {
    case Wait::Kind::kAny: return !c.events.empty();
    case Wait::Kind::kOp: return c.pending.count(c.wait.op) == 0;
    case Wait::Kind::kCycles: return now() >= c.wait.until;
    case Wait::Kind::kIdle: return quiet();
    case Wait::Kind::kBarrier: return false;   // completed by its last participant (wait())
  }
  return false;
}

void RemoteMachine::answer_waits() {
  for (auto& [id, c] : clients_) {
    if (!c.waiting || !satisfied(c)) continue;
    c.waiting = false;
    json r = drain(c);
    if (!c.wait.id.is_null()) r["id"] = c.wait.id;
    deliver_(id, r);
  }
}

bool RemoteMachine::barrier_holds_clock() const {
  for (const auto& [id, c] : clients_) {
    if (c.waiting && c.wait.kind == Wait::Kind::kBarrier && c.wait.count > attached_) return true;
  }
  return false;
}

bool RemoteMachine::quiet() const {
  for (const auto& np : nodes_) {
    const HostEngine& e = *np->engine;
    if (e.engines_busy()) return false;
    for (int r = 0; r < e.rails(); ++r) {
      if (e.nic(r).posts_waiting() != 0 || e.nic(r).has_completion()) return false;
    }
  }
  return sys_->quiet();
}

void RemoteMachine::fail(const std::string& what) {
  failed_ = "the emulation failed at cycle " + std::to_string(now()) + ": " + what;
  for (auto& [id, c] : clients_) {
    if (!c.waiting) continue;
    c.waiting = false;
    json r = error(ErrorCode::kEmulationFailed, failed_);
    if (!c.wait.id.is_null()) r["id"] = c.wait.id;
    deliver_(id, r);
  }
}

bool RemoteMachine::advance(std::uint64_t max_cycles) {
  if (!failed_.empty()) return false;
  try {
    for (std::uint64_t i = 0; i < max_cycles; ++i) {
      collect();
      answer_waits();
      if (attached_ == 0) return false;
      for (const auto& [id, c] : clients_) {
        if (c.node >= 0 && !c.waiting) return false;   // its requests take effect at now()
      }
      if (barrier_holds_clock()) return false;         // participants still to attach
      const std::uint64_t t = now();
      if (t % kQuietCheckEvery == 0 && quiet()) {
        // Nothing is in flight: only time itself can satisfy a wait now.
        std::uint64_t until = UINT64_MAX;
        for (const auto& [id, c] : clients_) {
          if (c.waiting && c.wait.kind == Wait::Kind::kCycles) until = std::min(until, c.wait.until);
        }
        if (until != UINT64_MAX) {
          // Idle cycles change nothing (every block would be skipped): jump.
          if (until > t) sys_->net().set_now(until);
          continue;
        }
        for (auto& [id, c] : clients_) {
          if (!c.waiting || c.wait.kind == Wait::Kind::kBarrier) continue;
          c.waiting = false;
          json r = error(ErrorCode::kNever,
                         "wait for " + std::string(c.wait.kind == Wait::Kind::kOp ? "an op" : "an event") +
                             " can never complete: the machine is idle, nothing is in flight and no client "
                             "waits for time to pass");
          if (!c.wait.id.is_null()) r["id"] = c.wait.id;
          deliver_(id, r);
        }
        return false;
      }
      for (auto& np : nodes_) np->engine->start_engines(t);
      sys_->net().step();
    }
    return true;
  } catch (const std::exception& e) {
    fail(e.what());
    return false;
  }
}

}  // namespace hxemu::sw::remote
