// Helpers shared by the system tests.
#pragma once

#include <string>

#include "sysc/system/system_config.h"

namespace hxemu::test {

inline std::string config_path(const std::string& name) {
  return std::string(HX_CONFIG_DIR) + "/" + name + ".json";
}
inline sysc::SystemConfig shipped(const std::string& name) {
  return sysc::load_system_config(config_path(name));
}

}  // namespace hxemu::test
