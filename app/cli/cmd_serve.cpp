// hxemu serve: the emulated machine served over TCP to outside programs, one client per node
// (the remote host interface, docs/remote-protocol.md).
#include <fmt/core.h>

#include <cctype>
#include <cstdio>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "sw/remote/protocol.h"
#include "sw/remote/server.h"
#include "sysc/util/parse_number.h"
#include "sysc/system/system_config.h"
#include "app/cli/commands.h"
#include "app/cli/option_checks.h"

namespace hxemu::cli {

namespace {

double seconds(std::chrono::milliseconds t) { return static_cast<double>(t.count()) / 1000.0; }

struct Opts {
  std::string config, bind = "127.0.0.1", memory, max_frame = "4M", max_read = "1M", max_backlog;
  std::vector<std::string> sets;
  int port = 0, max_clients = 0, rails = 4, memory_latency = 8;
  double reduce_cost = 0;
  // Seconds, 0: none; the library's defaults.
  double handshake_timeout = seconds(sw::remote::ServerOptions{}.handshake_timeout);
  double idle_timeout = seconds(sw::remote::ServerOptions{}.idle_timeout);
  double hold_timeout = seconds(sw::remote::ServerOptions{}.hold_timeout);
};

// "65536", "64K", "4M", "1G" (powers of 1024).
std::uint64_t bytes_option(const std::string& option, const std::string& v) {
  const auto n = sysc::parse_bytes(v);
  if (!n || *n > (1ull << 40)) {
    throw UsageError(option + " '" + v + "' is not a size in bytes (digits, optionally K, M or G)");
  }
  return *n;
}

// Whole milliseconds; a positive value stays positive (it is not "none").
std::chrono::milliseconds seconds_option(double s) {
  const auto ms = std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(s * 1000)));
  return s > 0 ? std::max(ms, std::chrono::milliseconds(1)) : ms;
}

// The server options' fields as this command's flags, for error messages.
std::string flag_of(const std::string& field) {
  static const std::map<std::string, std::string> flags = {
      {"max_clients", "--max-clients"},       {"max_frame", "--max-frame"},
      {"max_backlog", "--max-backlog"},       {"max_read", "--max-read"},
      {"memory_bytes", "--memory"},           {"rails", "--rails"},
      {"memory_latency", "--memory-latency"}, {"reduce_cycles_per_byte", "--reduce-cost"},
      {"handshake_timeout", "--handshake-timeout"}, {"idle_timeout", "--idle-timeout"},
      {"hold_timeout", "--hold-timeout"}};
  auto it = flags.find(field);
  return it == flags.end() ? field : it->second;
}

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  sw::remote::ServerOptions so;
  so.bind = o.bind;
  so.port = static_cast<std::uint16_t>(o.port);
  so.max_clients = o.max_clients;
  so.max_frame = bytes_option("--max-frame", o.max_frame);
  so.max_read = bytes_option("--max-read", o.max_read);
  if (!o.max_backlog.empty()) so.max_backlog = bytes_option("--max-backlog", o.max_backlog);
  // Empty: the library's default (4 MiB per node, less where the machine would exceed its cap).
  if (!o.memory.empty()) {
    const auto n = sysc::parse_bytes(o.memory);
    if (!n) throw UsageError("--memory '" + o.memory + "' is not a size in bytes (digits, optionally K, M or G)");
    if (*n == 0) {   // the library reads 0 as "the default"; on the command line that is leaving it out
      throw UsageError("--memory 0: host memory per node is a multiple of 4K from 4K to " +
                       format_bytes(sw::remote::max_memory_per_node(cfg.nodes())) + " on this machine");
    }
    so.memory_bytes = *n;
  }
  so.rails = o.rails;
  so.memory_latency = o.memory_latency;
  so.reduce_cycles_per_byte = o.reduce_cost;
  so.handshake_timeout = seconds_option(o.handshake_timeout);
  so.idle_timeout = seconds_option(o.idle_timeout);
  so.hold_timeout = seconds_option(o.hold_timeout);
  // Checked here, with the flags' names, before the server allocates any host memory.
  try {
    so.validate(cfg.nodes(), flag_of);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::unique_ptr<sw::remote::Server> server;
  try {
    server = std::make_unique<sw::remote::Server>(cfg, so);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  const auto& sys = server->machine().system();
  const auto& opt = server->options();
  fmt::print("hxemu serve: {} ({} nodes x {} rails, {}-bit flits at {} GHz), {} host memory per node\n", cfg.name,
             sys.nodes(), sys.rails(), cfg.flit_bits, cfg.clock_ghz, format_bytes(opt.memory_bytes));
  fmt::print("limits: {} clients, {}-byte requests, {}-byte backlog per connection, {}-byte reads; reduction {} "
             "cycles/byte\n",
             opt.max_clients, opt.max_frame, opt.max_backlog, opt.max_read, opt.reduce_cycles_per_byte);
  const auto secs = [](std::chrono::milliseconds t) {
    return t.count() ? fmt::format("{} s", seconds(t)) : std::string("none");
  };
  fmt::print("timeouts: handshake {}, idle {}, hold {}\n", secs(opt.handshake_timeout), secs(opt.idle_timeout),
             secs(opt.hold_timeout));
  fmt::print("listening on {}:{} (protocol version {}); Ctrl-C stops\n", opt.bind, server->port(),
             sw::remote::kProtocolVersion);
  std::fflush(stdout);
  server->stop_on_signals();
  server->run();
  fmt::print("hxemu serve: stopped at cycle {}\n", server->machine().now());
  return 0;
}

}  // namespace

void add_serve(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("serve", "serve the emulated machine's NICs to outside programs over TCP");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--port", o->port, "TCP port; 0 picks a free one (printed)")->check(CLI::Range(0, 65535));
  sub->add_option("--bind", o->bind, "address to listen on (default loopback only)");
  sub->add_option("--max-clients", o->max_clients, "open connections at most (default nodes + 16)")
      ->check(CLI::Range(0, 100000));
  sub->add_option("--max-frame", o->max_frame, "longest request line in bytes, K/M suffixes (default 4M)");
  sub->add_option("--max-read", o->max_read, "most bytes one read request returns (default 1M)");
  sub->add_option("--max-backlog", o->max_backlog,
                  "request bytes buffered per connection and not yet handled; at the bound the server stops "
                  "reading that connection (default: --max-frame)");
  sub->add_option("--memory", o->memory,
                  "host memory per node (a multiple of 4K; default 4M; at most 1G over all nodes, the rails of a "
                  "node share it)");
  sub->add_option("--rails", o->rails, "NICs per node (one per router local port)")->check(CLI::Range(1, 4));
  sub->add_option("--memory-latency", o->memory_latency, "host-memory read latency, cycles")->check(CLI::Range(1, 1000));
  sub->add_option("--reduce-cost", o->reduce_cost,
                  "host reduction cost in cycles per byte (default: the memory port, 8/flit_bits)")
      ->check(finite_range(0.0, 1000.0));
  sub->add_option("--handshake-timeout", o->handshake_timeout,
                  "seconds a connection has to complete hello before it is closed; 0: none")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sub->add_option("--idle-timeout", o->idle_timeout,
                  "seconds without a complete request (no wait pending) before a connection is closed; 0: none")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sub->add_option("--hold-timeout", o->hold_timeout,
                  "seconds an attached client may hold simulated time still (neither waiting nor sending a "
                  "request while others wait) before it is detached; 0: none")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
