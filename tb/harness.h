// The harnesses live in sysc/ (sysc/harness.h, sysc/sc_harness.h); these names keep testbench code
// short.
#pragma once

#include "sysc/harness.h"

namespace hxemu::tb {
using sysc::Harness;
using sysc::HarnessFactory;
using sysc::HarnessKind;
using sysc::make_plain_harness;
using sysc::PlainHarness;
}  // namespace hxemu::tb
