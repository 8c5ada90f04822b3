#include "tb/report_io.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include "tb/build_info.h"

namespace hxemu::tb {

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write '" + path + "' (cannot create " + tmp + ")");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write '" + path + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "' (rename failed)");
  }
}

nlohmann::json reproducibility_stamp(const sysc::SystemConfig& cfg, std::uint64_t seed,
                                     const std::string& command_line) {
  return {{"config", nlohmann::json::parse(cfg.json)},
          {"config_file", cfg.source},
          {"seed", seed},
          {"command", command_line},
          {"source_revision", kSourceRevision},
          {"tool_versions", tool_versions()}};
}

}  // namespace hxemu::tb
