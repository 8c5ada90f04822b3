#include "app/cli/train_input.h"

#include <stdexcept>

#include "app/cli/option_checks.h"
#include "sw/workload/text_workload.h"

namespace hxemu::cli {

void add_train_input_options(CLI::App* sub, TrainInput& in) {
  auto* w = sub->add_option("--workload", in.workload,
                            "ASTRA-sim 1.0 / LIBRA text workload (one line per layer; optional parallelism header)");
  auto* c = sub->add_option("--chakra", in.chakra,
                            "Chakra execution traces: a folder of <name>.<npu>.et files, or the <prefix> before .<npu>.et");
  w->excludes(c);
  c->excludes(w);
  sub->add_option("--parallelism", in.kind,
                  "override the header's parallelism (" + sw::parallelism_kinds() + ")");
  sub->add_option("--tp", in.tp, "tensor (model-parallel) group size")->check(CLI::Range(1, 65536));
  sub->add_option("--dp", in.dp, "data-parallel group size (default: the accelerators left)")->check(CLI::Range(1, 65536));
  sub->add_option("--pp", in.pp, "pipeline stages")->check(CLI::Range(1, 65536));
  sub->add_option("--pp-bytes", in.pp_bytes, "activation bytes each accelerator sends to the next pipeline stage")
      ->check(CLI::Range(std::uint64_t{4}, sw::kMaxWorkloadCollectiveBytes));
  sub->add_option("--algo", in.algos,
                  "algorithm per operation, e.g. --algo allreduce=biring (repeatable; default: hierarchical on "
                  "multidim platforms, else the best that fits each group)");
  sub->add_flag("--no-reuse", in.no_reuse,
                "emulate every communication step, also those equal to one already emulated");
  sub->add_option("--chunk", in.chunk, "pipelining chunk in bytes (default: automatic)")->check(CLI::Range(4u, 1u << 30));
}

sw::TrainingPlan load_training_plan(const TrainInput& in) {
  sw::ParallelismOverride over;
  over.kind = in.kind;
  over.tp = in.tp;
  over.dp = in.dp;
  over.pp = in.pp;
  over.pp_bytes = in.pp_bytes;
  if (!in.workload.empty()) return sw::read_text_workload(in.workload, over);
  if (!in.chakra.empty()) return load_chakra_plan(in.chakra, in);
  throw std::invalid_argument("give the workload: --workload FILE (text) or --chakra PREFIX (Chakra traces)");
}

sw::TrainOptions train_options(const TrainInput& in) {
  sw::TrainOptions t;
  t.reuse = !in.no_reuse;
  t.chunk_bytes = in.chunk;
  for (const auto& a : in.algos) {
    const auto eq = a.find('=');
    if (eq == std::string::npos) {
      throw std::invalid_argument("--algo '" + a + "': expected OP=ALGORITHM, OP one of " + sw::op_names());
    }
    const auto op = sw::parse_op(a.substr(0, eq));
    t.algo[op] = sw::find_algorithm(op, a.substr(eq + 1), "--algo " + a.substr(0, eq)).name;
  }
  return t;
}

}  // namespace hxemu::cli
