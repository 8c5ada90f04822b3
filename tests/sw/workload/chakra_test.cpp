// Chakra execution traces (sw/workload/chakra_trace.h, chakra_writer.h): ASTRA-sim's published
// traces read as exact plans; hxemu's generator round-trips text-workload plans with one, two and
// three pipeline stages; broken traces are errors that name the file and the node.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/workload/chakra_et.pb.h"
#include "sw/workload/chakra_files.h"
#include "sw/workload/chakra_stream.h"
#include "sw/workload/chakra_trace.h"
#include "sw/workload/chakra_trace_file.h"
#include "sw/workload/chakra_writer.h"
#include "sw/workload/text_workload.h"
#include "tests/sw/workload/plan_steps.h"

namespace hxemu::sw {
namespace {

namespace fs = std::filesystem;

// The message of the std::invalid_argument `f` throws ("" and a failure when it throws nothing).
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return "";
}

using test_steps::collective;
using test_steps::compute;

PlanStep send(int stage, bool backward, std::uint64_t bytes) {
  PlanStep s = collective(stage, "", backward ? "input-gradient" : "forward", CollectiveOp::kSendRecv, bytes,
                          GroupKind::kPipeline);
  s.backward = backward;
  return s;
}

class ChakraTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "hxemu-chakra-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }

  static void write_bytes(const std::string& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  }
  static std::string read_bytes(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  std::string dir_;
};

// ---- hand-made traces, for the error cases ----

chakra::Node node(std::uint64_t id, const std::string& name, chakra::NodeType type,
                  std::initializer_list<std::uint64_t> deps = {}) {
  chakra::Node n;
  n.set_id(id);
  n.set_name(name);
  n.set_type(type);
  for (const auto d : deps) n.add_ctrl_deps(d);
  return n;
}

void add_int(chakra::Node& n, const std::string& name, std::int64_t v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

chakra::Node allreduce_node(std::uint64_t id, const std::string& name, std::int64_t bytes,
                            std::initializer_list<std::uint64_t> deps = {}) {
  chakra::Node n = node(id, name, chakra::COMM_COLL_NODE, deps);
  add_int(n, "comm_type", chakra::ALL_REDUCE);
  add_int(n, "comm_size", bytes);
  return n;
}

std::string trace(const std::vector<chakra::Node>& nodes) {
  chakra::GlobalMetadata meta;
  meta.set_version("0.0.4");
  std::string out;
  append_chakra_frame(out, meta);
  for (const auto& n : nodes) append_chakra_frame(out, n);
  return out;
}

// ---- ASTRA-sim's published microbenchmark traces ----

struct Published {
  const char* folder;
  const char* name;
  CollectiveOp op;
};

TEST_F(ChakraTest, PublishedMicrobenchmarks_16Npus_OneCollectiveOf1MiB) {
  const std::string data = HX_CHAKRA_DATA_DIR;
  if (!fs::is_directory(data)) GTEST_SKIP() << "no published traces at " << data;
  for (const Published& p : {Published{"all_reduce_16npus_1MB", "all_reduce", CollectiveOp::kAllreduce},
                             Published{"all_gather_16npus_1MB", "all_gather", CollectiveOp::kAllgather},
                             Published{"reduce_scatter_16npus_1MB", "reduce_scatter", CollectiveOp::kReduceScatter}}) {
    SCOPED_TRACE(p.folder);
    const std::string folder = data + "/" + p.folder;
    EXPECT_EQ(find_chakra_files(folder, 0).files.size(), 16u);
    const TrainingPlan plan = read_chakra(folder, 0);
    EXPECT_EQ(plan.name, p.name);
    EXPECT_EQ(plan.source, folder);
    EXPECT_EQ(plan.par, Parallelism{});   // no hxemu.* metadata: DATA, tp 1, pp 1, dp the rest
    ASSERT_EQ(plan.steps.size(), 1u);
    // No "<layer>:<pass>" name: the node's name is the layer, the pass forward; no pg_name: all NPUs.
    EXPECT_EQ(plan.steps[0], collective(0, p.folder, "forward", p.op, 1048576, GroupKind::kAll));
    EXPECT_EQ(plan.steps[0].op, p.op);
    EXPECT_EQ(plan.steps[0].bytes, 1048576u);
    EXPECT_EQ(plan.steps[0].group, GroupKind::kAll);
    // The prefix form and a matching NPU count read the same; another count is an error.
    EXPECT_EQ(read_chakra(folder + "/" + p.name, 16), plan);
    EXPECT_EQ(error_of([&] { read_chakra(folder, 8); }),
              "Chakra trace '" + folder + "': 16 files " + p.name + ".0.et.." + p.name + ".15.et, but 8 NPUs were asked for");
  }
}

// ---- hxemu's generator, read back ----

const char* kHybridWorkload =
    "HYBRID_DATA_MODEL model_parallel_NPU_group: 2\n"
    "3\n"
    "conv1 -1 13003 ALLGATHER 4096 12864 NONE 0 32291 ALLREDUCE 65536 3229\n"
    "mid -1 2000 ALLTOALL 8192 3000 REDUCESCATTER 16384 4000 NONE 0 0\n"
    "fc -1 1500 NONE 0 1600 NONE 0 1700 ALLREDUCE 32768 0\n";

TEST_F(ChakraTest, RoundTrip_OneStage_TensorAndDataGroups) {
  const TrainingPlan plan = parse_text_workload(kHybridWorkload, "hybrid.txt");
  const std::vector<PlanStep> expected{
      compute(0, "conv1", "forward", 13003),
      collective(0, "conv1", "forward", CollectiveOp::kAllgather, 4096, GroupKind::kTensor),
      compute(0, "mid", "forward", 2000),
      collective(0, "mid", "forward", CollectiveOp::kAlltoall, 8192, GroupKind::kTensor),
      compute(0, "fc", "forward", 1500),
      compute(0, "fc", "input-gradient", 1600),
      compute(0, "fc", "weight-gradient", 1700),
      collective(0, "fc", "weight-gradient", CollectiveOp::kAllreduce, 32768, GroupKind::kData),
      compute(0, "mid", "input-gradient", 3000),
      collective(0, "mid", "input-gradient", CollectiveOp::kReduceScatter, 16384, GroupKind::kTensor),
      compute(0, "mid", "weight-gradient", 4000),
      compute(0, "conv1", "input-gradient", 12864),
      compute(0, "conv1", "weight-gradient", 32291),
      collective(0, "conv1", "weight-gradient", CollectiveOp::kAllreduce, 65536, GroupKind::kData),
  };
  ASSERT_EQ(plan.steps, expected);   // the text reader's plan, as this test assumes it

  write_chakra(plan, 8, 0, path("hybrid"));
  for (int k = 0; k < 8; ++k) EXPECT_TRUE(fs::exists(path("hybrid." + std::to_string(k) + ".et"))) << k;
  EXPECT_FALSE(fs::exists(path("hybrid.8.et")));
  const TrainingPlan back = read_chakra(path("hybrid"), 8);
  EXPECT_EQ(back, plan);
  EXPECT_EQ(back.steps, expected);
  EXPECT_EQ(back.name, "hybrid");
  EXPECT_EQ(back.par.kind, "HYBRID_DATA_MODEL");
  EXPECT_EQ(back.par.tp, 2);
  EXPECT_EQ(back.par.pp, 1);
  EXPECT_EQ(read_chakra(dir_, 0), plan);   // the folder form

  // The file itself: names "<layer>:<pass>[:comm]", duration_micros rounded, the exact ns beside it,
  // pg_name for the groups, nodes chained by ctrl_deps.
  const std::string bytes = read_bytes(path("hybrid.3.et"));
  ChakraFrameReader frames(bytes);
  std::string_view frame;
  ASSERT_TRUE(frames.next(frame));
  chakra::GlobalMetadata meta;
  ASSERT_TRUE(meta.ParseFromArray(frame.data(), static_cast<int>(frame.size())));
  EXPECT_EQ(meta.version(), "0.0.4");
  std::vector<chakra::Node> nodes;
  while (frames.next(frame)) {
    nodes.emplace_back();
    ASSERT_TRUE(nodes.back().ParseFromArray(frame.data(), static_cast<int>(frame.size())));
  }
  ASSERT_EQ(nodes.size(), 14u);
  EXPECT_EQ(nodes[0].name(), "conv1:forward");
  EXPECT_EQ(nodes[0].type(), chakra::COMP_NODE);
  EXPECT_EQ(nodes[0].duration_micros(), 13u);
  EXPECT_EQ(nodes[0].ctrl_deps_size(), 0);
  EXPECT_EQ(nodes[1].name(), "conv1:forward:comm");
  EXPECT_EQ(nodes[1].type(), chakra::COMM_COLL_NODE);
  ASSERT_EQ(nodes[1].ctrl_deps_size(), 1);
  EXPECT_EQ(nodes[1].ctrl_deps(0), 0u);
  bool tp_group = false;
  for (const auto& a : nodes[1].attr()) tp_group |= a.name() == "pg_name" && a.string_val() == "tp";
  EXPECT_TRUE(tp_group);
  EXPECT_EQ(nodes[12].duration_micros(), 32u);   // 32291 ns
}

TEST_F(ChakraTest, RoundTrip_BroadcastOnAllNpus_AndForeignDurationInMicroseconds) {
  TrainingPlan plan;
  plan.name = "bcast";
  plan.steps = {compute(0, "x", "forward", 7000),
                collective(0, "x", "forward", CollectiveOp::kBroadcast, 1024, GroupKind::kAll)};
  write_chakra(plan, 2, 0, path("bcast"));
  EXPECT_EQ(read_chakra(path("bcast"), 2), plan);

  // A compute node from elsewhere: duration_micros only (Chakra's unit: microseconds).
  chakra::Node n = node(4, "aten::mm", chakra::COMP_NODE);
  n.set_duration_micros(7);
  write_bytes(path("foreign.0.et"), trace({n}));
  const TrainingPlan foreign = read_chakra(path("foreign"), 0);
  ASSERT_EQ(foreign.steps.size(), 1u);
  EXPECT_EQ(foreign.steps[0], compute(0, "aten::mm", "forward", 7000));
}

const char* kPipelineWorkload =
    "HYBRID_DATA_MODEL model_parallel_NPU_group: 1 pipeline_stages: %d pipeline_bytes: 65536\n"
    "4\n"
    "a -1 1000 NONE 0 1100 NONE 0 1200 ALLREDUCE 4096 0\n"
    "b -1 2000 NONE 0 2100 NONE 0 2200 NONE 0 0\n"
    "c -1 3000 NONE 0 3100 NONE 0 3200 NONE 0 0\n"
    "d -1 4000 NONE 0 4100 NONE 0 4200 ALLREDUCE 8192 0\n";

TrainingPlan pipeline_plan(int stages) {
  char text[512];
  std::snprintf(text, sizeof text, kPipelineWorkload, stages);
  return parse_text_workload(text, "pipe.txt");
}

TEST_F(ChakraTest, RoundTrip_TwoStages_SendsBetweenStages) {
  const TrainingPlan plan = pipeline_plan(2);
  const std::vector<PlanStep> expected{
      compute(0, "a", "forward", 1000),
      compute(0, "b", "forward", 2000),
      send(0, false, 65536),
      compute(1, "c", "forward", 3000),
      compute(1, "d", "forward", 4000),
      compute(1, "d", "input-gradient", 4100),
      compute(1, "d", "weight-gradient", 4200),
      collective(1, "d", "weight-gradient", CollectiveOp::kAllreduce, 8192, GroupKind::kData),
      compute(1, "c", "input-gradient", 3100),
      compute(1, "c", "weight-gradient", 3200),
      send(1, true, 65536),
      compute(0, "b", "input-gradient", 2100),
      compute(0, "b", "weight-gradient", 2200),
      compute(0, "a", "input-gradient", 1100),
      compute(0, "a", "weight-gradient", 1200),
      collective(0, "a", "weight-gradient", CollectiveOp::kAllreduce, 4096, GroupKind::kData),
  };
  ASSERT_EQ(plan.steps, expected);

  write_chakra(plan, 8, 0, path("pipe2"));
  const TrainingPlan back = read_chakra(path("pipe2"), 0);
  EXPECT_EQ(back, plan);
  EXPECT_EQ(back.steps, expected);
  EXPECT_EQ(back.par.pp, 2);
  EXPECT_EQ(back.par.pp_bytes, 65536u);

  // NPU 5 is position 1 of stage 1: it receives from NPU 1, sends back to it.
  const ChakraNpuTrace t = read_chakra_npu_file(path("pipe2.5.et"), 5, 8);
  ASSERT_EQ(t.items.size(), 9u);
  EXPECT_EQ(t.items[0].kind, ChakraItem::Kind::kRecv);
  EXPECT_EQ(t.items[0].peer, 1);
  EXPECT_EQ(t.items[0].node_name, ":forward:comm");
  EXPECT_EQ(t.items[8].kind, ChakraItem::Kind::kSend);
  EXPECT_EQ(t.items[8].peer, 1);
  EXPECT_EQ(t.items[8].tag, t.items[0].tag + 1);
  EXPECT_EQ(t.items[8].step.bytes, 65536u);
}

TEST_F(ChakraTest, RoundTrip_ThreeStages_StagesByDiscoveryOfSends) {
  const TrainingPlan plan = pipeline_plan(3);
  ASSERT_EQ(plan.steps.size(), 18u);
  EXPECT_EQ(plan.steps[2], send(0, false, 65536));
  EXPECT_EQ(plan.steps[4], send(1, false, 65536));
  EXPECT_EQ(plan.steps[9], send(2, true, 65536));
  EXPECT_EQ(plan.steps[12], send(1, true, 65536));

  write_chakra(plan, 6, 0, path("pipe3"));
  const TrainingPlan back = read_chakra(path("pipe3"), 6);
  EXPECT_EQ(back, plan);
  EXPECT_EQ(back.par.pp, 3);

  // NPU 3, position 1 of stage 1 (NPUs 2-3): receive from 1, c forward, send to 5, receive from 5,
  // c backward (two passes), send to 1.
  const ChakraNpuTrace t = read_chakra_npu_file(path("pipe3.3.et"), 3, 6);
  using K = ChakraItem::Kind;
  ASSERT_EQ(t.items.size(), 7u);
  const std::vector<std::pair<K, int>> shape{{K::kRecv, 1}, {K::kStep, -1}, {K::kSend, 5}, {K::kRecv, 5},
                                             {K::kStep, -1}, {K::kStep, -1}, {K::kSend, 1}};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    EXPECT_EQ(t.items[i].kind, shape[i].first) << i;
    EXPECT_EQ(t.items[i].peer, shape[i].second) << i;
  }
  // Explicit NPUs per stage that do not make up the count are refused.
  EXPECT_EQ(error_of([&] { chakra_traces(plan, 6, 3); }),
            "6 NPUs do not split into 3 pipeline stages of 3 NPUs (NPUs per stage x stages must be the NPU count)");
}

// Every shipped workload and LIBRA's published ones, with one stage and with pipeline stages: the
// trace reads back as the text reader's plan.
TEST_F(ChakraTest, RoundTrip_ShippedAndLibraWorkloads) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(HX_WORKLOAD_DIR)) {
    if (e.path().extension() == ".txt") files.push_back(e.path().string());
  }
  ASSERT_GE(files.size(), 3u);
  if (fs::is_directory(HX_LIBRA_WORKLOAD_DIR)) {
    files.push_back(std::string(HX_LIBRA_WORKLOAD_DIR) + "/GPT_3.txt");
    files.push_back(std::string(HX_LIBRA_WORKLOAD_DIR) + "/ResNet_50.txt");
  }
  for (const auto& file : files) {
    for (const int pp : {1, 2, 4}) {
      SCOPED_TRACE(file + " pp " + std::to_string(pp));
      ParallelismOverride over;
      over.pp = pp;
      over.pp_bytes = pp > 1 ? 65536 : 0;
      const TrainingPlan plan = read_text_workload(file, over);
      const std::string prefix = path("w" + std::to_string(pp) + "/" + plan.name);
      write_chakra(plan, 8, 0, prefix);
      EXPECT_EQ(read_chakra(prefix, 8), plan);
    }
  }
}

TEST_F(ChakraTest, Writer_SmallerTraceRemovesTheLargerOnesFiles) {
  const TrainingPlan plan = parse_text_workload(kHybridWorkload, "hybrid.txt");
  write_chakra(plan, 8, 0, path("w"));
  write_chakra(plan, 4, 0, path("w"));
  EXPECT_TRUE(fs::exists(path("w.3.et")));
  EXPECT_FALSE(fs::exists(path("w.4.et")));
  EXPECT_FALSE(fs::exists(path("w.7.et")));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
  EXPECT_EQ(read_chakra(path("w"), 4), plan);
}

// ---- errors name the file and the node ----

TEST_F(ChakraTest, Error_MissingNpuFile) {
  const TrainingPlan plan = parse_text_workload(kHybridWorkload, "hybrid.txt");
  write_chakra(plan, 4, 0, path("gap"));
  fs::remove(path("gap.2.et"));
  EXPECT_EQ(error_of([&] { read_chakra(path("gap"), 0); }),
            "Chakra trace '" + path("gap") + "': " + path("gap.2.et") +
                " is missing (one file per NPU, numbered 0..N-1 without gaps; found 0..1, 3)");
}

TEST_F(ChakraTest, Error_TruncatedFile) {
  write_bytes(path("cut.0.et"), trace({allreduce_node(0, "first", 4096), allreduce_node(1, "second", 4096, {0})}));
  const std::string whole = read_bytes(path("cut.0.et"));
  write_bytes(path("cut.0.et"), whole.substr(0, whole.size() - 3));
  const std::string message = error_of([&] { read_chakra(path("cut"), 0); });
  const std::size_t second_at = whole.size() - trace({allreduce_node(1, "second", 4096, {0})}).size() +
                                trace({}).size();   // after the metadata and the first node
  EXPECT_EQ(message, path("cut.0.et") + ": message 3 at byte " + std::to_string(second_at) +
                         " (the node after node 0 'first'): the message needs " +
                         std::to_string(whole.size() - second_at - 1) + " bytes but the file has only " +
                         std::to_string(whole.size() - second_at - 4) + " left (truncated)");
}

TEST_F(ChakraTest, Error_DependencyCycle) {
  write_bytes(path("cyc.0.et"), trace({allreduce_node(0, "a", 4096, {2}), allreduce_node(1, "b", 4096, {0}),
                                       allreduce_node(2, "c", 4096, {1}), allreduce_node(3, "d", 4096)}));
  EXPECT_EQ(error_of([&] { read_chakra(path("cyc"), 0); }),
            path("cyc.0.et") + ": node 0 'a': dependency cycle (node 0 -> 2 -> 1 -> 0, each waiting on the next)");
}

TEST_F(ChakraTest, Error_DependencyOnUnknownNode) {
  write_bytes(path("dep.0.et"), trace({allreduce_node(0, "a", 4096), allreduce_node(1, "b", 4096, {9})}));
  EXPECT_EQ(error_of([&] { read_chakra(path("dep"), 0); }),
            path("dep.0.et") + ": node 1 'b': ctrl_deps names node 9, which the file does not hold");
}

TEST_F(ChakraTest, Error_UnknownAndUnsupportedCommType) {
  chakra::Node n = node(5, "x", chakra::COMM_COLL_NODE);
  add_int(n, "comm_type", 42);
  add_int(n, "comm_size", 4096);
  write_bytes(path("ct.0.et"), trace({n}));
  EXPECT_EQ(error_of([&] { read_chakra(path("ct"), 0); }),
            path("ct.0.et") + ": node 5 'x': comm_type 42 is not a Chakra CollectiveCommType; hxemu runs "
                              "ALL_REDUCE (0), ALL_GATHER (2), BROADCAST (5), ALL_TO_ALL (6), REDUCE_SCATTER (7)");
  n.mutable_attr(0)->set_int64_val(chakra::REDUCE);
  write_bytes(path("ct.0.et"), trace({n}));
  EXPECT_EQ(error_of([&] { read_chakra(path("ct"), 0); }),
            path("ct.0.et") + ": node 5 'x': comm_type 1 (REDUCE) is not supported; hxemu runs "
                              "ALL_REDUCE (0), ALL_GATHER (2), BROADCAST (5), ALL_TO_ALL (6), REDUCE_SCATTER (7)");
}

TEST_F(ChakraTest, Error_EmptyTraces) {
  write_bytes(path("none.0.et"), trace({}));
  EXPECT_EQ(error_of([&] { read_chakra(path("none"), 0); }),
            path("none.0.et") + ": no nodes after the GlobalMetadata (an empty trace)");
  write_bytes(path("zero.0.et"), "");
  EXPECT_EQ(error_of([&] { read_chakra(path("zero"), 0); }),
            path("zero.0.et") + ": empty file (a Chakra trace starts with its GlobalMetadata)");
  EXPECT_EQ(error_of([&] { read_chakra(path("nothing"), 0); }),
            "Chakra trace '" + path("nothing") + "': no files '" + path("nothing") + ".<k>.et'");
}

TEST_F(ChakraTest, Error_NpusDifferWithoutPipelineStages) {
  write_bytes(path("spmd.0.et"), trace({allreduce_node(0, "a", 4096), allreduce_node(1, "b", 4096, {0})}));
  write_bytes(path("spmd.1.et"), trace({allreduce_node(0, "a", 4096), allreduce_node(1, "b", 4096, {0})}));
  write_bytes(path("spmd.2.et"), trace({allreduce_node(0, "a", 4096), allreduce_node(7, "b", 8192, {0})}));
  EXPECT_EQ(error_of([&] { read_chakra(path("spmd"), 0); }),
            path("spmd.2.et") + ": node 7 'b' (" +
                describe_step(collective(0, "b", "forward", CollectiveOp::kAllreduce, 8192, GroupKind::kAll)) +
                ") differs from NPU 0's step 2, " + path("spmd.0.et") + ": node 1 'b' (" +
                describe_step(collective(0, "b", "forward", CollectiveOp::kAllreduce, 4096, GroupKind::kAll)) +
                "): without pipeline stages every NPU must run the same steps");
}

TEST_F(ChakraTest, Error_SendWithoutPipelineStages) {
  chakra::Node s = node(3, "p", chakra::COMM_SEND_NODE);
  add_int(s, "comm_dst", 1);
  add_int(s, "comm_size", 4096);
  chakra::Node r = node(3, "p", chakra::COMM_RECV_NODE);
  add_int(r, "comm_src", 0);
  write_bytes(path("p2p.0.et"), trace({s}));
  write_bytes(path("p2p.1.et"), trace({r}));
  EXPECT_EQ(error_of([&] { read_chakra(path("p2p"), 0); }),
            path("p2p.0.et") + ": node 3 'p': a send in a trace without pipeline stages (GlobalMetadata hxemu.pp "
                               "absent or 1); hxemu reads sends and receives only as transfers between pipeline "
                               "stages");
}

TEST_F(ChakraTest, Error_PipelineStagesDisagreeWithSends) {
  // Two stages written, the metadata changed to say three.
  const TrainingPlan plan = pipeline_plan(2);
  TrainingPlan three = plan;
  three.par.pp = 3;
  const auto traces = chakra_traces(plan, 6, 3);
  const auto lying = chakra_traces(three, 6, 2);   // only for its metadata
  for (int k = 0; k < 6; ++k) {
    // Swap in the three-stage metadata (the first frame) in front of the two-stage nodes.
    ChakraFrameReader a(traces[k]), b(lying[k]);
    std::string_view fa, fb;
    ASSERT_TRUE(a.next(fa));
    ASSERT_TRUE(b.next(fb));
    const std::size_t meta_a = static_cast<std::size_t>(fa.data() + fa.size() - traces[k].data());
    const std::size_t meta_b = static_cast<std::size_t>(fb.data() + fb.size() - lying[k].data());
    write_bytes(path("pp." + std::to_string(k) + ".et"), lying[k].substr(0, meta_b) + traces[k].substr(meta_a));
  }
  EXPECT_EQ(error_of([&] { read_chakra(path("pp"), 0); }),
            path("pp.0.et") + ": GlobalMetadata hxemu.pp = 3 pipeline stages, but the sends from NPU 0 reach 2 "
                              "stage(s) (NPUs 0, 3)");
}

TEST_F(ChakraTest, Error_ReceiveWithoutItsSend) {
  chakra::GlobalMetadata meta;
  meta.set_version("0.0.4");
  auto* a = meta.add_attr();
  a->set_name("hxemu.pp");
  a->set_int64_val(2);
  auto file = [&](const std::vector<chakra::Node>& nodes) {
    std::string out;
    append_chakra_frame(out, meta);
    for (const auto& n : nodes) append_chakra_frame(out, n);
    return out;
  };
  auto p2p = [](std::uint64_t id, const std::string& name, chakra::NodeType type, int peer, int tag,
                std::initializer_list<std::uint64_t> deps) {
    chakra::Node n = node(id, name, type, deps);
    add_int(n, type == chakra::COMM_SEND_NODE ? "comm_dst" : "comm_src", peer);
    add_int(n, "comm_tag", tag);
    add_int(n, "comm_size", 4096);
    return n;
  };
  write_bytes(path("stuck.0.et"), file({allreduce_node(0, "a:forward:comm", 4096),
                                        p2p(1, "s", chakra::COMM_SEND_NODE, 1, 0, {0}),
                                        p2p(2, "r", chakra::COMM_RECV_NODE, 1, 1, {1})}));
  write_bytes(path("stuck.1.et"), file({p2p(0, "r", chakra::COMM_RECV_NODE, 0, 0, {}),
                                        p2p(1, "s", chakra::COMM_SEND_NODE, 0, 2, {0})}));
  EXPECT_EQ(error_of([&] { read_chakra(path("stuck"), 0); }),
            path("stuck.0.et") + ": node 2 'r': the receive waits for a send from NPU 1 with comm_tag 1 that stage 1 "
                                 "never makes (it ended, or waits itself)");
}

TEST_F(ChakraTest, Error_MalformedMetadataAndAttributes) {
  chakra::GlobalMetadata meta;
  auto* a = meta.add_attr();
  a->set_name("hxemu.tp");
  a->set_string_val("two");
  std::string bytes;
  append_chakra_frame(bytes, meta);
  append_chakra_frame(bytes, allreduce_node(0, "a", 4096));
  write_bytes(path("meta.0.et"), bytes);
  EXPECT_EQ(error_of([&] { read_chakra(path("meta"), 0); }),
            path("meta.0.et") + ": GlobalMetadata attribute hxemu.tp must be an integer in 1..65536, got string_val");

  chakra::Node n = node(2, "n", chakra::COMM_COLL_NODE);
  add_int(n, "comm_type", chakra::ALL_GATHER);
  write_bytes(path("attr.0.et"), trace({n}));
  EXPECT_EQ(error_of([&] { read_chakra(path("attr"), 0); }),
            path("attr.0.et") + ": node 2 'n': COMM_COLL_NODE needs attribute comm_size");

  write_bytes(path("mem.0.et"), trace({node(1, "load", chakra::MEM_LOAD_NODE)}));
  EXPECT_EQ(error_of([&] { read_chakra(path("mem"), 0); }),
            path("mem.0.et") + ": node 1 'load': MEM_LOAD_NODE is not a node hxemu runs (COMP_NODE, COMM_COLL_NODE, "
                               "COMM_SEND_NODE, COMM_RECV_NODE; METADATA_NODE is skipped)");
}

}  // namespace
}  // namespace hxemu::sw
