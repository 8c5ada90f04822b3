#include "sysc/harness/sc_harness.h"

#include <stdexcept>

#include "sysc/harness/sc_system.h"

namespace hxemu::sysc {

namespace {

struct ScState {
  std::unique_ptr<ScSystem> top;
  std::size_t partitions = 0;
  std::string config;
};

ScState& state() {
  static ScState s;
  return s;
}

class ScHarness final : public Harness {
 public:
  explicit ScHarness(System& sys) {
    ScState& s = state();
    if (!s.top) {
      s.top = std::make_unique<ScSystem>("hxemu", &sys);
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

std::unique_ptr<Harness> make_systemc_harness(System& sys) {
  return std::make_unique<ScHarness>(sys);
}

}  // namespace hxemu::sysc
