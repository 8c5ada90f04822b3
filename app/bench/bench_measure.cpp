#include "app/bench/bench_measure.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>

namespace hxemu::bench {
namespace {

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const auto& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

// In the child after fork: pinned to `cpu` (if >= 0), standard output and error to `fd`, standard
// input from /dev/null, exec.
[[noreturn]] void exec_child(const std::vector<std::string>& argv, int fd, int cpu) {
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (::sched_setaffinity(0, sizeof set, &set) != 0) {
      const std::string msg = "hxemu-bench: cannot pin to CPU " + std::to_string(cpu) + ": " + std::strerror(errno) + "\n";
      (void)!::write(fd, msg.data(), msg.size());
      ::_exit(126);
    }
  }
  const int null_in = ::open("/dev/null", O_RDONLY);
  if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto args = c_argv(argv);
  ::execvp(args[0], args.data());
  const std::string msg = "hxemu-bench: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  (void)!::write(STDERR_FILENO, msg.data(), msg.size());
  ::_exit(127);
}

}  // namespace

ProcessRun run_process(const std::vector<std::string>& argv, const std::string& log_path, int cpu) {
  ProcessRun r;
  const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return r;
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    return r;
  }
  if (pid == 0) exec_child(argv, fd, cpu);
  ::close(fd);
  int status = 0;
  struct rusage ru {};
  pid_t w;
  do {
    w = ::wait4(pid, &status, 0, &ru);
  } while (w < 0 && errno == EINTR);
  const auto t1 = std::chrono::steady_clock::now();
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.peak_rss_kb = ru.ru_maxrss;
  r.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  if (w != pid) return r;
  if (WIFEXITED(status)) {
    r.exit_status = WEXITSTATUS(status);
    r.started = r.exit_status != 127 && r.exit_status != 126;
  } else if (WIFSIGNALED(status)) {
    r.started = true;
    r.signal = WTERMSIG(status);
  }
  return r;
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

std::string capture_output(const std::vector<std::string>& argv) {
  char tmpl[] = "/tmp/hxemu-bench-probe-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) return "";
  ::close(fd);
  const auto r = run_process(argv, tmpl);
  std::string out;
  if (r.ok()) {
    std::ifstream in(tmpl);
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ::unlink(tmpl);
  return out;
}

std::string sibling_hxemu() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "hxemu";
  std::string self(buf, static_cast<std::size_t>(n));
  const auto slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/hxemu";
}

std::optional<std::string> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string p(path);
  std::size_t start = 0;
  while (start <= p.size()) {
    const auto end = std::min(p.find(':', start), p.size());
    std::string dir = p.substr(start, end - start);
    if (dir.empty()) dir = ".";
    const std::string full = dir + "/" + name;
    if (::access(full.c_str(), X_OK) == 0) return full;
    start = end + 1;
  }
  return std::nullopt;
}

std::string tail_of(const std::string& path, int lines) {
  std::ifstream in(path);
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    last.push_back(line);
    if (static_cast<int>(last.size()) > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += "    " + l + "\n";
  return out;
}

Capabilities probe(const std::string& hxemu) {
  Capabilities c;
  c.path = hxemu;
  const std::string version = capture_output({hxemu, "--version"});
  c.version = version.substr(0, version.find('\n'));
  std::string lower = version;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  // "MPI" in the version text means built with it, unless it says otherwise.
  c.mpi = lower.find("mpi") != std::string::npos && lower.find("without mpi") == std::string::npos &&
          lower.find("no mpi") == std::string::npos && lower.find("mpi: no") == std::string::npos &&
          lower.find("mpi off") == std::string::npos;
  const std::string traffic_help = capture_output({hxemu, "traffic", "--help"});
  c.threads = traffic_help.find("--threads") != std::string::npos;
  c.trace = traffic_help.find("--trace-cycles") != std::string::npos;
  return c;
}

}  // namespace hxemu::bench
