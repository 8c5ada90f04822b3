// Writing result files: all of a command's outputs or none, each checked before the run starts,
// and the reproducibility stamp every report carries.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/system_config.h"

namespace hxemu::tb {

// An output path that cannot be written (bad input: the message names the option and the path).
class OutputPathError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The output files of one command (--json, --csv, --plot, ...).
//   add()    before the run: the path's folder exists and a file can be created in it (tried), the
//            path is not a directory or a device, and no two options name the same file; else
//            throws OutputPathError naming the option.
//   put()    stages a file's content (in memory).
//   commit() writes every staged file to a temporary file beside it and, once all are written,
//            renames them into place. If a write fails it removes every temporary and throws
//            std::runtime_error naming the file: no output is written or replaced.
class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  OutputFiles(OutputFiles&&) = default;

  // An empty path (the option was not given) is ignored.
  void add(const std::string& option, const std::string& path);
  // `path` must have been add()ed.
  void put(const std::string& path, std::string content);
  void commit();

 private:
  std::vector<std::pair<std::string, std::string>> paths_;   // (option, path) in add() order
  std::map<std::string, std::string> staged_;                // path -> content
};

// One file, all or nothing (a temporary file renamed into place); throws std::runtime_error
// naming the path on failure and leaves no partial file.
void write_file_atomic(const std::string& path, const std::string& content);

// {"config": {...}, "config_file": ..., "seed": ..., "source_revision": ..., "tool_versions": ...}
nlohmann::json reproducibility_stamp(const sysc::SystemConfig& cfg, std::uint64_t seed,
                                     const std::string& command_line);

}  // namespace hxemu::tb
