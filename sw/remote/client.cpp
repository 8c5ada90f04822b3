#include "sw/remote/client.h"

#include <algorithm>
#include <chrono>

namespace hxemu::sw::remote {

namespace asio = boost::asio;
using boost::asio::ip::tcp;
using boost::system::error_code;

Client::Client(const ClientOptions& opt) : opt_(opt), socket_(io_), in_(opt.max_reply) {
  error_code ec;
  tcp::resolver resolver(io_);
  const auto endpoints = resolver.resolve(opt_.host, std::to_string(opt_.port), ec);
  if (ec) throw TransportError("cannot resolve " + opt_.host + ": " + ec.message());
  bool done = false;
  asio::async_connect(socket_, endpoints, [&](error_code e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  run_until(done, "connect");
  if (ec) {
    throw TransportError("cannot connect to " + opt_.host + ":" + std::to_string(opt_.port) + ": " + ec.message());
  }
  socket_.set_option(tcp::no_delay(true), ec);
}

Client::~Client() { close(); }

void Client::close() {
  error_code ec;
  if (socket_.is_open()) {
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
  }
}

void Client::run_until(const bool& done, const char* what) {
  io_.restart();
  io_.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(opt_.timeout_seconds)));
  if (!done) {
    close();   // cancels the operation; let its handler run
    io_.restart();
    io_.run();
    throw TransportError(std::string(what) + ": no answer from the server within " +
                         std::to_string(opt_.timeout_seconds) + " s");
  }
}

std::string Client::read_line() {
  bool done = false;
  error_code ec;
  std::size_t n = 0;
  asio::async_read_until(socket_, in_, '\n', [&](error_code e, std::size_t k) {
    ec = e;
    n = k;
    done = true;
  });
  run_until(done, "read");
  if (ec) throw TransportError("connection to the server lost: " + ec.message());
  std::string line(asio::buffers_begin(in_.data()), asio::buffers_begin(in_.data()) + n);
  in_.consume(n);
  line.pop_back();
  return line;
}

json Client::parse_reply(const std::string& line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw TransportError("the server sent something that is not a reply: " + line.substr(0, 200));
  auto it = j.find("cycle");
  if (it != j.end() && it->is_number_unsigned()) now_ = it->get<std::uint64_t>();
  return j;
}

json Client::read_reply() { return parse_reply(read_line()); }

void Client::send_raw(const std::string& bytes) {
  bool done = false;
  error_code ec;
  asio::async_write(socket_, asio::buffer(bytes), [&](error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  run_until(done, "write");
  if (ec) throw TransportError("connection to the server lost: " + ec.message());
}

std::vector<json> Client::call_batch(const std::vector<json>& reqs) {
  std::string out;
  for (const auto& r : reqs) out += dump_line(r);
  // Write and read concurrently: a long batch must not wait for its own replies to be read.
  bool wrote = false, failed = false;
  error_code wec, rec;
  std::vector<std::string> lines;
  std::function<void()> read_next;
  read_next = [&] {
    if (lines.size() == reqs.size()) return;
    asio::async_read_until(socket_, in_, '\n', [&](error_code e, std::size_t k) {
      if (e) {
        rec = e;
        failed = true;
        return;
      }
      std::string line(asio::buffers_begin(in_.data()), asio::buffers_begin(in_.data()) + k);
      in_.consume(k);
      line.pop_back();
      lines.push_back(std::move(line));
      read_next();
    });
  };
  asio::async_write(socket_, asio::buffer(out), [&](error_code e, std::size_t) {
    wec = e;
    wrote = true;
  });
  read_next();
  io_.restart();
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(opt_.timeout_seconds));
  while (!(wrote && lines.size() == reqs.size()) && !failed && !(wrote && wec)) {
    if (io_.run_one_until(deadline) == 0) break;
  }
  const bool complete = wrote && !wec && lines.size() == reqs.size();
  if (!complete) {
    close();
    io_.restart();
    io_.run();
    if (wec || rec) throw TransportError("connection to the server lost: " + (wec ? wec : rec).message());
    throw TransportError("batch: no answer from the server within " + std::to_string(opt_.timeout_seconds) + " s");
  }
  std::vector<json> replies;
  replies.reserve(lines.size());
  for (const auto& l : lines) replies.push_back(parse_reply(l));
  return replies;
}

json Client::call(const json& req) {
  send_raw(dump_line(req));
  json r = read_reply();
  if (!r.value("ok", false)) {
    throw RemoteError(r.value("error", std::string("unknown")), r.value("message", std::string()));
  }
  return r;
}

json Client::request_json(RequestKind kind) { return json{{"req", request_name(kind)}}; }

SystemInfo Client::hello(const std::string& name) {
  json req = request_json(RequestKind::kHello);
  req["version"] = kProtocolVersion;
  if (!name.empty()) req["client"] = name;
  const json r = call(req);
  SystemInfo s;
  s.version = r.at("version").get<int>();
  const json& sys = r.at("system");
  s.name = sys.at("name").get<std::string>();
  s.topology = sys.at("topology").get<std::string>();
  s.nodes = sys.at("nodes").get<int>();
  s.rails = sys.at("rails").get<int>();
  s.flit_bits = sys.at("flit_bits").get<int>();
  s.max_packet_flits = sys.at("max_packet_flits").get<int>();
  s.clock_ghz = sys.at("clock_ghz").get<double>();
  s.memory_bytes = sys.at("memory_bytes").get<std::uint64_t>();
  s.reduce_cycles_per_byte = sys.at("reduce_cycles_per_byte").get<double>();
  const json& lim = r.at("limits");
  s.max_frame = lim.at("max_frame").get<std::size_t>();
  s.max_read = lim.at("max_read").get<std::size_t>();
  s.max_clients = lim.at("max_clients").get<int>();
  info_ = s;
  return s;
}

void Client::attach(int node) {
  json req = request_json(RequestKind::kAttach);
  req["node"] = node;
  call(req);
  node_ = node;
}

void Client::detach() {
  call(request_json(RequestKind::kDetach));
  node_ = -1;
}

void Client::write(std::uint32_t addr, const void* data, std::size_t n) {
  // base64 grows 3 bytes to 4; leave room for the rest of the request line.
  const std::size_t frame = info_.max_frame ? info_.max_frame : 4096;
  const std::size_t chunk = std::max<std::size_t>(3, (frame > 512 ? frame - 256 : 256) / 4 * 3);
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::vector<json> reqs;
  std::size_t off = 0;
  do {
    const std::size_t k = std::min(chunk, n - off);
    json req = request_json(RequestKind::kWrite);
    req["addr"] = static_cast<std::uint64_t>(addr) + off;
    req["data"] = base64_encode(p + off, k);
    reqs.push_back(std::move(req));
    off += k;
  } while (off < n);
  for (const auto& r : call_batch(reqs)) {
    if (!r.value("ok", false)) throw RemoteError(r.value("error", std::string("unknown")), r.value("message", std::string()));
  }
}

std::vector<std::uint8_t> Client::read(std::uint32_t addr, std::size_t n) {
  const std::size_t chunk = info_.max_read ? info_.max_read : 4096;
  std::vector<json> reqs;
  std::size_t off = 0;
  do {
    const std::size_t k = std::min(chunk, n - off);
    json req = request_json(RequestKind::kRead);
    req["addr"] = static_cast<std::uint64_t>(addr) + off;
    req["len"] = k;
    reqs.push_back(std::move(req));
    off += k;
  } while (off < n);
  std::vector<std::uint8_t> out;
  out.reserve(n);
  std::vector<std::uint8_t> part;
  for (const auto& r : call_batch(reqs)) {
    if (!r.value("ok", false)) throw RemoteError(r.value("error", std::string("unknown")), r.value("message", std::string()));
    if (!base64_decode(r.at("data").get<std::string>(), part)) throw TransportError("read: the server sent bad base64");
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

std::uint64_t Client::put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len,
                          std::uint16_t tag) {
  json req = request_json(RequestKind::kPut);
  req["rail"] = rail;
  req["peer"] = peer;
  req["src"] = src;
  req["dst"] = dst;
  req["len"] = len;
  req["tag"] = tag;
  return call(req).at("op").get<std::uint64_t>();
}

std::uint64_t Client::reduce(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len, DataType type) {
  json req = request_json(RequestKind::kReduce);
  req["rail"] = rail;
  req["dst"] = dst;
  req["src"] = src;
  req["len"] = len;
  req["dtype"] = type == DataType::kInt32 ? "int32" : "float32";
  return call(req).at("op").get<std::uint64_t>();
}

std::uint64_t Client::copy(int rail, std::uint32_t dst, std::uint32_t src, std::uint32_t len) {
  json req = request_json(RequestKind::kCopy);
  req["rail"] = rail;
  req["dst"] = dst;
  req["src"] = src;
  req["len"] = len;
  return call(req).at("op").get<std::uint64_t>();
}

WaitResult Client::wait_result(const json& r) {
  WaitResult w;
  w.cycle = r.at("cycle").get<std::uint64_t>();
  for (const auto& e : r.at("events")) w.events.push_back(event_from_json(e));
  return w;
}

namespace {
json wait_json(const char* what) { return {{"req", request_name(RequestKind::kWait)}, {"for", what}}; }
}  // namespace

WaitResult Client::wait_any() { return wait_result(call(wait_json("any"))); }
WaitResult Client::wait_op(std::uint64_t op) {
  json req = wait_json("op");
  req["op"] = op;
  return wait_result(call(req));
}
WaitResult Client::wait_cycles(std::uint64_t cycles) {
  json req = wait_json("cycles");
  req["cycles"] = cycles;
  return wait_result(call(req));
}
WaitResult Client::wait_idle() { return wait_result(call(wait_json("idle"))); }
WaitResult Client::barrier(int count) {
  json req = wait_json("barrier");
  req["count"] = count;
  return wait_result(call(req));
}
WaitResult Client::poll() { return wait_result(call(request_json(RequestKind::kPoll))); }

json Client::stats(int node) {
  json req = request_json(RequestKind::kStats);
  if (node >= 0) req["node"] = node;
  return call(req);
}

}  // namespace hxemu::sw::remote
