// The --harness option shared by the commands that run collectives.
#include "sysc/harness/parallel_harness.h"
#include "sysc/harness/sc_harness.h"
#include "app/cli/commands.h"

namespace hxemu::cli {

namespace {
std::unique_ptr<sysc::Harness> parallel_harness(sysc::System& sys) { return sysc::make_parallel_harness(sys); }
}  // namespace

sysc::HarnessFactory harness_named(const std::string& name) {
  if (name == "plain") return sysc::make_plain_harness;
  if (name == "parallel") return parallel_harness;
  return sysc::make_systemc_harness;
}

const char* harness_label(const std::string& name) {
  if (name == "plain") return "plain C++";
  if (name == "parallel") return "parallel C++";
  return "SystemC";
}

}  // namespace hxemu::cli
