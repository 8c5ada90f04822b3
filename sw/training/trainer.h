// Runs a TrainingPlan on a CollectiveSession (docs/training.md): compute steps take their time
// from the workload (converted to network cycles at the system clock), every communication step
// is emulated cycle-accurately with real data on its groups -- every group of the kind at once,
// as every replica or shard communicates at the same time -- and its result buffers are checked.
//
// LIBRA's no-overlap loop runs one step at a time on an otherwise idle network, so the
// iteration's time is the sum of the steps' times and all communication is exposed:
//   iteration = compute + communication,   exposed communication = communication.
// Each communication step is reported against the bound of its schedule on this machine (busiest
// link at full payload bandwidth, CollectiveResult::bound_cycles) and, on a multidim platform,
// beside LIBRA's estimate for its groups' shape (sw/collectives/libra_estimate.h).
//
// Reuse: a step equal to one already emulated in this run (same operation, size, group kind,
// stage and direction) starts from the same drained network and runs the same schedule on the
// same nodes, so by default it takes that step's measured time instead of being emulated again
// (only round-robin arbiter pointers can differ; `reuse = false` emulates every step, and a test
// bounds the difference).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/session.h"
#include "sw/training/placement.h"
#include "sw/workload/training_plan.h"

namespace hxemu::sw {

struct TrainOptions {
  std::map<CollectiveOp, std::string> algo;   // per operation; missing: default_algorithm()
  bool reuse = true;
  std::uint32_t chunk_bytes = 0;              // pipelining chunk (0: automatic)
};

// The algorithm a step of `op` runs on `groups` when none is chosen: LIBRA's hierarchical schedule
// on multidim platforms; elsewhere the best of the table that fits (Hamiltonian rings on square
// grids, torus2d on other 2D groups, bidirectional rings on lines).
std::string default_algorithm(const sysc::SystemConfig& cfg, CollectiveOp op, const std::vector<Communicator>& groups);

struct StepFigure {
  PlanStep step;
  std::uint64_t cycles = 0;          // compute: converted time; communication: emulated
  // Communication only:
  std::string algo;
  int groups = 0, group_size = 0;
  std::uint64_t bound_cycles = 0;
  double bound_fraction = 0;         // bound / emulated (1 = at the bound)
  bool has_libra = false;
  double libra_cycles = 0;
  bool reused = false;               // time taken from an equal step emulated earlier
  bool skipped = false;              // groups of one accelerator: nothing to send
  std::uint64_t checked = 0, wrong = 0;
  std::string digest;                // result buffers after the step (emulated steps)
};

struct TrainResult {
  std::string workload, placement;
  std::vector<StepFigure> steps;
  std::uint64_t compute_cycles = 0, comm_cycles = 0, iteration_cycles = 0;
  double iteration_us = 0, exposed_comm_fraction = 0;
  std::uint64_t bound_iteration_cycles = 0;   // compute + every step's bound
  bool has_libra = false;
  double libra_iteration_cycles = 0;          // sw/training/analytic.h
  int emulated = 0, reused = 0;
  std::uint64_t checked = 0, wrong = 0;
  bool ok = false;
  std::vector<std::string> errors;
  double wall_seconds = 0;
  nlohmann::json json() const;
};

// Called before each communication step with its index in the plan and a label.
using TrainStepHook = std::function<void(std::size_t index, const std::string& label)>;

// Checks before running (algorithms known and suited to their groups, sizes within the session's);
// throws std::invalid_argument naming the step and the allowed values.
void check_plan(const sysc::SystemConfig& cfg, const TrainingPlan& plan, const Placement& placement,
                const TrainOptions& opt);

TrainResult run_training(CollectiveSession& session, const TrainingPlan& plan, const Placement& placement,
                         const TrainOptions& opt, const TrainStepHook& hook = {});

// Every communication size a positive multiple of 4 up to kMaxWorkloadCollectiveBytes (before a
// session is sized for the plan); throws std::invalid_argument naming the step.
void check_plan_sizes(const TrainingPlan& plan);

// The largest communication buffer of a plan (sizes the session's host memory).
std::uint64_t plan_max_bytes(const TrainingPlan& plan);

}  // namespace hxemu::sw
