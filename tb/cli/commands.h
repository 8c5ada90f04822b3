// The hxemu subcommands. Each add_* registers one subcommand with its options on `app` and, when
// that subcommand is chosen, stores in `action` what to run after parsing.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace hxemu::cli {

using Action = std::function<int()>;

// The whole command line, for report stamps.
extern std::string g_command_line;

void add_router_demo(CLI::App& app, Action& action);
void add_describe(CLI::App& app, Action& action);
void add_pairs(CLI::App& app, Action& action);

// An input problem the user must fix (bad value, unreadable file): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hxemu::cli
