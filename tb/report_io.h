// Writing result files: all or nothing (a temporary file renamed into place), and the
// reproducibility stamp every report carries.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sysc/system/system_config.h"

namespace hxemu::tb {

// Writes `content` to `path` via a temporary file in the same folder; throws std::runtime_error
// naming the path on failure (and leaves no partial file).
void write_file_atomic(const std::string& path, const std::string& content);

// {"config": {...}, "config_file": ..., "seed": ..., "source_revision": ..., "tool_versions": ...}
nlohmann::json reproducibility_stamp(const sysc::SystemConfig& cfg, std::uint64_t seed,
                                     const std::string& command_line);

}  // namespace hxemu::tb
