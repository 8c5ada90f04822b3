// hxemu serve: the emulated machine served over TCP to outside programs, one client per node
// (the remote host interface, docs/remote-protocol.md).
#include <fmt/core.h>

#include <cctype>
#include <cstdio>
#include <algorithm>
#include <memory>

#include "sw/remote/protocol.h"
#include "sw/remote/server.h"
#include "sysc/util/parse_number.h"
#include "sysc/system/system_config.h"
#include "app/cli/commands.h"

namespace hxemu::cli {

namespace {

struct Opts {
  std::string config, bind = "127.0.0.1", memory, max_frame = "4M", max_read = "1M";
  std::vector<std::string> sets;
  int port = 0, max_clients = 0, rails = 4, memory_latency = 8;
  double reduce_cost = 0;
};

// "65536", "64K", "4M", "1G" (powers of 1024).
std::uint64_t bytes_option(const std::string& option, const std::string& v) {
  const auto n = sysc::parse_bytes(v);
  if (!n || *n > (1ull << 40)) {
    throw UsageError(option + " '" + v + "' is not a size in bytes (digits, optionally K, M or G)");
  }
  return *n;
}

int run(const Opts& o) {
  const auto cfg = sysc::load_system_config(o.config, o.sets);
  sw::remote::ServerOptions so;
  so.bind = o.bind;
  so.port = static_cast<std::uint16_t>(o.port);
  so.max_clients = o.max_clients;
  so.max_frame = bytes_option("--max-frame", o.max_frame);
  so.max_read = bytes_option("--max-read", o.max_read);
  // Default: 4 MiB per node, less on large machines so that all of them fit in 1 GiB.
  so.memory_bytes = o.memory.empty()
                        ? std::clamp<std::uint64_t>((1ull << 30) / static_cast<std::uint64_t>(cfg.nodes()) / 4096 * 4096,
                                                    64 * 1024, 4u << 20)
                        : bytes_option("--memory", o.memory);
  so.rails = o.rails;
  so.memory_latency = o.memory_latency;
  so.reduce_cycles_per_byte = o.reduce_cost;
  try {
    so.validate();
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
  const auto& opt = server->machine().options();
  fmt::print("hxemu serve: {} ({} nodes x {} rails, {}-bit flits at {} GHz), {} host memory per node\n", cfg.name,
             sys.nodes(), sys.rails(), cfg.flit_bits, cfg.clock_ghz, format_bytes(opt.memory_bytes));
  fmt::print("limits: {} clients, {}-byte requests, {}-byte reads; reduction {} cycles/byte\n", opt.max_clients,
             opt.max_frame, opt.max_read, opt.reduce_cycles_per_byte);
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
  sub->add_option("--memory", o->memory, "host memory per node (a multiple of 4K; default 4M, capped at 1G in all)");
  sub->add_option("--rails", o->rails, "NICs per node (one per router local port)")->check(CLI::Range(1, 4));
  sub->add_option("--memory-latency", o->memory_latency, "host-memory read latency, cycles")->check(CLI::Range(1, 1000));
  sub->add_option("--reduce-cost", o->reduce_cost,
                  "host reduction cost in cycles per byte (default: the memory port, 8/flit_bits)")
      ->check(CLI::Range(0.0, 1000.0));
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace hxemu::cli
