// The one VerilatedContext every model of the process shares.
#pragma once

class VerilatedContext;

namespace hxemu::sysc {
VerilatedContext* verilated_context();
}
