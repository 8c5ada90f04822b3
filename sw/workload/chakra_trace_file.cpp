#include "sw/workload/chakra_trace_file.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "sw/workload/chakra_et.pb.h"
#include "sw/workload/chakra_node_fields.h"
#include "sw/workload/chakra_stream.h"
#include "sysc/util/input_file.h"

namespace hxemu::sw {

namespace {

namespace f = chakra_fields;
using chakra::AttributeProto;
using chakra::Node;

// Traces of real models run to hundreds of MB; past this a path is more likely a mistake.
constexpr std::uint64_t kMaxTraceFileBytes = 1ull << 30;

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

std::string node_where(const std::string& file, const Node& n) {
  return file + ": node " + std::to_string(n.id()) + " '" + n.name() + "'";
}

// The metadata's hxemu.* attributes: those present override Parallelism's defaults.
void read_metadata(const chakra::GlobalMetadata& meta, const std::string& file, ChakraNpuTrace& t) {
  auto count = [&](const char* key, std::int64_t lo, std::int64_t hi) -> std::optional<std::int64_t> {
    const AttributeProto* a = f::find_attr(meta, key);
    if (!a) return std::nullopt;
    const auto v = f::integer_value(*a);
    if (!v || *v < lo || *v > hi) {
      bad(file + ": GlobalMetadata attribute " + key + " must be an integer in " + std::to_string(lo) + ".." +
          std::to_string(hi) + ", got " + (v ? std::to_string(*v) : f::value_kind(*a)));
    }
    return v;
  };
  const AttributeProto* kind = f::find_attr(meta, f::kKind);
  const auto tp = count(f::kTp, 1, 65536), pp = count(f::kPp, 1, 65536), dp = count(f::kDp, 0, 65536);
  const auto pp_bytes = count(f::kPpBytes, 0, std::numeric_limits<std::int64_t>::max());
  if (const auto npus = count(f::kNpus, 1, 1 << 20)) t.npus = static_cast<int>(*npus);
  if (!kind && !tp && !pp && !dp && !pp_bytes) return;
  Parallelism par;
  if (kind) {
    if (kind->value_case() != AttributeProto::kStringVal || kind->string_val().empty()) {
      bad(file + ": GlobalMetadata attribute " + f::kKind + " must be a non-empty string (DATA, MODEL, ...), got " +
          f::value_kind(*kind));
    }
    par.kind = kind->string_val();
  }
  if (tp) par.tp = static_cast<int>(*tp);
  if (pp) par.pp = static_cast<int>(*pp);
  if (dp) par.dp = static_cast<int>(*dp);
  if (pp_bytes) par.pp_bytes = static_cast<std::uint64_t>(*pp_bytes);
  t.par = par;
}

// Dependencies of each node (ctrl and data, once each) as indices; a name no node has is an error.
std::vector<std::vector<std::size_t>> dependencies(const std::vector<Node>& nodes, const std::string& file) {
  std::unordered_map<std::uint64_t, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto [it, fresh] = index.emplace(nodes[i].id(), i);
    if (!fresh) {
      bad(node_where(file, nodes[i]) + ": node id " + std::to_string(nodes[i].id()) + " is also node '" +
          nodes[it->second].name() + "' (node ids must be unique within a file)");
    }
  }
  std::vector<std::vector<std::size_t>> deps(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto add = [&](std::uint64_t id, const char* field) {
      const auto it = index.find(id);
      if (it == index.end()) {
        bad(node_where(file, nodes[i]) + ": " + field + " names node " + std::to_string(id) +
            ", which the file does not hold");
      }
      if (std::find(deps[i].begin(), deps[i].end(), it->second) == deps[i].end()) deps[i].push_back(it->second);
    };
    for (const auto id : nodes[i].ctrl_deps()) add(id, "ctrl_deps");
    for (const auto id : nodes[i].data_deps()) add(id, "data_deps");
  }
  return deps;
}

// A topological order (Kahn's algorithm, the ready node with the smallest id first).
std::vector<std::size_t> topological_order(const std::vector<Node>& nodes,
                                           const std::vector<std::vector<std::size_t>>& deps,
                                           const std::string& file) {
  std::vector<std::size_t> waiting(nodes.size());
  std::vector<std::vector<std::size_t>> users(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    waiting[i] = deps[i].size();
    for (const auto d : deps[i]) users[d].push_back(i);
  }
  using Ready = std::pair<std::uint64_t, std::size_t>;   // (node id, index)
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] == 0) ready.emplace(nodes[i].id(), i);
  }
  std::vector<std::size_t> order;
  while (!ready.empty()) {
    const std::size_t i = ready.top().second;
    ready.pop();
    order.push_back(i);
    for (const auto u : users[i]) {
      if (--waiting[u] == 0) ready.emplace(nodes[u].id(), u);
    }
  }
  if (order.size() == nodes.size()) return order;
  // Every node left waits on another node left: follow dependencies until one repeats.
  std::size_t start = nodes.size();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] > 0 && (start == nodes.size() || nodes[i].id() < nodes[start].id())) start = i;
  }
  std::vector<std::size_t> path;
  std::vector<int> seen_at(nodes.size(), -1);
  std::size_t at = start;
  while (seen_at[at] < 0) {
    seen_at[at] = static_cast<int>(path.size());
    path.push_back(at);
    for (const auto d : deps[at]) {
      if (waiting[d] > 0) {
        at = d;
        break;
      }
    }
  }
  std::string cycle;
  for (std::size_t k = static_cast<std::size_t>(seen_at[at]); k < path.size(); ++k) {
    cycle += std::to_string(nodes[path[k]].id()) + " -> ";
  }
  cycle += std::to_string(nodes[at].id());
  bad(node_where(file, nodes[at]) + ": dependency cycle (node " + cycle + ", each waiting on the next)");
}

class NodeReader {
 public:
  NodeReader(const ChakraNpuTrace& t, const Node& n, int npus)
      : where_(node_where(t.file, n)), node_(n), npu_(t.npu), npus_(npus) {}

  std::optional<std::int64_t> integer(const char* key, bool required, std::int64_t lo, std::int64_t hi) const {
    const AttributeProto* a = f::find_attr(node_, key);
    if (!a) {
      if (required) bad(where_ + ": " + type_name() + " needs attribute " + key);
      return std::nullopt;
    }
    const auto v = f::integer_value(*a);
    if (!v) bad(where_ + ": attribute " + key + " must be an integer, got " + f::value_kind(*a));
    if (*v < lo || *v > hi) {
      bad(where_ + ": attribute " + key + " = " + std::to_string(*v) + " is outside " + std::to_string(lo) + ".." +
          std::to_string(hi));
    }
    return v;
  }

  // comm_size; like the text reader, any size: the trainer checks what the emulation can run.
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(*integer(f::kCommSize, true, 0, std::numeric_limits<std::int64_t>::max()));
  }

  // The other NPU of a send (comm_dst) or a receive (comm_src).
  int peer(const char* key) const {
    const int p = static_cast<int>(*integer(key, true, 0, npus_ - 1));
    if (p == npu_) bad(where_ + ": attribute " + key + " = " + std::to_string(p) + " is this file's own NPU");
    return p;
  }

  GroupKind group() const {
    const AttributeProto* a = f::find_attr(node_, f::kPgName);
    if (!a) return GroupKind::kAll;
    if (a->value_case() != AttributeProto::kStringVal) {
      bad(where_ + ": attribute " + f::kPgName + " must be a string, got " + f::value_kind(*a));
    }
    if (a->string_val() == f::kTensorGroup) return GroupKind::kTensor;
    if (a->string_val() == f::kDataGroup) return GroupKind::kData;
    return GroupKind::kAll;
  }

  CollectiveOp op() const {
    const std::int64_t t = *integer(f::kCommType, true, std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max());
    if (const auto op = f::op_of_comm_type(t)) return *op;
    const bool known = t >= 0 && t <= std::numeric_limits<int>::max() && chakra::CollectiveCommType_IsValid(static_cast<int>(t));
    bad(where_ + ": comm_type " + std::to_string(t) +
        (known ? " (" + chakra::CollectiveCommType_Name(static_cast<chakra::CollectiveCommType>(t)) + ") is not supported"
               : " is not a Chakra CollectiveCommType") +
        "; hxemu runs " + f::supported_comm_types());
  }

  std::uint64_t compute_ns() const {
    if (f::find_attr(node_, f::kComputeNs)) {
      return static_cast<std::uint64_t>(*integer(f::kComputeNs, true, 0, std::numeric_limits<std::int64_t>::max()));
    }
    if (node_.duration_micros() > std::numeric_limits<std::uint64_t>::max() / 1000) {
      bad(where_ + ": duration_micros " + std::to_string(node_.duration_micros()) + " is too large");
    }
    return node_.duration_micros() * 1000;
  }

  std::string type_name() const {
    const std::string name = chakra::NodeType_Name(node_.type());
    return name.empty() ? "node type " + std::to_string(node_.type()) : name;
  }
  const std::string& where() const { return where_; }

 private:
  std::string where_;
  const Node& node_;
  int npu_, npus_;
};

// The item a node becomes, or nullopt for a node that does no work (a METADATA_NODE, a zero
// compute time or collective size: the text reader leaves those out too).
std::optional<ChakraItem> item_of(const ChakraNpuTrace& t, const Node& n, int npus) {
  const NodeReader r(t, n, npus);
  ChakraItem it;
  it.node_id = n.id();
  it.node_name = n.name();
  const auto lp = f::layer_pass(n.name());
  it.step.layer = lp.layer;
  it.step.pass = lp.pass;
  switch (n.type()) {
    case chakra::COMP_NODE:
      it.step.kind = PlanStep::Kind::kCompute;
      it.step.compute_ns = r.compute_ns();
      if (it.step.compute_ns == 0) return std::nullopt;
      return it;
    case chakra::COMM_COLL_NODE:
      it.step.kind = PlanStep::Kind::kCommunication;
      it.step.op = r.op();
      it.step.group = r.group();
      it.step.bytes = r.bytes();
      if (it.step.bytes == 0) return std::nullopt;
      return it;
    case chakra::COMM_SEND_NODE:
      it.kind = ChakraItem::Kind::kSend;
      it.peer = r.peer(f::kCommDst);
      it.tag = r.integer(f::kCommTag, false, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max()).value_or(0);
      it.step.kind = PlanStep::Kind::kCommunication;
      it.step.op = CollectiveOp::kSendRecv;
      it.step.group = GroupKind::kPipeline;
      it.step.bytes = r.bytes();
      if (it.step.bytes == 0) bad(r.where() + ": a send needs a positive comm_size");
      return it;
    case chakra::COMM_RECV_NODE:
      it.kind = ChakraItem::Kind::kRecv;
      it.peer = r.peer(f::kCommSrc);
      it.tag = r.integer(f::kCommTag, false, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max()).value_or(0);
      return it;
    case chakra::METADATA_NODE:
      return std::nullopt;
    default:
      bad(r.where() + ": " + r.type_name() +
          " is not a node hxemu runs (COMP_NODE, COMM_COLL_NODE, COMM_SEND_NODE, COMM_RECV_NODE; METADATA_NODE "
          "is skipped)");
  }
}

}  // namespace

std::string ChakraNpuTrace::where(const ChakraItem& it) const {
  return file + ": node " + std::to_string(it.node_id) + " '" + it.node_name + "'";
}

ChakraNpuTrace parse_chakra_npu_trace(const std::string& bytes, const std::string& file, int npu, int npus) {
  ChakraNpuTrace t;
  t.file = file;
  t.npu = npu;
  ChakraFrameReader frames(bytes);
  std::vector<Node> nodes;
  // Where a framing or parse error is: the message's position and the last node read before it.
  auto place = [&](std::size_t message) {
    std::string s = file + ": message " + std::to_string(message) + " at byte " + std::to_string(frames.frame_offset());
    if (message == 1) return s + " (the GlobalMetadata)";
    if (nodes.empty()) return s + " (the first node)";
    return s + " (the node after node " + std::to_string(nodes.back().id()) + " '" + nodes.back().name() + "')";
  };
  std::string_view frame;
  std::size_t message = 1;
  try {
    if (!frames.next(frame)) bad(file + ": empty file (a Chakra trace starts with its GlobalMetadata)");
  } catch (const ChakraFrameError& e) {
    bad(place(message) + ": " + e.what());
  }
  chakra::GlobalMetadata meta;
  if (!meta.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
    bad(place(message) + ": not a valid GlobalMetadata message");
  }
  read_metadata(meta, file, t);
  while (true) {
    ++message;
    try {
      if (!frames.next(frame)) break;
    } catch (const ChakraFrameError& e) {
      bad(place(message) + ": " + e.what());
    }
    Node n;
    if (!n.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
      bad(place(message) + ": not a valid Chakra Node message");
    }
    nodes.push_back(std::move(n));
  }
  if (nodes.empty()) bad(file + ": no nodes after the GlobalMetadata (an empty trace)");
  const auto deps = dependencies(nodes, file);
  for (const auto i : topological_order(nodes, deps, file)) {
    if (auto it = item_of(t, nodes[i], npus)) t.items.push_back(std::move(*it));
  }
  return t;
}

ChakraNpuTrace read_chakra_npu_file(const std::string& file, int npu, int npus) {
  return parse_chakra_npu_trace(sysc::read_input_file(file, "Chakra trace", kMaxTraceFileBytes), file, npu, npus);
}

}  // namespace hxemu::sw
