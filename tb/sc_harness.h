// See tb/harness.h: the SystemC harness lives in sysc/sc_harness.h.
#pragma once

#include "sysc/sc_harness.h"
#include "tb/harness.h"

namespace hxemu::tb {
using sysc::make_systemc_harness;
}  // namespace hxemu::tb
