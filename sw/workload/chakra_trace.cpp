#include "sw/workload/chakra_trace.h"

#include <stdexcept>

#include "sw/workload/chakra_files.h"
#include "sw/workload/chakra_pipeline.h"
#include "sw/workload/chakra_trace_file.h"

namespace hxemu::sw {

namespace {

std::string describe_par(const std::optional<Parallelism>& p) {
  if (!p) return "none";
  return p->kind + " tp " + std::to_string(p->tp) + " pp " + std::to_string(p->pp) + " dp " + std::to_string(p->dp) +
         " pp_bytes " + std::to_string(p->pp_bytes);
}

// Every NPU runs the same steps (one stage): NPU 0's steps are the plan.
std::vector<PlanStep> spmd_steps(const std::vector<ChakraNpuTrace>& traces) {
  for (const auto& t : traces) {
    for (const auto& it : t.items) {
      if (it.kind != ChakraItem::Kind::kStep) {
        throw std::invalid_argument(t.where(it) + ": a " + (it.kind == ChakraItem::Kind::kSend ? "send" : "receive") +
                                    " in a trace without pipeline stages (GlobalMetadata hxemu.pp absent or 1); "
                                    "hxemu reads sends and receives only as transfers between pipeline stages");
      }
    }
  }
  const auto& first = traces[0].items;
  for (const auto& t : traces) {
    const auto& items = t.items;
    for (std::size_t i = 0; i < items.size() || i < first.size(); ++i) {
      if (i < items.size() && i < first.size() && items[i].step == first[i].step) continue;
      const std::string mine = i < items.size() ? t.where(items[i]) + " (" + describe_step(items[i].step) + ")"
                                                : t.file + ": no step " + std::to_string(i + 1);
      const std::string theirs = i < first.size() ? traces[0].where(first[i]) + " (" + describe_step(first[i].step) + ")"
                                                  : "no step " + std::to_string(i + 1);
      throw std::invalid_argument(mine + " differs from NPU 0's step " + std::to_string(i + 1) + ", " + theirs +
                                  ": without pipeline stages every NPU must run the same steps");
    }
  }
  std::vector<PlanStep> steps;
  for (const auto& it : first) steps.push_back(it.step);
  return steps;
}

}  // namespace

TrainingPlan read_chakra(const std::string& prefix_or_dir, int npus_hint) {
  const ChakraFileSet set = find_chakra_files(prefix_or_dir, npus_hint);
  const int npus = static_cast<int>(set.files.size());
  std::vector<ChakraNpuTrace> traces;
  for (int k = 0; k < npus; ++k) traces.push_back(read_chakra_npu_file(set.files[k], k, npus));

  const ChakraNpuTrace& first = traces[0];
  for (const auto& t : traces) {
    if (!(t.par == first.par)) {   // Parallelism has operator== only
      throw std::invalid_argument(t.file + ": GlobalMetadata parallelism (" + describe_par(t.par) +
                                  ") differs from NPU 0's (" + first.file + ": " + describe_par(first.par) + ")");
    }
    if (t.npus && *t.npus != npus) {
      throw std::invalid_argument(t.file + ": GlobalMetadata hxemu.npus says the trace has " + std::to_string(*t.npus) +
                                  " files, but " + std::to_string(npus) +
                                  " are numbered 0..N-1 (a file left from another trace?)");
    }
  }

  TrainingPlan plan;
  plan.name = set.name;
  plan.source = prefix_or_dir;
  plan.par = first.par.value_or(Parallelism{});
  if (npus % plan.par.pp != 0) {
    throw std::invalid_argument(first.file + ": GlobalMetadata hxemu.pp = " + std::to_string(plan.par.pp) +
                                " stages do not divide the " + std::to_string(npus) + " NPUs");
  }
  plan.steps = plan.par.pp == 1 ? spmd_steps(traces) : merge_pipeline_stages(traces, plan.par.pp);
  if (plan.steps.empty()) {
    throw std::invalid_argument(first.file + ": no node does any work (every compute time and collective size is 0)");
  }
  return plan;
}

}  // namespace hxemu::sw
