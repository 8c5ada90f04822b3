#include "tb/build_info.h"

#include "sysc/dist/ranks.h"

namespace hxemu::tb {

extern const char* const kSystemCVersion;

std::string tool_versions() {
  std::string s = kVerilatorVersion;
  s += "; SystemC ";
  s += kSystemCVersion;
#if defined(__clang__)
  s += "; clang " __clang_version__;
#elif defined(__GNUC__)
  s += "; g++ " __VERSION__;
#endif
  s += "; " + sysc::Ranks::library();
  return s;
}

}  // namespace hxemu::tb
