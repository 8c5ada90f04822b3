// Where a result came from: source revision and tool versions, stamped into every report.
#pragma once

#include <string>

namespace hxemu::tb {

extern const char* const kSourceRevision;     // git short hash, "-dirty" with local changes
extern const char* const kVerilatorVersion;

// Compiler, SystemC and Verilator versions in one line.
std::string tool_versions();

}  // namespace hxemu::tb
