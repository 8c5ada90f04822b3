// The client-side program runner: executes a node's Program through the remote host interface with
// exactly HostCpu's semantics (sw/runtime/host_cpu.h) -- the same ProgramState decides what to start
// and in which order, so a schedule run remotely takes the same cycles as in-process:
//   issue every ready op (puts, reduces, copies; recvs and joins are bookkeeping), wait for any
//   event, feed the events in the order the server reports them (HostEngine::collect's order), at
//   the cycle they were seen, and repeat until every op finished.
// The ops issued in one round and the wait that ends it go to the server in one pipelined batch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/remote/client.h"
#include "sw/runtime/program.h"

namespace hxemu::sw::remote {

struct RemoteRunResult {
  bool ok = false;
  std::uint64_t started = 0;       // the cycle the program started (c.now() at the call)
  std::uint64_t finished_at = 0;   // the cycle its last op finished
  std::uint64_t rounds = 0;        // waits
  std::uint64_t requests = 0;      // puts, reduces and copies issued
  std::vector<std::string> errors;
};

// Runs `p` on the node `c` is attached to, starting at the cycle of c's last reply (typically a
// barrier all participants left together), reductions in `type`. `initial`: events that reply
// carried (seen first, as HostCpu sees completions pending when a program is loaded). Server
// errors (e.g. a wait that can never complete because a peer left) end the run with ok == false
// and the error, and what the program still waited for, in `errors`; nothing is thrown for them.
RemoteRunResult run_program(Client& c, Program p, DataType type, const std::vector<Event>& initial = {});

}  // namespace hxemu::sw::remote
