// The ASTRA-sim 1.0 / LIBRA text reader: header, layer lines, LIBRA's loop, errors.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "sw/workload/text_workload.h"
#include "tests/sw/workload/plan_steps.h"

namespace hxemu::sw {
namespace {

const char* kThreeLayers =
    "HYBRID_DATA_MODEL model_parallel_NPU_group: 2\n"
    "3\n"
    "a -1 10 NONE 0 11 ALLREDUCE 64 12 ALLREDUCE 128 0\n"
    "b -1 20 ALLGATHER 32 21 NONE 0 22 NONE 0 0\n"
    "c -1 30 ALLREDUCE 16 31 NONE 0 32 ALLREDUCE 256 5\n";

using test_steps::collective;
using test_steps::compute;

std::string plan_text(const TrainingPlan& p) {
  std::string s;
  for (const auto& st : p.steps) s += describe_step(st) + "\n";
  return s;
}

TEST(TextWorkload, NoOverlapLoopOrderAndGroups) {
  const auto plan = parse_text_workload(kThreeLayers, "three.txt");
  EXPECT_EQ(plan.name, "three");
  EXPECT_EQ(plan.par.kind, "HYBRID_DATA_MODEL");
  EXPECT_EQ(plan.par.tp, 2);
  EXPECT_EQ(plan.par.pp, 1);
  const auto A = CollectiveOp::kAllreduce;
  const auto T = GroupKind::kTensor, D = GroupKind::kData;
  TrainingPlan want;
  want.par = plan.par;
  want.steps = {compute(0, "a", "forward", 10),
                compute(0, "b", "forward", 20),
                collective(0, "b", "forward", CollectiveOp::kAllgather, 32, T),
                compute(0, "c", "forward", 30),
                collective(0, "c", "forward", A, 16, T),
                compute(0, "c", "input-gradient", 31),
                compute(0, "c", "weight-gradient", 32),
                collective(0, "c", "weight-gradient", A, 256, D),
                compute(0, "b", "input-gradient", 21),
                compute(0, "b", "weight-gradient", 22),
                compute(0, "a", "input-gradient", 11),
                collective(0, "a", "input-gradient", A, 64, T),
                compute(0, "a", "weight-gradient", 12),
                collective(0, "a", "weight-gradient", A, 128, D)};
  EXPECT_TRUE(plan == want) << plan_text(plan) << "---\n" << plan_text(want);
}

TEST(TextWorkload, PipelineStagesSendBetweenStages) {
  ParallelismOverride over;
  over.pp = 2;
  over.pp_bytes = 4096;
  const auto plan = parse_text_workload(kThreeLayers, "three.txt", over);
  // Layers a and b in stage 0, c in stage 1 (layer i goes to stage floor(i * 2 / 3)).
  ASSERT_EQ(plan.par.pp, 2);
  std::vector<std::string> got;
  for (const auto& s : plan.steps) got.push_back(describe_step(s));
  const std::vector<std::string> want{
      "stage 0 forward a: compute 10 ns",
      "stage 0 forward b: compute 20 ns",
      "stage 0 forward b: allgather 32 B on tensor groups",
      "stage 0 forward (stage boundary): send 4096 B to stage 1",
      "stage 1 forward c: compute 30 ns",
      "stage 1 forward c: allreduce 16 B on tensor groups",
      "stage 1 input-gradient c: compute 31 ns",
      "stage 1 weight-gradient c: compute 32 ns",
      "stage 1 weight-gradient c: allreduce 256 B on data groups",
      "stage 1 input-gradient (stage boundary): send 4096 B to stage 0",
      "stage 0 input-gradient b: compute 21 ns",
      "stage 0 weight-gradient b: compute 22 ns",
      "stage 0 input-gradient a: compute 11 ns",
      "stage 0 input-gradient a: allreduce 64 B on tensor groups",
      "stage 0 weight-gradient a: compute 12 ns",
      "stage 0 weight-gradient a: allreduce 128 B on data groups"};
  EXPECT_EQ(got, want);
}

TEST(TextWorkload, KindsChooseTheGroups) {
  const std::string layer = "x -1 1 ALLREDUCE 8 1 ALLREDUCE 8 1 ALLREDUCE 8 0\n";
  const auto data = parse_text_workload("DATA\n1\n" + layer, "d.txt");
  const auto model = parse_text_workload("MODEL\n1\n" + layer, "m.txt");
  for (const auto& s : data.steps) {
    if (s.kind == PlanStep::Kind::kCommunication) EXPECT_EQ(s.group, GroupKind::kData);
  }
  for (const auto& s : model.steps) {
    if (s.kind == PlanStep::Kind::kCommunication) EXPECT_EQ(s.group, GroupKind::kTensor);
  }
}

// LIBRA's published workloads (headerless, 12 fields per line) are read as they are.
TEST(TextWorkload, ReadsLibrasPublishedWorkloads) {
  const std::string dir = HX_SHARED_DATA_DIR "/libra/workload/";
  if (!std::ifstream(dir + "GPT_3.txt")) GTEST_SKIP() << "no " << dir;
  const auto gpt = read_text_workload(dir + "GPT_3.txt");
  EXPECT_EQ(gpt.par.kind, "HYBRID_DATA_MODEL");
  EXPECT_EQ(gpt.name, "GPT_3");
  // 18 layers x 3 passes of compute; collectives per block: concat forward allreduce and input-
  // gradient allgather, X W2 forward allreduce, Q and X W1 input-gradient allreduces, and Q1's
  // weight-gradient allreduce (the file gives Q2 none): 6 + 5.
  int computes = 0, comms = 0;
  std::uint64_t first_wg = 0;
  for (const auto& s : gpt.steps) {
    if (s.kind == PlanStep::Kind::kCompute) {
      ++computes;
    } else {
      ++comms;
      if (s.pass == "weight-gradient" && first_wg == 0) first_wg = s.bytes;
    }
  }
  EXPECT_EQ(computes, 18 * 3);
  EXPECT_EQ(comms, 11);
  EXPECT_EQ(first_wg, 452984832u);   // Q1's, the only one
  const auto resnet = read_text_workload(dir + "ResNet_50.txt");
  EXPECT_GT(resnet.steps.size(), 100u);
  EXPECT_EQ(resnet.steps.front().layer, "conv1");
  EXPECT_EQ(resnet.steps.front().compute_ns, 13003u);
}

TEST(TextWorkload, ShippedWorkloadsParse) {
  for (const char* name : {"gpt3-like", "resnet50-like", "dlrm-like"}) {
    const auto p = read_text_workload(std::string(HX_CONFIG_DIR) + "/workloads/" + name + ".txt");
    EXPECT_EQ(p.name, name);
    EXPECT_FALSE(p.steps.empty());
  }
  const auto gpt = read_text_workload(std::string(HX_CONFIG_DIR) + "/workloads/gpt3-like.txt");
  EXPECT_EQ(gpt.par.kind, "HYBRID_TRANSFORMER");
  EXPECT_EQ(gpt.par.tp, 4);
}

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    parse_text_workload(text, "w.txt");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(TextWorkload, BadInputNamesLineAndField) {
  expect_error("DATA\n1\na -1 1 NONE 0 1 NONE 0 1 NONE 0\n", "w.txt:3: a layer line has exactly 12 fields");
  expect_error("DATA\n1\na -1 1 NONE 0 1 BCAST 8 1 NONE 0 0\n",
               "w.txt:3: layer a input-gradient collective type 'BCAST' is not one of NONE, ALLREDUCE");
  expect_error("DATA\n2\na -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n", "1 layer lines, but line 2 announces 2");
  expect_error("DATA\n1\na -1 1 NONE 0 1 NONE 0 1 NONE 0 0\nb -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n",
               "w.txt:4: more layer lines than the 1 announced on line 2");
  expect_error("HYBRID_DATA_MODEL tensor: 4\n1\n", "w.txt:1: unknown header key 'tensor' (allowed: model_parallel_NPU_group");
  expect_error("SOMETHING\n1\n", "w.txt:1: parallelism 'SOMETHING' is not one of DATA, MODEL");
  expect_error("DATA model_parallel_NPU_group: 2\n1\na -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n",
               "parallelism DATA has no tensor groups");
  expect_error("DATA pipeline_stages: 2 pipeline_bytes: 64\n1\na -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n",
               "2 pipeline stages but only 1 layers");
  expect_error("DATA pipeline_stages: 2\n2\na -1 1 NONE 0 1 NONE 0 1 NONE 0 0\nb -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n",
               "pipeline_bytes");
  expect_error("DATA\n1\na -1 x NONE 0 1 NONE 0 1 NONE 0 0\n", "layer a forward compute time (ns) must be a non-negative integer");
  expect_error("# nothing\n\n", "no layer lines");
  expect_error("DATA\n", "the header is not followed by the number of layers");
}

}  // namespace
}  // namespace hxemu::sw
