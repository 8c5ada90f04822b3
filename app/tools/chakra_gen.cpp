// hxemu-chakra-gen: a text workload (ASTRA-sim 1.0 / LIBRA format) written as Chakra execution
// traces, one file per NPU (docs/chakra.md). `hxemu train --chakra PREFIX` reads them back as the
// plan `hxemu train --workload W.txt` runs. Exit status: 0 written, 1 an I/O failure, 2 bad input.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "sw/workload/chakra_writer.h"
#include "sw/workload/text_workload.h"

namespace {

struct Options {
  std::string workload;
  std::string out;
  int npus = 0;
  int npus_per_stage = 0;
  hxemu::sw::ParallelismOverride par;
};

int run(const Options& o) {
  const hxemu::sw::TrainingPlan plan = hxemu::sw::read_text_workload(o.workload, o.par);
  hxemu::sw::write_chakra(plan, o.npus, o.npus_per_stage, o.out);
  fmt::print("{}: {} steps, {} pipeline stage(s) -> {}.0.et .. {}.{}.et\n", o.workload, plan.steps.size(),
             plan.par.pp, o.out, o.out, o.npus - 1);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"hxemu-chakra-gen: a text workload written as Chakra execution traces, one file "
               "<out>.<npu>.et per NPU"};
  app.add_option("--workload", o.workload, "the text workload (ASTRA-sim 1.0 / LIBRA layer lines)")->required();
  app.add_option("--npus", o.npus, "NPUs: files written")->required()->check(CLI::Range(1, 65536));
  app.add_option("--out", o.out, "prefix of the files: <out>.<npu>.et (its folder is created)")->required();
  app.add_option("--npus-per-stage", o.npus_per_stage, "NPUs per pipeline stage (0: npus / stages)")
      ->check(CLI::Range(0, 65536))
      ->capture_default_str();
  app.add_option("--parallelism", o.par.kind, "overrides the file's parallelism kind (DATA, MODEL, HYBRID_...)");
  app.add_option("--tp", o.par.tp, "overrides the tensor-parallel group size")->check(CLI::Range(1, 65536));
  app.add_option("--dp", o.par.dp, "overrides the data-parallel group size")->check(CLI::Range(1, 65536));
  app.add_option("--pp", o.par.pp, "overrides the pipeline stages")->check(CLI::Range(1, 65536));
  app.add_option("--pp-bytes", o.par.pp_bytes, "overrides the bytes each NPU sends to the next stage");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return run(o);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "hxemu-chakra-gen: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "hxemu-chakra-gen: {}\n", e.what());
    return 1;
  }
}
