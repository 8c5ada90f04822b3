// Linked into every GoogleTest executable (hx_add_gtest in tests/CMakeLists.txt): an RTL assertion
// (rtl/common/hx_assert.svh) that fires during a test and is not taken by that test
// (take_rtl_assertions) fails the run, naming the test and the messages. So every test that drives
// the RTL -- the random-traffic runs through routers, switches and NICs included -- also checks
// the promises the RTL modules state, and a test that plants a violation on purpose says which
// assertion it expects. In a build without assertions (HX_RTL_ASSERT=OFF) nothing ever fires.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sysc/blocks/verilated_context.h"

namespace {

std::vector<std::string>& unexpected() {
  static std::vector<std::string> v;
  return v;
}

class TakeAfterEachTest : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const hxemu::sysc::RtlAssertionReport r = hxemu::sysc::take_rtl_assertions();
    if (r.count == 0) return;
    std::ostringstream os;
    os << info.test_suite_name() << "." << info.name() << ": " << r.count
       << " RTL assertion failure(s) the test did not expect";
    for (const auto& m : r.messages) os << "\n  " << m;
    if (r.count > r.messages.size()) os << "\n  ...";
    unexpected().push_back(os.str());
  }
};

class FailOnUnexpected : public ::testing::Environment {
  void TearDown() override {
    for (const auto& u : unexpected()) ADD_FAILURE() << u;
  }
};

[[maybe_unused]] const bool kRegistered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new TakeAfterEachTest);
  ::testing::AddGlobalTestEnvironment(new FailOnUnexpected);
  return true;
}();

}  // namespace
