#include "tb/report_io.h"

#include "sysc/dist/ranks.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sysc/system/network_cost.h"
#include "tb/build_info.h"

namespace hxemu::tb {

namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A temporary name beside `path` (same folder, so that rename() is atomic and cannot cross file
// systems), hidden and unique to this process.
std::string temp_beside(const std::string& path, int k) {
  std::string folder = folder_of(path);
  if (folder != "/") folder += "/";
  return folder + "." + base_of(path) + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(k);
}

// Writes `content` to a new file `tmp`; returns "" or what went wrong.
std::string write_new(const std::string& tmp, const std::string& content) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return std::string("cannot create ") + tmp + ": " + std::strerror(errno);
  std::size_t done = 0;
  std::string err;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = std::strerror(errno);
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && err.empty()) err = std::strerror(errno);
  return err;
}

}  // namespace

void OutputFiles::add(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const std::string what = option + " '" + path + "'";
  for (const auto& [other_option, other] : paths_) {
    if (other == path) throw OutputPathError(what + ": the same file is also given to " + other_option);
  }
  if (path.back() == '/') throw OutputPathError(what + ": is a folder, not a file name");
  const std::string folder = folder_of(path);
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw OutputPathError(what + ": the folder '" + folder + "' does not exist");
  }
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw OutputPathError(what + ": is a folder, not a file name");
    // Replacing a device (/dev/null) or a FIFO by renaming a file over it would be wrong.
    if (!S_ISREG(st.st_mode)) throw OutputPathError(what + ": exists and is not a regular file");
    for (const auto& [other_option, other] : paths_) {
      struct stat ost {};
      if (::stat(other.c_str(), &ost) == 0 && ost.st_dev == st.st_dev && ost.st_ino == st.st_ino) {
        throw OutputPathError(what + ": the same file is also given to " + other_option);
      }
    }
  }
  // access() is not enough (root passes it; /proc refuses new files anyway): create a file there.
  const std::string probe = temp_beside(path, static_cast<int>(paths_.size()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw OutputPathError(what + ": cannot create a file in '" + folder + "' (" + std::strerror(errno) + ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
  paths_.emplace_back(option, path);
}

void OutputFiles::put(const std::string& path, std::string content) {
  for (const auto& p : paths_) {
    if (p.second == path) {
      staged_[path] = std::move(content);
      return;
    }
  }
  throw std::logic_error("output '" + path + "' was not checked with OutputFiles::add");
}

void OutputFiles::commit() {
  // Under mpirun every rank has the same results; rank 0 writes them.
  if (sysc::Ranks::rank() != 0) {
    staged_.clear();
    return;
  }
  std::vector<std::pair<std::string, std::string>> temps;   // (temporary, final path)
  auto remove_temps = [&temps] {
    for (const auto& t : temps) ::unlink(t.first.c_str());
  };
  int k = 0;
  for (const auto& [path, content] : staged_) {
    const std::string tmp = temp_beside(path, k++);
    const std::string err = write_new(tmp, content);
    if (!err.empty()) {
      ::unlink(tmp.c_str());
      remove_temps();
      throw std::runtime_error("cannot write '" + path + "' (" + err + "); no output file was written");
    }
    temps.emplace_back(tmp, path);
  }
  for (std::size_t i = 0; i < temps.size(); ++i) {
    if (std::rename(temps[i].first.c_str(), temps[i].second.c_str()) != 0) {
      const std::string err = std::strerror(errno);
      for (std::size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].first.c_str());
      throw std::runtime_error("cannot write '" + temps[i].second + "' (rename: " + err + ")");
    }
  }
  staged_.clear();
}

void write_file_atomic(const std::string& path, const std::string& content) {
  // Under mpirun every rank has the same content; rank 0 writes it (as OutputFiles::commit).
  if (sysc::Ranks::rank() != 0) return;
  const std::string tmp = temp_beside(path, 0);
  const std::string err = write_new(tmp, content);
  if (!err.empty()) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "' (" + err + ")");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string rename_err = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "' (rename: " + rename_err + ")");
  }
}

nlohmann::json reproducibility_stamp(const sysc::SystemConfig& cfg, std::uint64_t seed,
                                     const std::string& command_line) {
  return {{"config", nlohmann::json::parse(cfg.json)},
          {"config_file", cfg.source},
          {"seed", seed},
          {"command", command_line},
          {"source_revision", kSourceRevision},
          {"tool_versions", tool_versions()},
          // What the network costs at the configuration's prices (docs/cost.md).
          {"cost", sysc::network_cost(cfg).json()}};
}

}  // namespace hxemu::tb
