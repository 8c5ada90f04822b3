// What `hxemu describe` reports about a system: its size, its links per class, its VCs, its
// bandwidth figures and its route lengths (from the routing model, over all pairs).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sysc/system/system.h"

namespace hxemu::tb {

struct SystemDescription {
  nlohmann::json json;   // everything, machine readable
  std::string text;      // the same, for people
};

SystemDescription describe_system(const sysc::System& sys);

}  // namespace hxemu::tb
