#include "tb/sc_harness.h"

#include <stdexcept>

#include "sysc/sc_system.h"

namespace hxemu::tb {

namespace {

struct ScState {
  std::unique_ptr<sysc::ScSystem> top;
  std::size_t partitions = 0;
  std::string config;
};

ScState& state() {
  static ScState s;
  return s;
}

class ScHarness final : public Harness {
 public:
  explicit ScHarness(sysc::System& sys) {
    ScState& s = state();
    if (!s.top) {
      s.top = std::make_unique<sysc::ScSystem>("hxemu", &sys);
      s.partitions = sys.partitions().size();
      s.config = sys.config().json;
    } else {
      if (s.partitions != sys.partitions().size() || s.config != sys.config().json) {
        throw std::logic_error(
            "SystemC elaborates once per process: a different configuration needs a new process");
      }
      s.top->rebind(&sys);
    }
  }
  void run(std::uint64_t cycles) override { state().top->run(cycles); }
  const char* name() const override { return "SystemC"; }
};

}  // namespace

std::unique_ptr<Harness> make_systemc_harness(sysc::System& sys) {
  return std::make_unique<ScHarness>(sys);
}

}  // namespace hxemu::tb
