#include "sw/remote/server.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace hxemu::sw::remote {

namespace asio = boost::asio;
using boost::asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr int kMaxJsonDepth = 8;               // requests are flat; deeper values are dropped while parsing
constexpr std::size_t kReadChunk = 16u << 10;  // bytes one socket read may take
// The timeout sweep runs at an eighth of the shortest timeout, within these bounds: a timeout
// fires at most an eighth (and at most 1 s) late.
constexpr std::chrono::milliseconds kMinSweep{5}, kMaxSweep{1000};

json error_json(ErrorCode code, const std::string& message, std::uint64_t cycle) {
  return {{"ok", false}, {"error", error_name(code)}, {"message", message}, {"cycle", cycle}};
}

std::string ms_text(std::chrono::milliseconds t) { return std::to_string(t.count()) + " ms"; }

}  // namespace

class Server::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Server& server, tcp::socket socket, RemoteMachine::ClientId id)
      : server_(server),
        socket_(std::move(socket)),
        id_(id),
        rbuf_(kReadChunk),
        max_out_bytes_(std::max<std::size_t>(8u << 20, 4 * server.opt_.max_read)),
        accepted_(Clock::now()),
        last_active_(accepted_) {}

  void start() {
    error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);
    read();
  }

  // A reply (for a parked wait, or an error ending it).
  void deliver(const json& reply) {
    send(reply);
    parked_ = false;
    touch();   // the client's turn to act starts now
    kick();
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    const auto self = shared_from_this();   // the server drops its reference below
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    lines_.clear();
    lines_bytes_ = 0;
    partial_.clear();
    server_.session_closed(id_);
  }

  // Closes after offering `reply` to the socket without waiting: a client that does not read its
  // replies must not keep a timed-out connection open.
  void close_with(const json& reply) {
    if (closed_) return;
    if (!writing_) {
      const std::string line = dump_line(reply);
      error_code ec;
      socket_.non_blocking(true, ec);
      if (!ec) socket_.send(asio::buffer(line), 0, ec);
    }
    close();
  }

  // ---- what the timeout sweep (Server::sweep) looks at ----------------------------------------
  bool closed() const { return closed_; }
  Clock::time_point accepted() const { return accepted_; }
  // The last complete request received or handled, or wait answered.
  Clock::time_point last_active() const { return last_active_; }
  // The server owes the client something (a parked wait's reply, or requests it has not handled
  // although it could): the client is waiting for the server, not idle. Requests held back only
  // because the client does not read its replies do not count.
  bool owed() const { return parked_ || (!lines_.empty() && !output_full()); }
  // Whether the client has held the clock for `limit` since its last request; `holds`: whether it
  // holds it now (the sweep's view, so the start is known to within one sweep).
  bool held_too_long(bool holds, Clock::time_point now, Clock::duration limit) {
    if (!holds) {
      holding_since_.reset();
      return false;
    }
    if (!holding_since_) holding_since_ = now;
    if (now - std::max(*holding_since_, last_active_) < limit) return false;
    holding_since_.reset();
    return true;
  }

 private:
  // A request line read and not handled yet, or the place of one that was too long.
  struct Line {
    std::string text;
    bool too_large = false;
  };

  std::size_t buffered() const { return partial_.size() + lines_bytes_; }
  bool output_full() const { return out_bytes_ > max_out_bytes_; }
  void touch() { last_active_ = Clock::now(); }

  void read() {
    if (closed_ || eof_ || reading_ || lines_.size() >= server_.opt_.max_pipeline || output_full()) return;
    const std::size_t held = buffered();
    if (held >= server_.opt_.max_backlog) return;   // back-pressure: TCP holds the rest at the client
    const std::size_t n = std::min(rbuf_.size(), server_.opt_.max_backlog - held);
    reading_ = true;
    socket_.async_read_some(asio::buffer(rbuf_.data(), n), [self = shared_from_this()](error_code ec, std::size_t k) {
      self->on_read(ec, k);
    });
  }

  void on_read(error_code ec, std::size_t n) {
    reading_ = false;
    if (closed_) return;
    if (n) {
      split(rbuf_.data(), n);
      server_.note_backlog(buffered());
    }
    if (ec == asio::error::eof) {   // the client is done sending: answer what it sent, then close
      eof_ = true;                    // (a last line without its newline is not a request)
      close_when_done();              // at once if nothing is owed: its slot is free for the next
      if (!closed_) kick();
      return;
    }
    if (ec) {   // a broken connection: the client is gone
      close();
      return;
    }
    if (!lines_.empty()) kick();
    read();
  }

  // Cuts received bytes into request lines. A line whose length with its newline exceeds
  // max_frame becomes a too_large marker at once and the rest of it is skipped.
  void split(const char* p, std::size_t n) {
    const std::size_t max_frame = server_.opt_.max_frame;
    while (n) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', n));
      const std::size_t seg = nl ? static_cast<std::size_t>(nl - p) : n;
      if (skipping_) {
        skipping_ = nl == nullptr;
      } else if (partial_.size() + seg >= max_frame) {
        lines_.push_back({std::string(), true});
        touch();
        partial_.clear();
        skipping_ = nl == nullptr;
      } else {
        partial_.append(p, seg);
        if (nl) complete_line();
      }
      const std::size_t used = nl ? seg + 1 : seg;
      p += used;
      n -= used;
    }
  }

  void complete_line() {
    std::string line = std::move(partial_);
    partial_.clear();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) return;   // blank lines are not requests
    lines_bytes_ += line.size();
    lines_.push_back({std::move(line), false});
    touch();
  }

  // Handles queued requests in a handler of its own (at most one posted at a time).
  void kick() {
    if (process_posted_ || closed_) return;
    process_posted_ = true;
    asio::post(server_.io_, [self = shared_from_this()] { self->process_slice(); });
  }

  // One slice: up to kSliceRequests requests or kSliceBytes bytes (at least one request), then the
  // rest in a later handler, after whatever else is queued on the io_context.
  void process_slice() {
    process_posted_ = false;
    int handled = 0;
    std::size_t bytes = 0;
    while (!closed_ && !parked_ && !lines_.empty() && !output_full()) {
      if (handled >= kSliceRequests || bytes >= kSliceBytes) {
        kick();
        break;
      }
      Line line = std::move(lines_.front());
      lines_.pop_front();
      lines_bytes_ -= line.text.size();
      bytes += line.text.size();
      ++handled;
      handle(line);
    }
    if (handled) touch();
    server_.schedule_advance();
    if (eof_) {
      close_when_done();
    } else {
      read();
    }
  }

  void handle(const Line& line) {
    if (line.too_large) {
      send(error(ErrorCode::kFrameTooLarge, "request line exceeds the server's max_frame (" +
                                                std::to_string(server_.opt_.max_frame) +
                                                " bytes): skipped up to its newline"));
      return;
    }
    json req = json::parse(
        line.text, [](int depth, json::parse_event_t, json&) { return depth <= kMaxJsonDepth; }, false);
    if (req.is_discarded()) {
      send(error(ErrorCode::kBadFrame, "not a JSON value (one JSON object per line)"));
      return;
    }
    std::optional<json> reply = server_.machine_->handle(id_, req);
    if (reply) {
      send(*reply);
    } else {
      parked_ = true;
    }
  }

  // After the client's end of stream: close once every request it sent is answered.
  void close_when_done() {
    if (lines_.empty() && !parked_ && !writing_) close();
  }

  json error(ErrorCode code, const std::string& message) const {
    return error_json(code, message, server_.machine_->now());
  }

  void send(const json& j) {
    if (closed_) return;
    out_.push_back(dump_line(j));
    out_bytes_ += out_.back().size();
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    asio::async_write(socket_, asio::buffer(out_.front()), [self = shared_from_this()](error_code ec, std::size_t) {
      self->on_write(ec);
    });
  }

  void on_write(error_code ec) {
    writing_ = false;
    if (closed_) return;
    if (ec) {
      close();
      return;
    }
    out_bytes_ -= out_.front().size();
    out_.pop_front();
    if (!out_.empty()) {
      write();
    } else if (eof_) {
      close_when_done();
      if (closed_) return;
    }
    kick();   // handling and reading may have stopped for the output backlog
    read();
  }

  Server& server_;
  tcp::socket socket_;
  RemoteMachine::ClientId id_;
  std::vector<char> rbuf_;
  std::size_t max_out_bytes_;
  std::string partial_;             // the line being received, without its newline
  std::deque<Line> lines_;          // requests read ahead, not handled yet
  std::size_t lines_bytes_ = 0;
  std::deque<std::string> out_;
  std::size_t out_bytes_ = 0;
  Clock::time_point accepted_, last_active_;
  std::optional<Clock::time_point> holding_since_;
  bool reading_ = false, writing_ = false, skipping_ = false, parked_ = false, closed_ = false, eof_ = false;
  bool process_posted_ = false;
};

Server::Server(const sysc::SystemConfig& cfg, const ServerOptions& opt) : opt_(opt), acceptor_(io_), sweep_timer_(io_) {
  machine_ = std::make_unique<RemoteMachine>(cfg, opt, [this](RemoteMachine::ClientId id, const json& r) {
    deliver(id, r);
  });
  opt_ = machine_->options();   // with defaults resolved
  error_code ec;
  const auto addr = asio::ip::make_address(opt_.bind, ec);
  if (ec) throw std::runtime_error("remote server: bad bind address '" + opt_.bind + "': " + ec.message());
  const tcp::endpoint ep(addr, opt_.port);
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("remote server: cannot listen on " + opt_.bind + ":" + std::to_string(opt_.port) +
                             ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
  accept();
  start_sweep();
}

Server::~Server() {
  // Sessions refer to the machine: drop them (and any handler holding one) first.
  close_all();
  sessions_.clear();
  io_.restart();
  io_.poll();
}

void Server::run() { io_.run(); }

void Server::close_all() {
  stopping_ = true;
  error_code ec;
  acceptor_.close(ec);
  sweep_timer_.cancel();
  if (signals_) signals_->cancel(ec);
  for (auto& [id, s] : std::map<RemoteMachine::ClientId, std::shared_ptr<Session>>(sessions_)) s->close();
}

void Server::stop() {
  asio::post(io_, [this] {
    close_all();
    io_.stop();
  });
}

void Server::stop_on_signals() {
  signals_ = std::make_unique<asio::signal_set>(io_, SIGINT, SIGTERM);
  signals_->async_wait([this](error_code ec, int) {
    if (!ec) stop();
  });
}

void Server::accept() {
  acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
    if (stopping_ || ec == asio::error::operation_aborted) return;
    if (ec) {   // e.g. out of file descriptors: try again shortly
      auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(100));
      timer->async_wait([this, timer](error_code) {
        if (!stopping_) accept();
      });
      return;
    }
    if (static_cast<int>(sessions_.size()) >= opt_.max_clients) {
      auto sock = std::make_shared<tcp::socket>(std::move(socket));
      auto msg = std::make_shared<std::string>(dump_line(error_json(
          ErrorCode::kTooManyClients, "the server serves at most " + std::to_string(opt_.max_clients) + " connections",
          machine_->now())));
      asio::async_write(*sock, asio::buffer(*msg), [sock, msg](error_code, std::size_t) {
        error_code e;
        sock->shutdown(tcp::socket::shutdown_both, e);
        sock->close(e);
      });
    } else {
      const auto id = machine_->connect();
      auto s = std::make_shared<Session>(*this, std::move(socket), id);
      sessions_.emplace(id, s);
      s->start();
    }
    accept();
  });
}

void Server::schedule_advance() {
  if (advance_scheduled_ || stopping_) return;
  advance_scheduled_ = true;
  asio::post(io_, [this] {
    advance_scheduled_ = false;
    if (stopping_) return;
    if (machine_->advance(kSliceCycles)) schedule_advance();
  });
}

void Server::deliver(RemoteMachine::ClientId id, const json& reply) {
  auto it = sessions_.find(id);
  if (it != sessions_.end()) it->second->deliver(reply);
}

void Server::session_closed(RemoteMachine::ClientId id) {
  machine_->disconnect(id);
  sessions_.erase(id);
  schedule_advance();
}

void Server::note_backlog(std::size_t bytes) {
  std::size_t seen = peak_backlog_.load();
  while (bytes > seen && !peak_backlog_.compare_exchange_weak(seen, bytes)) {
  }
}

void Server::start_sweep() {
  std::chrono::milliseconds shortest = std::chrono::milliseconds::max();
  for (const auto t : {opt_.handshake_timeout, opt_.idle_timeout, opt_.hold_timeout}) {
    if (t.count() > 0) shortest = std::min(shortest, t);
  }
  if (shortest == std::chrono::milliseconds::max()) return;   // no timeouts
  sweep_every_ = std::clamp<std::chrono::milliseconds>(shortest / 8, kMinSweep, kMaxSweep);
  arm_sweep();
}

void Server::arm_sweep() {
  sweep_timer_.expires_after(sweep_every_);
  sweep_timer_.async_wait([this](error_code ec) {
    if (!ec && !stopping_) sweep();
  });
}

// The timeouts, for every connection: no hello within handshake_timeout, or no complete request
// within idle_timeout while the server owes it nothing: closed (its slot is free again). Attached,
// holding simulated time still for others who wait, and no request for hold_timeout: detached, so
// that time runs on for the others.
void Server::sweep() {
  const auto now = Clock::now();
  const std::vector<RemoteMachine::ClientId> holders = machine_->clock_holders();   // ascending ids
  bool detached = false;
  for (auto& [id, s] : std::map<RemoteMachine::ClientId, std::shared_ptr<Session>>(sessions_)) {
    if (s->closed()) continue;
    if (opt_.handshake_timeout.count() > 0 && !machine_->greeted(id) && now - s->accepted() >= opt_.handshake_timeout) {
      ++handshake_closed_;
      s->close_with(error_json(ErrorCode::kTimeout,
                               "no hello within the server's handshake_timeout (" + ms_text(opt_.handshake_timeout) +
                                   "): connection closed",
                               machine_->now()));
      continue;
    }
    if (opt_.idle_timeout.count() > 0 && !s->owed() && now - s->last_active() >= opt_.idle_timeout) {
      ++idle_closed_;
      s->close_with(error_json(ErrorCode::kTimeout,
                               "no complete request within the server's idle_timeout (" + ms_text(opt_.idle_timeout) +
                                   "): connection closed",
                               machine_->now()));
      continue;
    }
    const bool holds = opt_.hold_timeout.count() > 0 && std::binary_search(holders.begin(), holders.end(), id);
    if (s->held_too_long(holds, now, opt_.hold_timeout)) {
      ++hold_detached_;
      machine_->force_detach(id, "this client's node was detached: attached, it neither waited nor sent a request "
                                 "for the server's hold_timeout (" + ms_text(opt_.hold_timeout) +
                                 ") while other clients waited, holding simulated time still for them; this "
                                 "request was not run (attach again to go on)");
      detached = true;
    }
  }
  if (detached) schedule_advance();
  arm_sweep();
}

}  // namespace hxemu::sw::remote
