// One NPU's Chakra trace file, read and put in order: its metadata's parallelism and its nodes as
// hxemu items in a topological order of their dependencies. sw/workload/chakra_trace.h combines the
// files of all NPUs into one TrainingPlan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/workload/training_plan.h"

namespace hxemu::sw {

// One node that does something hxemu runs.
struct ChakraItem {
  enum class Kind {
    kStep,   // a compute step or a collective: `step` (its stage still 0)
    kSend,   // a pipeline send to NPU `peer`: `step` is the send (stage and direction still unset)
    kRecv,   // a pipeline receive from NPU `peer`: no step of its own
  };
  Kind kind = Kind::kStep;
  PlanStep step;
  std::uint64_t node_id = 0;
  std::string node_name;
  int peer = -1;
  std::int64_t tag = 0;
};

struct ChakraNpuTrace {
  std::string file;
  int npu = 0;
  // The metadata's "hxemu.*" parallelism attributes (hxemu's generator writes them all), nullopt
  // when it has none: those present override Parallelism's defaults.
  std::optional<Parallelism> par;
  std::optional<int> npus;                 // hxemu.npus
  std::vector<ChakraItem> items;           // topological order, ties by node id
  // "file: node 7 'conv1:forward:comm'" for messages.
  std::string where(const ChakraItem& it) const;
};

// Reads `file`, NPU `npu` of `npus` (send/recv peers must be in 0..npus-1). Throws
// std::invalid_argument naming the file and, where one is to blame, the node: a truncated or
// malformed message, no nodes, a duplicate node id, a dependency on a node the file does not hold,
// a dependency cycle, an unsupported node type or collective, a missing or mistyped attribute.
ChakraNpuTrace read_chakra_npu_file(const std::string& file, int npu, int npus);

// The same from the file's bytes (`file` only names it in messages).
ChakraNpuTrace parse_chakra_npu_trace(const std::string& bytes, const std::string& file, int npu, int npus);

}  // namespace hxemu::sw
