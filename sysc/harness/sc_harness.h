// The SystemC harness: runs a System through its ScSystem (sysc/harness/sc_system.h). SystemC elaborates
// once per process, so the first System elaborates the modules and later ones (same configuration,
// e.g. the points of a sweep) are re-bound to them.
#pragma once

#include "sysc/harness/harness.h"

namespace hxemu::sysc {

std::unique_ptr<Harness> make_systemc_harness(System& sys);

}  // namespace hxemu::sysc
