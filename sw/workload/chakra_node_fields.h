// What hxemu reads from and writes into Chakra nodes and metadata, in one place for the reader
// (chakra_trace_file.h) and the generator (chakra_writer.h): the attribute names, typed attribute
// access, and the node-name convention that carries a step's layer and pass (docs/chakra.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sw/collectives/algorithms.h"
#include "sw/workload/chakra_et.pb.h"

namespace hxemu::sw::chakra_fields {

// Node attributes of the Chakra convention (ASTRA-sim reads the same names).
inline constexpr const char* kIsCpuOp = "is_cpu_op";
inline constexpr const char* kCommType = "comm_type";   // CollectiveCommType
inline constexpr const char* kCommSize = "comm_size";   // bytes per NPU
inline constexpr const char* kCommSrc = "comm_src";     // send/recv: the sending NPU
inline constexpr const char* kCommDst = "comm_dst";     // send/recv: the receiving NPU
inline constexpr const char* kCommTag = "comm_tag";     // send/recv: pairs a recv with its send
inline constexpr const char* kPgName = "pg_name";       // process group: "tp", "dp" (else all NPUs)

// hxemu's own: the exact compute time, since duration_micros cannot hold a nanosecond remainder.
inline constexpr const char* kComputeNs = "hxemu.compute_ns";

// GlobalMetadata attributes the generator writes (the workload's Parallelism, and the file count).
inline constexpr const char* kKind = "hxemu.kind";
inline constexpr const char* kTp = "hxemu.tp";
inline constexpr const char* kPp = "hxemu.pp";
inline constexpr const char* kDp = "hxemu.dp";
inline constexpr const char* kPpBytes = "hxemu.pp_bytes";
inline constexpr const char* kNpus = "hxemu.npus";

// The schema version written (that of ASTRA-sim's published examples).
inline constexpr const char* kVersion = "0.0.4";

// The values of pg_name that select a group kind.
inline constexpr const char* kTensorGroup = "tp";
inline constexpr const char* kDataGroup = "dp";

// The attribute named `name`, or nullptr.
template <typename Msg>
const chakra::AttributeProto* find_attr(const Msg& m, const std::string& name) {
  for (const auto& a : m.attr()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

// An integer attribute's value whichever integer field holds it; nullopt when the value is not an
// integer (the caller names the attribute). Unsigned values above INT64_MAX are not integers here.
std::optional<std::int64_t> integer_value(const chakra::AttributeProto& a);
// The value field's name ("string_val", "int64_val", "no value"), for messages.
std::string value_kind(const chakra::AttributeProto& a);

chakra::AttributeProto int_attr(const std::string& name, std::int64_t v);
chakra::AttributeProto uint_attr(const std::string& name, std::uint64_t v);
chakra::AttributeProto bool_attr(const std::string& name, bool v);
chakra::AttributeProto string_attr(const std::string& name, const std::string& v);

// The collectives hxemu runs, by CollectiveCommType: nullopt for the others (REDUCE, GATHER,
// SCATTER, REDUCE_SCATTER_BLOCK, BARRIER) and for values outside the enum.
std::optional<CollectiveOp> op_of_comm_type(std::int64_t comm_type);
// The inverse; throws std::invalid_argument for kSendRecv (a send node, not a collective).
chakra::CollectiveCommType comm_type_of(CollectiveOp op);
// "ALL_REDUCE (0), ALL_GATHER (2), ..." for messages.
std::string supported_comm_types();

// Node names: "<layer>:<pass>" for compute, "<layer>:<pass>:comm" for communication (collectives,
// sends and receives). `pass` is one of kPasses. A name that does not follow the convention (a
// trace from elsewhere) is the layer, and the pass is "forward".
inline constexpr const char* kPasses[] = {"forward", "input-gradient", "weight-gradient", "update"};
std::string node_name(const std::string& layer, const std::string& pass, bool communication);
struct LayerPass {
  std::string layer;
  std::string pass;
};
LayerPass layer_pass(const std::string& node_name);

}  // namespace hxemu::sw::chakra_fields
