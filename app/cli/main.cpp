// hxemu: the command line. Each subcommand is a thin front end over the tb/ and sw/ libraries
// (app/cli/cmd_*.cpp). Exit status: 0 success, 1 the run found a problem (wrong data, deadlock),
// 2 bad input (command line, configuration file).
#include <systemc>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdlib>
#include <exception>

#include "sysc/system/system_config.h"
#include "app/cli/commands.h"

namespace hxemu::cli {
std::string g_command_line;
}

int sc_main(int argc, char** argv) {
  using namespace hxemu::cli;
  for (int i = 0; i < argc; ++i) g_command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"hxemu: cycle-accurate RTL emulator of HammingMesh networks"};
  app.require_subcommand(1);
  Action action;
  add_run(app, action);
  add_router_demo(app, action);
  add_describe(app, action);
  add_pairs(app, action);
  add_traffic(app, action);
  add_sweep(app, action);
  add_collective(app, action);
  add_jobs(app, action);
  add_serve(app, action);
  add_client(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    return stdout_checked(action ? action() : 0);
  } catch (const hxemu::sysc::ConfigError& e) {
    fmt::print(stderr, "hxemu: error: {}\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    fmt::print(stderr, "hxemu: error: {}\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "hxemu: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "hxemu: error: {}\n", e.what());
    return 1;
  }
}

// Our own main (it takes precedence over libsystemc's): silence SystemC's banner, which it prints on
// stdout before sc_main runs, unless the user asked for it; then hand over to SystemC as usual.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
