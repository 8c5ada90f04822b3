#include "sysc/fabric/link.h"

#include <stdexcept>

namespace hxemu::sysc {

Link::Link(int latency) : latency_(latency) {
  if (latency < 0) throw std::invalid_argument("link latency must be >= 0");
  // 2 (L + 1) slots: a windowed harness lets the sender run up to L + 1 cycles ahead of the
  // receiver (sysc/harness/parallel_harness.h), so the slots written for cycles t + L + 1 ..
  // t + 2L + 1 must not reuse the ones the receiver still reads (t .. t + L).
  std::size_t slots = 1;
  while (slots < 2 * (static_cast<std::size_t>(latency) + 1)) slots <<= 1;
  mask_ = slots - 1;
  flit_store_.resize(slots);
  credit_store_.resize(slots);
  flits_ = flit_store_.data();
  credits_ = credit_store_.data();
}

}  // namespace hxemu::sysc
