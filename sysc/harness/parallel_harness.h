// ParallelHarness: the System's partitions (boards and trees) stepped by several threads, which
// synchronise once per lookahead window rather than once per cycle.
//
// Why that gives bit-identical results for any thread count: every block output is registered and
// a flit or credit a block sends in cycle t over a link of latency L is read in cycle t + L + 1
// (sysc/fabric/link.h). Partitions are joined only by links of latency >= L_min, so within a window
// of W = L_min + 1 cycles nothing one partition writes is read by another before the window ends,
// and each link's ring (2 (L + 1) slots) keeps the slots being written apart from the ones being
// read. So a thread steps each partition it takes through the whole window before the next one (the
// partition's blocks stay in cache for W cycles), and threads meet once per window. Within a
// window the threads take partitions from one list, heaviest first, as each finishes the last: a
// thread slowed by its core (a shared machine) or by busier partitions steps fewer, and which
// thread steps a partition changes nothing.
// The window is the same for any thread count (the minimum over every link joining two partitions),
// so the cycles at which a run() may stop are the same too. Every piece of mutable state belongs to
// one partition (C++ blocks read their partition's clock, Network::domain_clock); observers a
// testbench attaches must be per partition and merged by the caller after run() (tb/event_log.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sysc/harness/harness.h"

namespace hxemu::sysc {

// `threads` <= 0: the machine's hardware threads.
std::unique_ptr<Harness> make_parallel_harness(System& sys, int threads = 0);

// The lookahead window of a system: 1 + the smallest latency of a link joining two partitions
// (0 when no link does: one partition, no synchronisation needed).
std::uint64_t lookahead_window(const System& sys);

// Spans, the same rule one level down: within a partition, a block is stepped through a span of S
// cycles before the next block is stepped through the same S, where S is 1 + the smallest latency
// of a link inside the partition. A flit or credit sent in a span arrives after it, and a link's
// ring keeps the slots written apart from those read, so the result is the one of stepping every
// block cycle by cycle; a block's state stays in cache from one of its cycles to the next. A
// partition with a block that shares state beyond its links (LinkBlock::links_only: a NIC node
// and its host program) has span 1; one without inner links, kWholeRun (as long as the window).
// Indexed by partition.
inline constexpr std::uint64_t kWholeRun = ~std::uint64_t{0};
std::vector<std::uint64_t> partition_spans(const System& sys);

}  // namespace hxemu::sysc
