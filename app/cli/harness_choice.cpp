// The --harness and --threads options shared by every command that steps a system.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include "sysc/dist/ranks.h"
#include "sysc/harness/parallel_harness.h"
#include "sysc/harness/sc_harness.h"
#include "app/cli/commands.h"

namespace hxemu::cli {

void add_harness_options(CLI::App* sub, HarnessOpts& o) {
  sub->add_option("--harness", o.harness,
                  "parallel (C++, partitions on --threads threads, one synchronisation per "
                  "lookahead window), plain (C++ loop, one thread) or systemc (board and tree "
                  "modules); bit-identical results")
      ->check(CLI::IsMember({"parallel", "plain", "systemc"}))
      ->capture_default_str();
  sub->add_option("--threads", o.threads,
                  "threads of the parallel harness (0: every core; under mpirun, the cores shared "
                  "among the ranks on the machine)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
}

int harness_threads(const HarnessOpts& o) {
  if (o.harness != "parallel") return 1;
  if (o.threads > 0) return o.threads;
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Under mpirun the ranks on this machine share its cores (Open MPI tells each how many there are).
  if (const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"); local && sysc::Ranks::distributed()) {
    cores = std::max(1, cores / std::max(1, std::atoi(local)));
  }
  return cores;
}

std::string harness_label(const HarnessOpts& o) {
  if (o.harness == "plain") return "plain C++";
  if (o.harness == "systemc") return "SystemC";
  const int t = harness_threads(o);
  std::string s = "parallel C++, " + std::to_string(t) + (t == 1 ? " thread" : " threads");
  // Under mpirun (the threads are per rank), as the parallel harness names itself.
  if (sysc::Ranks::size() > 1) s += " x " + std::to_string(sysc::Ranks::size()) + " MPI ranks";
  return s;
}

sysc::HarnessFactory harness_named(const HarnessOpts& o) {
  if (sysc::Ranks::distributed() && o.harness != "parallel") {
    throw UsageError("--harness " + o.harness + " runs in one process; under mpirun use --harness parallel");
  }
  if (o.harness == "plain") return sysc::make_plain_harness;
  if (o.harness == "systemc") return sysc::make_systemc_harness;
  const int threads = harness_threads(o);
  return [threads](sysc::System& sys) { return sysc::make_parallel_harness(sys, threads); };
}

}  // namespace hxemu::cli
