// Reading a small input file (a configuration or a job file) whole, with a size cap: a path such as
// /dev/zero, a directory or a huge file is an error naming the file, not gigabytes read into memory.
// Regular files and pipes (`--config <(...)`) are read; devices, sockets and directories are not.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace hxemu::sysc {

// The largest configuration or job file read: the shipped ones are a few hundred bytes.
constexpr std::uint64_t kMaxInputFileBytes = 4ull << 20;

// A file that cannot be read as input: the message names the file and why.
class InputFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The whole of `path`; `what` names the file's role in messages ("configuration file").
inline std::string read_input_file(const std::string& path, const std::string& what,
                                   std::uint64_t max_bytes = kMaxInputFileBytes) {
  const std::string name = what + " '" + path + "'";
  const std::string cap = std::to_string(max_bytes >> 20) + " MiB";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputFileError("cannot read " + name + ": " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) throw InputFileError(name + " is a directory, not a file");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    throw InputFileError(name + " is not a regular file (a device or socket); give a JSON file");
  }
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    throw InputFileError(name + " is " + std::to_string(st.st_size) + " bytes, more than the " + cap +
                         " an input file may have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputFileError("cannot read " + name + ": " + std::strerror(errno));
  // Read at most one byte past the cap: a pipe (or a file that grew) is cut off there.
  std::string text;
  char buf[65536];
  while (in && text.size() <= max_bytes) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > max_bytes) {
    throw InputFileError(name + " is more than the " + cap + " an input file may have");
  }
  if (in.bad()) throw InputFileError("cannot read " + name + ": read error");
  return text;
}

}  // namespace hxemu::sysc
