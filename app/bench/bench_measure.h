// What hxemu-bench (bench_main.cpp) needs to time the hxemu binary from outside: run one command as
// a child process (fork/exec), its whole-process wall time and peak resident size (wait4), and what
// a binary can do (--threads, MPI) read from its own --help and --version.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hxemu::bench {

struct ProcessRun {
  bool started = false;        // exec succeeded (a child that cannot exec exits 127)
  int exit_status = -1;        // the child's exit status, or -1 if it was killed by a signal
  int signal = 0;              // the signal that killed it, else 0
  double wall_seconds = 0;     // fork to reap
  long peak_rss_kb = 0;        // ru_maxrss of the child (largest of it and its reaped descendants)
  double cpu_seconds = 0;      // user + system time of the child (and its reaped descendants)
  bool ok() const { return started && exit_status == 0; }
};

// Runs argv[0] (a path, or a name looked up on PATH) with standard output and error appended to
// `log_path`, and waits for it. `cpu` >= 0 pins the child to that CPU (sched_setaffinity before
// exec): a child that cannot be pinned exits 126 and its run is not started.
ProcessRun run_process(const std::vector<std::string>& argv, const std::string& log_path, int cpu = -1);

// The CPUs this process may run on (sched_getaffinity), in increasing order.
std::vector<int> allowed_cpus();

// Standard output and error of a short command (--help, --version); empty unless it exits 0.
std::string capture_output(const std::vector<std::string>& argv);

// The hxemu binary in the same folder as this executable.
std::string sibling_hxemu();

// `name` found on PATH, as a full path.
std::optional<std::string> find_on_path(const std::string& name);

// The last `lines` lines of a file (a failed run's log).
std::string tail_of(const std::string& path, int lines);

// What one hxemu binary can run.
struct Capabilities {
  std::string path;
  std::string version;         // first line of --version (older binaries may have none)
  bool threads = false;        // `traffic --help` lists --threads
  bool mpi = false;            // --version mentions MPI
  bool trace = false;          // `traffic --help` lists --trace-cycles (docs/waveforms.md)
};
Capabilities probe(const std::string& hxemu);

}  // namespace hxemu::bench
