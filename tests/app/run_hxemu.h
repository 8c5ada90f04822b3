// Runs the hxemu binary as a child process with a time limit and captures what it printed.
#pragma once

#include <string>
#include <vector>

namespace hxemu::test {

struct RunResult {
  int status = -1;          // exit status; -1 when killed (time limit) or not started
  std::string out, err;     // standard output and standard error
  bool timed_out = false;
};

// hxemu `args...`, with `env` ("NAME=value") added to the environment; killed after
// `timeout_s` seconds. `stdout_path`: where standard output goes instead of being captured
// (e.g. /dev/full).
RunResult run_hxemu(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
              int timeout_s = 120, const std::string& stdout_path = "");

// configs/<name>.json
std::string config(const std::string& name);

// The whole content of a file ("" when it cannot be read).
std::string slurp(const std::string& path);

// A fresh empty folder under the system's temporary folder, removed with its contents when the
// object goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Names of the entries in the folder (temporaries included), sorted.
  std::vector<std::string> entries() const;
  // Writes `content` to file(name) and returns its path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

bool exists(const std::string& path);

}  // namespace hxemu::test
