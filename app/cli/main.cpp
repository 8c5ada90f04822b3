// hxemu: the command line. Each subcommand is a thin front end over the tb/ and sw/ libraries
// (app/cli/cmd_*.cpp). Exit status: 0 success, 1 the run found a problem (wrong data, deadlock),
// 2 bad input (command line, configuration file).
#include <systemc>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "sysc/system/system_config.h"
#include "tb/build_info.h"
#include "app/cli/commands.h"
#include "app/cli/huge_pages.h"
#include "sysc/blocks/verilated_context.h"
#include "sysc/dist/ranks.h"

namespace hxemu::cli {
std::string g_command_line;
}

namespace {

// hxemu --version: where this binary came from (the stamp every report carries).
std::string version_text() {
  return fmt::format("hxemu, source revision {}\n{}\nheap: {}", hxemu::tb::kSourceRevision,
                     hxemu::tb::tool_versions(), hxemu::cli::heap_pages());
}

// The first word that is not an option names the subcommand (the top level has only --help and
// --version, which take no value). CLI11 answers a word that names none with "A subcommand is
// required": name the word and the commands instead. Empty when the word is a subcommand or absent.
std::string unknown_command_message(CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    std::string names;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      if (sub->check_name(word)) return "";
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    return fmt::format("unknown command '{}'; the commands are: {} (hxemu --help describes them)",
                       word, names);
  }
  return "";
}

// Every default shows in --help, but an empty list's ("--set TEXT=[]") says nothing: drop it.
void hide_empty_list_defaults(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* opt : sub->get_options([](CLI::Option* o) { return o->get_default_str() == "[]"; })) {
      opt->default_str("");
    }
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace hxemu::cli;
  // Under mpirun: every rank runs the same command on its share of the system (sysc/dist/);
  // rank 0 prints and writes the results, the others only report errors.
  hxemu::sysc::Ranks::init(&argc, &argv);
  if (hxemu::sysc::Ranks::rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  for (int i = 0; i < argc; ++i) g_command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"hxemu: cycle-accurate RTL emulator of HammingMesh networks"};
  // Every option's default in its --help line (subcommands copy these defaults when created).
  app.option_defaults()->always_capture_default();
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text(), "print the source revision and tool versions");
  Action action;
  add_run(app, action);
  add_router_demo(app, action);
  add_describe(app, action);
  add_pairs(app, action);
  add_traffic(app, action);
  add_sweep(app, action);
  add_collective(app, action);
  add_compare(app, action);
  add_jobs(app, action);
  add_train(app, action);
  add_explore(app, action);
  add_area(app, action);
  add_signoff(app, action);
  add_serve(app, action);
  add_client(app, action);

  hide_empty_list_defaults(app);
  if (const std::string unknown = unknown_command_message(app, argc, argv); !unknown.empty()) {
    fmt::print(stderr, "hxemu: error: {}\n", unknown);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (hxemu::sysc::Ranks::distributed()) {
    // The commands that step a system and give one process's results under mpirun (tested in
    // tests/app/mpi_identical_test.cpp); the others run in one process: serve and client talk to
    // one machine, area and signoff run Yosys, router-demo is one router.
    static const std::vector<std::string> kDistributed = {"traffic", "sweep", "pairs", "collective", "run",
                                                          "jobs", "train", "explore", "compare", "describe"};
    const std::string cmd = app.get_subcommands().empty() ? "" : app.get_subcommands().front()->get_name();
    if (std::find(kDistributed.begin(), kDistributed.end(), cmd) == kDistributed.end()) {
      fmt::print(stderr, "hxemu: error: '{}' runs in one process; under mpirun (here {} ranks) the "
                 "commands are {}\n", cmd, hxemu::sysc::Ranks::size(), fmt::join(kDistributed, ", "));
      return 2;
    }
  }
  try {
    const int rc = stdout_checked(action ? action() : 0);
    // An RTL assertion (rtl/common/hx_assert.svh) means a block broke a promise: whatever the run
    // printed, it is not a clean result.
    if (const auto fired = hxemu::sysc::rtl_assertion_count(); fired > 0) {
      fmt::print(stderr, "hxemu: error: {} RTL assertion failure{}; first: {}\n", fired, fired > 1 ? "s" : "",
                 hxemu::sysc::first_rtl_assertion());
      return rc == 0 ? 1 : rc;
    }
    return rc;
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
  hxemu::cli::use_huge_pages(argv);
  hxemu::cli::keep_freed_memory();
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
