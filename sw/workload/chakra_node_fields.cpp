#include "sw/workload/chakra_node_fields.h"

#include <limits>
#include <stdexcept>

namespace hxemu::sw::chakra_fields {

using chakra::AttributeProto;

std::optional<std::int64_t> integer_value(const AttributeProto& a) {
  auto unsigned_value = [](std::uint64_t v) -> std::optional<std::int64_t> {
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(v);
  };
  switch (a.value_case()) {
    case AttributeProto::kInt32Val: return a.int32_val();
    case AttributeProto::kInt64Val: return a.int64_val();
    case AttributeProto::kUint32Val: return a.uint32_val();
    case AttributeProto::kUint64Val: return unsigned_value(a.uint64_val());
    case AttributeProto::kSint32Val: return a.sint32_val();
    case AttributeProto::kSint64Val: return a.sint64_val();
    case AttributeProto::kFixed32Val: return a.fixed32_val();
    case AttributeProto::kFixed64Val: return unsigned_value(a.fixed64_val());
    case AttributeProto::kSfixed32Val: return a.sfixed32_val();
    case AttributeProto::kSfixed64Val: return a.sfixed64_val();
    default: return std::nullopt;
  }
}

std::string value_kind(const AttributeProto& a) {
  if (a.value_case() == AttributeProto::VALUE_NOT_SET) return "no value";
  // The oneof's field descriptor names the field that is set.
  const auto* field = AttributeProto::descriptor()->FindFieldByNumber(static_cast<int>(a.value_case()));
  return field ? field->name() : "value field " + std::to_string(a.value_case());
}

AttributeProto int_attr(const std::string& name, std::int64_t v) {
  AttributeProto a;
  a.set_name(name);
  a.set_int64_val(v);
  return a;
}

AttributeProto uint_attr(const std::string& name, std::uint64_t v) {
  AttributeProto a;
  a.set_name(name);
  a.set_uint64_val(v);
  return a;
}

AttributeProto bool_attr(const std::string& name, bool v) {
  AttributeProto a;
  a.set_name(name);
  a.set_bool_val(v);
  return a;
}

AttributeProto string_attr(const std::string& name, const std::string& v) {
  AttributeProto a;
  a.set_name(name);
  a.set_string_val(v);
  return a;
}

namespace {

constexpr const char* kCommSuffix = ":comm";

// The one table both directions read.
struct CommTypeOp {
  chakra::CollectiveCommType type;
  CollectiveOp op;
};
constexpr CommTypeOp kCommTypeOps[] = {
    {chakra::ALL_REDUCE, CollectiveOp::kAllreduce},          {chakra::ALL_GATHER, CollectiveOp::kAllgather},
    {chakra::BROADCAST, CollectiveOp::kBroadcast},           {chakra::ALL_TO_ALL, CollectiveOp::kAlltoall},
    {chakra::REDUCE_SCATTER, CollectiveOp::kReduceScatter},
};

}  // namespace

std::optional<CollectiveOp> op_of_comm_type(std::int64_t comm_type) {
  for (const auto& e : kCommTypeOps) {
    if (e.type == comm_type) return e.op;
  }
  return std::nullopt;
}

chakra::CollectiveCommType comm_type_of(CollectiveOp op) {
  for (const auto& e : kCommTypeOps) {
    if (e.op == op) return e.type;
  }
  throw std::invalid_argument(std::string("collective ") + op_name(op) +
                              " has no Chakra CollectiveCommType (the ones written: " + supported_comm_types() + ")");
}

std::string supported_comm_types() {
  std::string s;
  for (const auto& e : kCommTypeOps) {
    s += (s.empty() ? "" : ", ") + chakra::CollectiveCommType_Name(e.type) + " (" + std::to_string(e.type) + ")";
  }
  return s;
}

std::string node_name(const std::string& layer, const std::string& pass, bool communication) {
  return layer + ":" + pass + (communication ? kCommSuffix : "");
}

LayerPass layer_pass(const std::string& name) {
  std::string base = name;
  const std::string suffix = kCommSuffix;
  if (base.size() >= suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
    base.resize(base.size() - suffix.size());
  }
  const auto colon = base.rfind(':');
  if (colon != std::string::npos) {
    const std::string pass = base.substr(colon + 1);
    for (const char* p : kPasses) {
      if (pass == p) return {base.substr(0, colon), pass};
    }
  }
  return {name, "forward"};
}

}  // namespace hxemu::sw::chakra_fields
