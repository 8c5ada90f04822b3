// Compiled into the models' library (cmake/HxModels.cmake): every verilated model calls
// hx_rtl_assert_failed below when one of its assertions fails, so the definition goes wherever a
// model goes.
#include "sysc/blocks/verilated_context.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

#include "verilated.h"

namespace hxemu::sysc {
namespace {

// Models of one process may be evaluated by several threads (the parallel harness).
struct Record {
  std::mutex mu;
  std::uint64_t count = 0;
  std::vector<std::string> messages;
};

Record& record() {
  static Record r;
  return r;
}

RtlAssertionReport report_locked(const Record& r) {
  RtlAssertionReport out;
  out.count = r.count;
  out.messages = r.messages;
  // Errors Verilator's run time raised itself (fatalOnError is off, see verilated_context()).
  const int runtime_errors = verilated_context()->errorCount();
  if (runtime_errors > 0) {
    out.count += static_cast<std::uint64_t>(runtime_errors);
    if (out.messages.size() < kRtlAssertionMessagesKept) {
      out.messages.push_back("Verilator run-time error(s): " + std::to_string(runtime_errors) +
                             " (their text is on stdout)");
    }
  }
  return out;
}

}  // namespace

VerilatedContext* verilated_context() {
  static std::unique_ptr<VerilatedContext> ctx = [] {
    auto c = std::make_unique<VerilatedContext>();
    // A $stop or a failed built-in check (unique case under --assert) is counted, not fatal: the
    // process goes on and rtl_assertion_count() reports it. hxemu's own assertions do not go
    // through Verilator's error path at all (hx_rtl_assert_failed below).
    c->fatalOnError(false);
    return c;
  }();
  return ctx.get();
}

bool rtl_assertions_built() {
#ifdef HX_RTL_ASSERT
  return true;
#else
  return false;
#endif
}

std::uint64_t rtl_assertion_count() { return rtl_assertions().count; }

std::string first_rtl_assertion() {
  const RtlAssertionReport r = rtl_assertions();
  return r.messages.empty() ? std::string() : r.messages.front();
}

RtlAssertionReport rtl_assertions() {
  Record& r = record();
  std::lock_guard<std::mutex> lock(r.mu);
  return report_locked(r);
}

RtlAssertionReport take_rtl_assertions() {
  Record& r = record();
  std::lock_guard<std::mutex> lock(r.mu);
  RtlAssertionReport out = report_locked(r);
  r.count = 0;
  r.messages.clear();
  verilated_context()->errorCount(0);
  return out;
}

void enable_rtl_assertions(bool on) { verilated_context()->assertOn(on); }

}  // namespace hxemu::sysc

// The DPI-C import of rtl/common/hx_assert.svh.
extern "C" void hx_rtl_assert_failed(const char* msg) {
  using namespace hxemu::sysc;
  Record& r = record();
  std::lock_guard<std::mutex> lock(r.mu);
  ++r.count;
  if (r.messages.size() < kRtlAssertionMessagesKept) r.messages.emplace_back(msg);
  if (r.count <= kRtlAssertionMessagesPrinted) {
    std::fprintf(stderr, "hxemu: RTL assertion failed: %s\n", msg);
    if (r.count == kRtlAssertionMessagesPrinted) {
      std::fprintf(stderr, "hxemu: further RTL assertion failures are counted, not printed\n");
    }
  }
}
