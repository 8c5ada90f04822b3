#include "sysc/blocks/verilated_context.h"

#include <memory>

#include "verilated.h"

namespace hxemu::sysc {

VerilatedContext* verilated_context() {
  static std::unique_ptr<VerilatedContext> ctx = [] {
    auto c = std::make_unique<VerilatedContext>();
    c->fatalOnError(true);
    return c;
  }();
  return ctx.get();
}

}  // namespace hxemu::sysc
