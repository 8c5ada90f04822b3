// A training iteration through the real stack (sw/training/trainer.h): every communication step
// emulated with real data and checked, the iteration the exact sum of its steps, compute converted
// exactly, reuse of equal steps within a bound of emulating them again, pipeline sends, and LIBRA's
// estimate beside each step on a multidim platform.
#include <gtest/gtest.h>

#include <cmath>

#include "sw/collectives/session.h"
#include "sw/training/placement.h"
#include "sw/training/trainer.h"
#include "sw/workload/text_workload.h"
#include "sysc/system/system_config.h"

namespace hxemu::sw {
namespace {

const char* kSmall =
    "HYBRID_DATA_MODEL model_parallel_NPU_group: 2\n"
    "2\n"
    "l0 -1 100 ALLREDUCE 4096 100 NONE 0 200 ALLREDUCE 8192 0\n"
    "l1 -1 150 NONE 0 150 ALLGATHER 2048 300 ALLREDUCE 8192 0\n";

struct Run {
  TrainResult result;
  std::uint64_t expected_compute = 0;
};

Run train(const std::string& config, const std::string& text, const ParallelismOverride& over, bool reuse) {
  const auto cfg = sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/" + config + ".json");
  const auto plan = parse_text_workload(text, "small.txt", over);
  SessionConfig sc;
  sc.max_bytes = plan_max_bytes(plan);
  CollectiveSession session(cfg, sc);
  const auto placement = place(session.system(), plan.par);
  TrainOptions opt;
  opt.reuse = reuse;
  Run r;
  r.result = run_training(session, plan, placement, opt);
  for (const auto& s : plan.steps) {
    if (s.kind == PlanStep::Kind::kCompute) {
      r.expected_compute += static_cast<std::uint64_t>(std::llround(static_cast<double>(s.compute_ns) * cfg.clock_ghz));
    }
  }
  return r;
}

void expect_consistent(const Run& run) {
  const auto& r = run.result;
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_GT(r.checked, 0u);
  EXPECT_EQ(r.compute_cycles, run.expected_compute);
  std::uint64_t comm = 0, bound = 0;
  for (const auto& f : r.steps) {
    if (f.step.kind != PlanStep::Kind::kCommunication) continue;
    comm += f.cycles;
    bound += f.bound_cycles;
    if (f.skipped) continue;
    EXPECT_GT(f.cycles, 0u) << describe_step(f.step);
    EXPECT_GE(f.cycles, f.bound_cycles) << describe_step(f.step) << ": faster than its bound";
    if (!f.reused) {
      EXPECT_GT(f.checked, 0u) << describe_step(f.step);
    }
  }
  EXPECT_EQ(r.comm_cycles, comm);
  EXPECT_EQ(r.iteration_cycles, r.compute_cycles + r.comm_cycles);
  EXPECT_EQ(r.bound_iteration_cycles, r.compute_cycles + bound);
  EXPECT_DOUBLE_EQ(r.exposed_comm_fraction, static_cast<double>(r.comm_cycles) / r.iteration_cycles);
}

TEST(Trainer, HammingMeshIterationIsTheSumOfItsSteps) {
  const auto run = train("hx2mesh-16", kSmall, {}, true);
  expect_consistent(run);
  // Four communication steps; the second weight-gradient allreduce of 8 KiB equals the first.
  EXPECT_EQ(run.result.emulated, 3);
  EXPECT_EQ(run.result.reused, 1);
}

TEST(Trainer, ReusedStepsMatchEmulatingThemAgain) {
  const auto reuse = train("hx2mesh-16", kSmall, {}, true);
  const auto all = train("hx2mesh-16", kSmall, {}, false);
  expect_consistent(all);
  EXPECT_EQ(all.result.emulated, 4);
  EXPECT_EQ(all.result.reused, 0);
  // Only arbiter pointers differ between the two runs of the equal step: within 2%.
  const double a = static_cast<double>(reuse.result.iteration_cycles), b = static_cast<double>(all.result.iteration_cycles);
  EXPECT_LE(std::abs(a - b), 0.02 * b) << a << " vs " << b;
}

TEST(Trainer, PipelineStagesSendActivationsAndGradients) {
  ParallelismOverride over;
  over.pp = 2;
  over.pp_bytes = 4096;
  const auto run = train("hx2mesh-16", kSmall, over, true);
  expect_consistent(run);
  int sends = 0;
  for (const auto& f : run.result.steps) {
    if (f.step.group != GroupKind::kPipeline || f.step.kind != PlanStep::Kind::kCommunication) continue;
    ++sends;
    EXPECT_EQ(f.groups, 8);      // one pair per accelerator of a stage (2 rows of 4)
    EXPECT_EQ(f.group_size, 2);
    EXPECT_FALSE(f.reused);      // forward and backward sends differ in direction
  }
  EXPECT_EQ(sends, 2);
}

TEST(Trainer, MultidimStepsCarryLibrasEstimate) {
  const auto run = train("md-ring4-fc4-sw4", kSmall, {}, true);
  expect_consistent(run);
  ASSERT_TRUE(run.result.has_libra);
  double libra = static_cast<double>(run.result.compute_cycles);
  for (const auto& f : run.result.steps) {
    if (f.step.kind != PlanStep::Kind::kCommunication) continue;
    ASSERT_TRUE(f.has_libra) << describe_step(f.step);
    EXPECT_GT(f.libra_cycles, 0);
    // LIBRA assumes every dimension busy all the time: no real schedule beats it.
    EXPECT_GE(static_cast<double>(f.cycles), f.libra_cycles) << describe_step(f.step);
    EXPECT_EQ(f.algo, "hierarchical");
    libra += f.libra_cycles;
  }
  EXPECT_DOUBLE_EQ(run.result.libra_iteration_cycles, libra);
}

TEST(Trainer, AlgorithmThatDoesNotFitIsRefusedBeforeRunning) {
  const auto cfg = sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/hx2mesh-16.json");
  const auto plan = parse_text_workload(kSmall, "small.txt");
  SessionConfig sc;
  sc.max_bytes = plan_max_bytes(plan);
  CollectiveSession session(cfg, sc);
  const auto placement = place(session.system(), plan.par);
  TrainOptions opt;
  opt.algo[CollectiveOp::kAllreduce] = "hamiltonian";   // tensor groups are 1 x 2
  try {
    check_plan(cfg, plan, placement, opt);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("allreduce algorithm 'hamiltonian' does not fit the tensor groups"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hxemu::sw
