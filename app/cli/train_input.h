// The options that say what to train and how (hxemu train, and the commands that run training
// iterations for many design points): the workload, its parallelism, the algorithms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sw/training/trainer.h"
#include "sw/workload/text_workload.h"
#include "sw/workload/training_plan.h"

namespace hxemu::cli {

struct TrainInput {
  std::string workload;        // ASTRA-sim 1.0 / LIBRA text file
  std::string chakra;          // Chakra traces: a folder or a <prefix> of <prefix>.<npu>.et
  std::string kind;            // --parallelism (overrides the file's header)
  int tp = 0, dp = 0, pp = 0;
  std::uint64_t pp_bytes = 0;
  std::vector<std::string> algos;   // op=name
  bool no_reuse = false;
  std::uint32_t chunk = 0;
};

void add_train_input_options(CLI::App* sub, TrainInput& in);
// Throws std::invalid_argument (exit 2) naming the file, line or node.
sw::TrainingPlan load_training_plan(const TrainInput& in);
// Chakra traces (sw/workload/chakra_trace.h) with the command line's parallelism sizes applied.
sw::TrainingPlan load_chakra_plan(const std::string& path, const TrainInput& in);
// Throws std::invalid_argument naming --algo and the allowed values.
sw::TrainOptions train_options(const TrainInput& in);

}  // namespace hxemu::cli
