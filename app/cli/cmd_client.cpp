// hxemu client: pokes a running `hxemu serve` by hand (docs/remote-protocol.md).
//   hello                    the system the server emulates
//   stats [NODE]             cycle, flits moved, per-node NIC counters (JSON)
//   put SRC DST BYTES        attach SRC, put BYTES from its address --src-addr to DST's --dst-addr
//                            on --rail with --tag, wait for it and for the network to drain; print
//                            the events with their cycles
//   read NODE ADDR LEN       attach NODE, hex-dump LEN bytes of its host memory
//   write NODE ADDR HEX      attach NODE, write the bytes given in hex
//   wait NODE CYCLES         attach NODE and let CYCLES cycles pass
//   raw JSON...              send each JSON line as is (after a hello) and print the replies
#include <fmt/core.h>

#include <cstdio>
#include <memory>

#include "sw/remote/client.h"
#include "app/cli/commands.h"
#include "app/cli/option_checks.h"

namespace hxemu::cli {

namespace {

using sw::remote::Client;
using sw::remote::Event;
using sw::remote::EventKind;
using sw::remote::json;

struct Opts {
  std::string host = "127.0.0.1";
  int port = 0;
  double timeout = 60;
  std::vector<std::string> words;
  int rail = 0;
  int tag = 0;
  std::uint32_t src_addr = 0, dst_addr = 0;
};

std::uint64_t number(const std::string& what, const std::string& s) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used, 0);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw UsageError(what + " '" + s + "' is not a number");
  }
}

void need(const Opts& o, std::size_t n, const char* usage) {
  if (o.words.size() != n) throw UsageError(std::string("usage: hxemu client --port N ") + usage);
}

void print_event(const Event& e) {
  switch (e.kind) {
    case EventKind::kPutDone:
      fmt::print("cycle {}: put_done op {} (rail {}, to node {}, tag {})\n", e.cycle, e.op, e.rail, e.node, e.tag);
      break;
    case EventKind::kMessage:
      fmt::print("cycle {}: message from node {} (rail {}, tag {}, {} bytes)\n", e.cycle, e.node, e.rail, e.tag, e.len);
      break;
    case EventKind::kReduceDone:
    case EventKind::kCopyDone:
      fmt::print("cycle {}: {} op {} (rail {})\n", e.cycle, sw::remote::event_name(e.kind), e.op, e.rail);
      break;
  }
}

int run(const Opts& o) {
  if (o.words.empty()) throw UsageError("hxemu client: say what to do (hello, stats, put, read, write, wait, raw)");
  const std::string cmd = o.words[0];
  sw::remote::ClientOptions co;
  co.host = o.host;
  co.port = static_cast<std::uint16_t>(o.port);
  co.timeout_seconds = o.timeout;
  if (cmd == "raw") {
    if (o.words.size() < 2) throw UsageError("usage: hxemu client --port N raw JSON...");
    Client c(co);
    if (o.words[1].find("\"hello\"") == std::string::npos) {
      c.send_raw(sw::remote::dump_line({{"req", "hello"}, {"version", sw::remote::kProtocolVersion}}));
      c.read_reply();
    }
    bool ok = true;
    for (std::size_t i = 1; i < o.words.size(); ++i) {
      c.send_raw(o.words[i] + "\n");
      const json r = c.read_reply();
      fmt::print("{}\n", r.dump());
      ok = ok && r.value("ok", false);
    }
    return ok ? 0 : 1;
  }
  Client c(co);
  const auto info = c.hello("hxemu client");
  if (cmd == "hello") {
    need(o, 1, "hello");
    fmt::print("{}: {} nodes x {} rails, {}-bit flits at {} GHz, {} bytes of host memory per node (protocol {})\n",
               info.name, info.nodes, info.rails, info.flit_bits, info.clock_ghz, info.memory_bytes, info.version);
    fmt::print("cycle {}; limits: {} clients, {}-byte requests, {}-byte reads\n", c.now(), info.max_clients,
               info.max_frame, info.max_read);
    return 0;
  }
  if (cmd == "stats") {
    if (o.words.size() > 2) throw UsageError("usage: hxemu client --port N stats [NODE]");
    const int node = o.words.size() == 2 ? static_cast<int>(number("NODE", o.words[1])) : -1;
    fmt::print("{}\n", c.stats(node).dump(1));
    return 0;
  }
  if (cmd == "put") {
    need(o, 4, "put SRC DST BYTES [--rail R] [--tag T] [--src-addr A] [--dst-addr A]");
    const int src = static_cast<int>(number("SRC", o.words[1]));
    const int dst = static_cast<int>(number("DST", o.words[2]));
    const auto bytes = static_cast<std::uint32_t>(number("BYTES", o.words[3]));
    c.attach(src);
    fmt::print("{}: attached to node {} at cycle {}\n", info.name, src, c.now());
    const auto op = c.put(o.rail, dst, o.src_addr, o.dst_addr, bytes, static_cast<std::uint16_t>(o.tag));
    const std::uint64_t posted = c.now();
    fmt::print("cycle {}: put op {} posted: {} bytes to node {} on rail {}, tag {}\n", posted, op, bytes, dst, o.rail,
               o.tag);
    auto w = c.wait_op(op);
    for (const auto& e : w.events) print_event(e);
    auto idle = c.wait_idle();
    for (const auto& e : idle.events) print_event(e);
    fmt::print("cycle {}: network idle\n", idle.cycle);
    const json s = c.stats(dst);
    const json& rail = s.at("nodes").at(0).at("rails").at(o.rail);
    fmt::print("node {} rail {}: {} messages received, {} bytes; {} cycles from post to idle\n", dst, o.rail,
               rail.at("rx_completions").get<std::uint64_t>(), rail.at("rx_bytes").get<std::uint64_t>(),
               idle.cycle - posted);
    c.detach();
    return 0;
  }
  if (cmd == "read") {
    need(o, 4, "read NODE ADDR LEN");
    c.attach(static_cast<int>(number("NODE", o.words[1])));
    const auto addr = static_cast<std::uint32_t>(number("ADDR", o.words[2]));
    const auto data = c.read(addr, number("LEN", o.words[3]));
    for (std::size_t i = 0; i < data.size(); i += 16) {
      std::string line = fmt::format("{:08x}:", addr + i);
      for (std::size_t k = i; k < std::min(data.size(), i + 16); ++k) line += fmt::format(" {:02x}", data[k]);
      fmt::print("{}\n", line);
    }
    return 0;
  }
  if (cmd == "write") {
    need(o, 4, "write NODE ADDR HEX");
    c.attach(static_cast<int>(number("NODE", o.words[1])));
    const auto addr = static_cast<std::uint32_t>(number("ADDR", o.words[2]));
    const std::string& hex = o.words[3];
    if (hex.size() % 2 != 0) throw UsageError("HEX needs two digits per byte");
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 0; i < hex.size(); i += 2) bytes.push_back(static_cast<std::uint8_t>(number("HEX", "0x" + hex.substr(i, 2))));
    c.write(addr, bytes.data(), bytes.size());
    fmt::print("wrote {} bytes at {:#x} of node {} (cycle {})\n", bytes.size(), addr, c.node(), c.now());
    return 0;
  }
  if (cmd == "wait") {
    need(o, 3, "wait NODE CYCLES");
    c.attach(static_cast<int>(number("NODE", o.words[1])));
    const auto w = c.wait_cycles(number("CYCLES", o.words[2]));
    for (const auto& e : w.events) print_event(e);
    fmt::print("cycle {}\n", w.cycle);
    return 0;
  }
  throw UsageError("hxemu client: unknown command '" + cmd + "' (hello, stats, put, read, write, wait, raw)");
}

int run_reporting(const Opts& o) {
  try {
    return run(o);
  } catch (const sw::remote::RemoteError& e) {
    fmt::print(stderr, "hxemu client: the server says {}\n", e.what());
    return e.code() == "bad_argument" || e.code() == "node_taken" ? 2 : 1;
  } catch (const sw::remote::TransportError& e) {
    fmt::print(stderr, "hxemu client: {}\n", e.what());
    return 1;
  }
}

}  // namespace

void add_client(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("client", "poke a running `hxemu serve` by hand");
  sub->add_option("--port", o->port, "the server's TCP port")->required()->check(CLI::Range(1, 65535));
  sub->add_option("--host", o->host, "the server's address (default 127.0.0.1)");
  sub->add_option("--timeout", o->timeout, "seconds to wait for each reply")->check(CLI::Range(0.1, 86400.0));
  sub->add_option("--rail", o->rail, "put: the rail (NIC) to use")->check(CLI::Range(0, 3));
  sub->add_option("--tag", o->tag, "put: the message tag")->check(CLI::Range(0, 65535));
  sub->add_option("--src-addr", o->src_addr, "put: source address in the sender's host memory")
      ->check(unsigned_integer());
  sub->add_option("--dst-addr", o->dst_addr, "put: destination address in the receiver's host memory")
      ->check(unsigned_integer());
  sub->add_option("request", o->words,
                  "hello | stats [NODE] | put SRC DST BYTES | read NODE ADDR LEN | write NODE ADDR HEX | "
                  "wait NODE CYCLES | raw JSON...");
  sub->callback([o, &action] { action = [o] { return run_reporting(*o); }; });
}

}  // namespace hxemu::cli
