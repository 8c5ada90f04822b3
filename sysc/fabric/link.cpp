#include "sysc/fabric/link.h"

#include <stdexcept>

namespace hxemu::sysc {

Link::Link(int latency) : latency_(latency) {
  if (latency < 0) throw std::invalid_argument("link latency must be >= 0");
  std::size_t slots = 1;
  while (slots < static_cast<std::size_t>(latency) + 2) slots <<= 1;
  mask_ = slots - 1;
  flits_.resize(slots);
  credits_.resize(slots);
}

}  // namespace hxemu::sysc
