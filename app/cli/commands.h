// The hxemu subcommands. Each add_* registers one subcommand with its options on `app` and, when
// that subcommand is chosen, stores in `action` what to run after parsing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/option_checks.h"
#include "sysc/harness/harness.h"

namespace hxemu::cli {

using Action = std::function<int()>;

// The whole command line, for report stamps.
extern std::string g_command_line;

void add_router_demo(CLI::App& app, Action& action);
void add_describe(CLI::App& app, Action& action);
void add_pairs(CLI::App& app, Action& action);
void add_traffic(CLI::App& app, Action& action);
void add_sweep(CLI::App& app, Action& action);
void add_collective(CLI::App& app, Action& action);
void add_run(CLI::App& app, Action& action);
void add_jobs(CLI::App& app, Action& action);
void add_serve(CLI::App& app, Action& action);
void add_client(CLI::App& app, Action& action);
void add_compare(CLI::App& app, Action& action);
void add_train(CLI::App& app, Action& action);
void add_explore(CLI::App& app, Action& action);
void add_area(CLI::App& app, Action& action);
void add_signoff(CLI::App& app, Action& action);

// --config FILE (required) and --set key=value (repeatable) overrides of its fields.
inline void add_config_options(CLI::App* sub, std::string& config, std::vector<std::string>& sets) {
  sub->add_option("--config", config, "system configuration (JSON)")->required();
  sub->add_option("--set", sets,
                  "override a configuration field, e.g. --set router.vcs_per_class=4 (repeatable)");
}

// --quiet: no progress line on stderr (it is shown only when stderr is a terminal anyway).
inline void add_quiet_option(CLI::App* sub, bool& quiet) {
  sub->add_flag("--quiet,-q", quiet, "no progress line on stderr (shown only on a terminal)");
}

// "4K:4M" (x2 steps), "64K:1M:x4", or "4096,65536"; K/M/G are powers of 1024. Sizes must be
// positive multiples of 4 bytes. Throws UsageError naming the spec.
std::vector<std::uint64_t> parse_sizes(const std::string& spec);
std::vector<std::string> split_list(const std::string& s);
std::string format_bytes(std::uint64_t b);

// Refuses (UsageError naming `option`) a run whose estimated memory `need` does not fit the limit
// (sysc/util/memory_limit.h); `detail` says what the estimate is made of.
void check_memory(const std::string& option, std::uint64_t need, const std::string& detail);

// --harness (parallel, the default; plain; systemc) and --threads N (the parallel harness's
// threads, 0 = every core), shared by every command that steps a system.
struct HarnessOpts {
  std::string harness = "parallel";
  int threads = 0;
};
void add_harness_options(CLI::App* sub, HarnessOpts& o);
sysc::HarnessFactory harness_named(const HarnessOpts& o);
// Threads the parallel harness would use for `o` (0 resolved to the machine's cores).
int harness_threads(const HarnessOpts& o);
// "parallel C++, 2 threads", "plain C++", "SystemC".
std::string harness_label(const HarnessOpts& o);

// `rc`, or 1 with a message when standard output could not be written (a full disk, /dev/full):
// what a command printed must not be lost silently behind exit status 0.
int stdout_checked(int rc);

// An input problem the user must fix (bad value, unreadable file): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hxemu::cli
