#include "sw/remote/server.h"

#include <csignal>
#include <deque>
#include <string>

namespace hxemu::sw::remote {

namespace asio = boost::asio;
using boost::asio::ip::tcp;
using boost::system::error_code;

namespace {
constexpr int kMaxJsonDepth = 8;   // requests are flat; deeper values are dropped while parsing
}

class Server::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Server& server, tcp::socket socket, RemoteMachine::ClientId id)
      : server_(server), socket_(std::move(socket)), in_(server.opt_.max_frame), id_(id),
        max_out_bytes_(std::max<std::size_t>(8u << 20, 4 * server.opt_.max_read)) {}

  void start() {
    error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);
    read();
  }

  // A reply (for a parked wait, or an error ending it).
  void deliver(const json& reply) {
    send(reply);
    parked_ = false;
    asio::post(server_.io_, [self = shared_from_this()] { self->process(); });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    const auto self = shared_from_this();   // the server drops its reference below
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    lines_.clear();
    server_.session_closed(id_);
  }

 private:
  void read() {
    if (closed_ || eof_ || reading_ || lines_.size() >= server_.opt_.max_pipeline || out_bytes_ > max_out_bytes_) return;
    reading_ = true;
    asio::async_read_until(socket_, in_, '\n', [self = shared_from_this()](error_code ec, std::size_t n) {
      self->on_read(ec, n);
    });
  }

  void on_read(error_code ec, std::size_t n) {
    reading_ = false;
    if (closed_) return;
    if (ec == asio::error::not_found) {   // max_frame bytes and no newline
      if (!skipping_) {
        send(error(ErrorCode::kFrameTooLarge, "request line exceeds the server's max_frame (" +
                                                  std::to_string(server_.opt_.max_frame) +
                                                  " bytes): skipped up to its newline"));
      }
      skipping_ = true;
      in_.consume(in_.size());
      read();
      return;
    }
    if (ec == asio::error::eof) {   // the client is done sending: answer what it sent, then close
      eof_ = true;
      process();
      return;
    }
    if (ec) {   // a broken connection: the client is gone
      close();
      return;
    }
    std::string line(asio::buffers_begin(in_.data()), asio::buffers_begin(in_.data()) + n);
    in_.consume(n);
    if (skipping_) {
      skipping_ = false;   // the tail of the oversized line
    } else {
      line.pop_back();   // '\n'
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos) lines_.push_back(std::move(line));
    }
    process();
    read();
  }

  void process() {
    while (!closed_ && !parked_ && !lines_.empty()) {
      const std::string line = std::move(lines_.front());
      lines_.pop_front();
      json req = json::parse(
          line, [](int depth, json::parse_event_t, json&) { return depth <= kMaxJsonDepth; }, false);
      if (req.is_discarded()) {
        send(error(ErrorCode::kBadFrame, "not a JSON value (one JSON object per line)"));
        continue;
      }
      std::optional<json> reply = server_.machine_->handle(id_, req);
      if (reply) {
        send(*reply);
      } else {
        parked_ = true;
      }
    }
    server_.schedule_advance();
    if (eof_) {
      close_when_done();
    } else {
      read();
    }
  }

  // After the client's end of stream: close once every request it sent is answered.
  void close_when_done() {
    if (lines_.empty() && !parked_ && !writing_) close();
  }

  json error(ErrorCode code, const std::string& message) const {
    return {{"ok", false}, {"error", error_name(code)}, {"message", message}, {"cycle", server_.machine_->now()}};
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
      return;
    }
    read();   // it may have stopped for the output backlog
  }

  Server& server_;
  tcp::socket socket_;
  asio::streambuf in_;
  RemoteMachine::ClientId id_;
  std::size_t max_out_bytes_;
  std::deque<std::string> lines_;   // requests read ahead, not handled yet
  std::deque<std::string> out_;
  std::size_t out_bytes_ = 0;
  bool reading_ = false, writing_ = false, skipping_ = false, parked_ = false, closed_ = false, eof_ = false;
};

Server::Server(const sysc::SystemConfig& cfg, const ServerOptions& opt) : opt_(opt), acceptor_(io_) {
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
}

Server::~Server() {
  // Sessions refer to the machine: drop them (and any handler holding one) first.
  stopping_ = true;
  error_code ec;
  acceptor_.close(ec);
  if (signals_) signals_->cancel(ec);
  for (auto& [id, s] : std::map<RemoteMachine::ClientId, std::shared_ptr<Session>>(sessions_)) s->close();
  sessions_.clear();
  io_.restart();
  io_.poll();
}

void Server::run() { io_.run(); }

void Server::stop() {
  asio::post(io_, [this] {
    stopping_ = true;
    error_code ec;
    acceptor_.close(ec);
    if (signals_) signals_->cancel(ec);
    for (auto& [id, s] : std::map<RemoteMachine::ClientId, std::shared_ptr<Session>>(sessions_)) s->close();
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
      auto msg = std::make_shared<std::string>(dump_line(
          {{"ok", false},
           {"error", error_name(ErrorCode::kTooManyClients)},
           {"message", "the server serves at most " + std::to_string(opt_.max_clients) + " connections"},
           {"cycle", machine_->now()}}));
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

}  // namespace hxemu::sw::remote
