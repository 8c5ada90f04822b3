// Harness: what advances a System by some cycles -- the same verilated blocks either stepped by a
// plain C++ loop or composed through the SystemC board and tree modules (sysc/harness/sc_harness.h). Both give
// bit-identical results (registered block outputs); they differ in speed only.
// (The SystemC one is sysc/harness/sc_harness.h, in the hx_sysc_sc library.)
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>

#include "sysc/system/system.h"

namespace hxemu::sysc {

enum class HarnessKind { kPlain, kSystemC };

class Harness {
 public:
  virtual ~Harness() = default;
  virtual void run(std::uint64_t cycles) = 0;
  // run(cycles) with `beside` called once meanwhile, on whichever thread is free first: work of
  // the caller's that touches nothing the blocks touch (a testbench creating the next packets).
  // It has finished when this returns; an exception from it is rethrown here, after the cycles
  // have run. A harness with one thread calls it first.
  virtual void run_beside(std::uint64_t cycles, const std::function<void()>& beside) {
    std::exception_ptr failed;
    if (beside) {
      try {
        beside();
      } catch (...) {
        failed = std::current_exception();
      }
    }
    run(cycles);
    if (failed) std::rethrow_exception(failed);
  }
  virtual const char* name() const = 0;
  // Threads it steps with: a caller may use as many for its own work between runs.
  virtual int threads() const { return 1; }
};

class PlainHarness final : public Harness {
 public:
  explicit PlainHarness(System& sys) : sys_(sys) {}
  void run(std::uint64_t cycles) override {
    for (std::uint64_t i = 0; i < cycles; ++i) sys_.net().step();
  }
  const char* name() const override { return "plain C++"; }

 private:
  System& sys_;
};

// Makes the harness for a freshly built System. The SystemC one is only available in programs that
// link hx_sysc_sc (they define sc_main); others get the plain one.
using HarnessFactory = std::function<std::unique_ptr<Harness>(System& sys)>;
inline std::unique_ptr<Harness> make_plain_harness(System& sys) {
  return std::make_unique<PlainHarness>(sys);
}

}  // namespace hxemu::sysc
