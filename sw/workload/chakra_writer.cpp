#include "sw/workload/chakra_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

#include "sw/workload/chakra_et.pb.h"
#include "sw/workload/chakra_files.h"
#include "sw/workload/chakra_node_fields.h"
#include "sw/workload/chakra_stream.h"

namespace hxemu::sw {

namespace {

namespace f = chakra_fields;
namespace fs = std::filesystem;

bool is_send(const PlanStep& s) { return s.kind == PlanStep::Kind::kCommunication && s.group == GroupKind::kPipeline; }
int destination_stage(const PlanStep& s) { return s.backward ? s.stage - 1 : s.stage + 1; }

[[noreturn]] void bad_step(const TrainingPlan& plan, std::size_t i, const std::string& what) {
  throw std::invalid_argument("plan '" + plan.name + "' step " + std::to_string(i + 1) + " (" +
                              describe_step(plan.steps[i]) + "): " + what);
}

void check_plan(const TrainingPlan& plan) {
  const int pp = plan.par.pp;
  if (plan.steps.empty()) throw std::invalid_argument("plan '" + plan.name + "' has no steps (a trace needs a node)");
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    if (s.stage < 0 || s.stage >= pp) {
      bad_step(plan, i, "stage " + std::to_string(s.stage) + " is outside 0.." + std::to_string(pp - 1));
    }
    if (s.kind != PlanStep::Kind::kCommunication) continue;
    if (is_send(s) != (s.op == CollectiveOp::kSendRecv)) {
      bad_step(plan, i, "a pipeline transfer is a sendrecv on the pipeline groups, and only that");
    }
    if (is_send(s)) {
      const int to = destination_stage(s);
      if (to < 0 || to >= pp) bad_step(plan, i, "sends to stage " + std::to_string(to) + ", which does not exist");
    } else {
      f::comm_type_of(s.op);   // throws for an operation Chakra has no type for
    }
  }
}

chakra::GlobalMetadata metadata(const TrainingPlan& plan, int npus) {
  chakra::GlobalMetadata m;
  m.set_version(f::kVersion);
  *m.add_attr() = f::string_attr(f::kKind, plan.par.kind);
  *m.add_attr() = f::int_attr(f::kTp, plan.par.tp);
  *m.add_attr() = f::int_attr(f::kPp, plan.par.pp);
  *m.add_attr() = f::int_attr(f::kDp, plan.par.dp);
  *m.add_attr() = f::uint_attr(f::kPpBytes, plan.par.pp_bytes);
  *m.add_attr() = f::int_attr(f::kNpus, npus);
  return m;
}

// One NPU's file: its stage's steps, sends and receives in plan order.
std::string npu_trace(const TrainingPlan& plan, int npus, int per_stage, int npu) {
  const int stage = npu / per_stage;
  std::string out;
  append_chakra_frame(out, metadata(plan, npus));
  std::uint64_t id = 0;
  auto add = [&](const PlanStep& s, chakra::NodeType type) {
    chakra::Node n;
    n.set_id(id);
    if (id > 0) n.add_ctrl_deps(id - 1);
    ++id;
    n.set_type(type);
    n.set_name(f::node_name(s.layer, s.pass, type != chakra::COMP_NODE));
    *n.add_attr() = f::bool_attr(f::kIsCpuOp, false);
    return n;
  };
  std::int64_t tag = 0;   // the plan's sends numbered in order: pairs each receive with its send
  for (const PlanStep& s : plan.steps) {
    chakra::Node n;
    if (is_send(s)) {
      const int to = destination_stage(s);
      const int offset = (to - s.stage) * per_stage;
      if (s.stage == stage) {
        n = add(s, chakra::COMM_SEND_NODE);
        *n.add_attr() = f::int_attr(f::kCommSrc, npu);
        *n.add_attr() = f::int_attr(f::kCommDst, npu + offset);
      } else if (to == stage) {
        n = add(s, chakra::COMM_RECV_NODE);
        *n.add_attr() = f::int_attr(f::kCommSrc, npu - offset);
        *n.add_attr() = f::int_attr(f::kCommDst, npu);
      }
      if (s.stage == stage || to == stage) {
        *n.add_attr() = f::int_attr(f::kCommTag, tag);
        *n.add_attr() = f::int_attr(f::kCommSize, static_cast<std::int64_t>(s.bytes));
        append_chakra_frame(out, n);
      }
      ++tag;
      continue;
    }
    if (s.stage != stage) continue;
    if (s.kind == PlanStep::Kind::kCompute) {
      n = add(s, chakra::COMP_NODE);
      // Rounded for other readers of duration_micros; the exact time rides along for hxemu.
      n.set_duration_micros((s.compute_ns + 500) / 1000);
      *n.add_attr() = f::uint_attr(f::kComputeNs, s.compute_ns);
    } else {
      n = add(s, chakra::COMM_COLL_NODE);
      *n.add_attr() = f::int_attr(f::kCommType, f::comm_type_of(s.op));
      *n.add_attr() = f::int_attr(f::kCommSize, static_cast<std::int64_t>(s.bytes));
      if (s.group == GroupKind::kTensor) *n.add_attr() = f::string_attr(f::kPgName, f::kTensorGroup);
      if (s.group == GroupKind::kData) *n.add_attr() = f::string_attr(f::kPgName, f::kDataGroup);
    }
    append_chakra_frame(out, n);
  }
  return out;
}

[[noreturn]] void io_error(const std::string& what, const std::string& path) {
  throw std::runtime_error("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

std::vector<std::string> chakra_traces(const TrainingPlan& plan, int npus, int npus_per_stage_hint) {
  const int pp = plan.par.pp;
  if (npus < 1) throw std::invalid_argument("a Chakra trace needs at least 1 NPU, got " + std::to_string(npus));
  if (pp < 1) throw std::invalid_argument("plan '" + plan.name + "': pipeline stages must be >= 1, got " + std::to_string(pp));
  if (npus_per_stage_hint < 0) {
    throw std::invalid_argument("NPUs per stage must be >= 0 (0: npus / pp), got " + std::to_string(npus_per_stage_hint));
  }
  const int per_stage = npus_per_stage_hint > 0 ? npus_per_stage_hint : npus / pp;
  if (per_stage * pp != npus) {
    throw std::invalid_argument(std::to_string(npus) + " NPUs do not split into " + std::to_string(pp) +
                                " pipeline stages" +
                                (npus_per_stage_hint > 0 ? " of " + std::to_string(npus_per_stage_hint) + " NPUs" : "") +
                                " (NPUs per stage x stages must be the NPU count)");
  }
  check_plan(plan);
  std::vector<std::string> traces;
  for (int k = 0; k < npus; ++k) traces.push_back(npu_trace(plan, npus, per_stage, k));
  return traces;
}

void write_chakra(const TrainingPlan& plan, int npus, int npus_per_stage_hint, const std::string& prefix) {
  const auto traces = chakra_traces(plan, npus, npus_per_stage_hint);
  const fs::path parent = fs::path(prefix).parent_path();
  std::error_code ec;
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) throw std::runtime_error("cannot create folder '" + parent.string() + "': " + ec.message());
  }
  // Every file to a temporary first; only when all are written do they replace the old ones.
  std::vector<std::string> temps;
  auto drop_temps = [&] {
    for (const auto& t : temps) fs::remove(t, ec);
  };
  for (int k = 0; k < npus; ++k) {
    const std::string temp = chakra_file_name(prefix, k) + ".tmp" + std::to_string(::getpid());
    temps.push_back(temp);
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (out) out.write(traces[k].data(), static_cast<std::streamsize>(traces[k].size()));
    if (out) out.close();
    if (!out) {
      const int saved = errno;
      drop_temps();
      errno = saved;
      io_error("write", temp);
    }
  }
  for (int k = 0; k < npus; ++k) {
    const std::string file = chakra_file_name(prefix, k);
    if (std::rename(temps[k].c_str(), file.c_str()) != 0) {
      const int saved = errno;
      drop_temps();
      errno = saved;
      io_error("rename a temporary file to", file);
    }
  }
  for (int k = npus; fs::exists(chakra_file_name(prefix, k), ec); ++k) {
    if (!fs::remove(chakra_file_name(prefix, k), ec)) {
      throw std::runtime_error("cannot remove '" + chakra_file_name(prefix, k) + "' left from a larger trace: " +
                               ec.message());
    }
  }
}

}  // namespace hxemu::sw
