// ParallelHarness: the System's partitions (boards and trees) stepped by several threads in
// lockstep, one barrier per cycle. Results are bit-identical to the plain loop: within a cycle a
// block reads only link slots written in earlier cycles (every block output is registered and
// every link is at least one slot deep), and every piece of mutable state belongs to one block --
// except observers a testbench attaches (scoreboards, cable taps), so it is for runs without them
// (collectives), not for synthetic-traffic runs.
#pragma once

#include <memory>

#include "sysc/harness/harness.h"

namespace hxemu::sysc {

// `threads` <= 0: the machine's hardware threads.
std::unique_ptr<Harness> make_parallel_harness(System& sys, int threads = 0);

}  // namespace hxemu::sysc
