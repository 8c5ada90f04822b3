#include "sw/workload/chakra_pipeline.h"

#include <deque>
#include <map>
#include <stdexcept>
#include <tuple>

namespace hxemu::sw {

namespace {

using Kind = ChakraItem::Kind;
using Channel = std::tuple<int, int, std::int64_t>;   // (source NPU, destination NPU, tag)

std::string npu_list(const std::vector<int>& npus) {
  std::string s;
  for (const int n : npus) s += (s.empty() ? "" : ", ") + std::to_string(n);
  return s;
}

}  // namespace

std::vector<PlanStep> merge_pipeline_stages(const std::vector<ChakraNpuTrace>& traces, int pp) {
  std::vector<int> reps{0};
  std::map<int, int> stage_of{{0, 0}};
  for (std::size_t s = 0; s < reps.size(); ++s) {
    for (const auto& it : traces[reps[s]].items) {
      if (it.kind == Kind::kSend && stage_of.emplace(it.peer, static_cast<int>(reps.size())).second) {
        reps.push_back(it.peer);
      }
    }
  }
  if (static_cast<int>(reps.size()) != pp) {
    throw std::invalid_argument(traces[0].file + ": GlobalMetadata hxemu.pp = " + std::to_string(pp) +
                                " pipeline stages, but the sends from NPU 0 reach " + std::to_string(reps.size()) +
                                " stage(s) (NPUs " + npu_list(reps) + ")");
  }

  std::vector<PlanStep> steps;
  std::vector<std::size_t> next(reps.size(), 0);
  std::map<Channel, std::deque<const ChakraItem*>> in_flight;   // sends taken, not yet received
  auto blocked = [&](std::size_t s) {
    const auto& items = traces[reps[s]].items;
    if (next[s] == items.size()) return true;
    const ChakraItem& it = items[next[s]];
    return it.kind == Kind::kRecv && in_flight[Channel{it.peer, reps[s], it.tag}].empty();
  };
  while (true) {
    std::size_t s = 0;
    while (s < reps.size() && blocked(s)) ++s;
    if (s == reps.size()) break;
    const ChakraNpuTrace& t = traces[reps[s]];
    while (!blocked(s)) {
      const ChakraItem& it = t.items[next[s]++];
      if (it.kind == Kind::kRecv) {
        in_flight[Channel{it.peer, reps[s], it.tag}].pop_front();
        continue;
      }
      PlanStep step = it.step;
      step.stage = static_cast<int>(s);
      if (it.kind == Kind::kSend) {
        const int to = stage_of.at(it.peer);
        if (to != step.stage + 1 && to != step.stage - 1) {
          throw std::invalid_argument(t.where(it) + ": sends from stage " + std::to_string(s) + " to NPU " +
                                      std::to_string(it.peer) + ", stage " + std::to_string(to) +
                                      "; a pipeline send goes to the next or the previous stage");
        }
        step.backward = to < step.stage;
        in_flight[Channel{reps[s], it.peer, it.tag}].push_back(&it);
      }
      steps.push_back(step);
    }
  }

  for (std::size_t s = 0; s < reps.size(); ++s) {
    const ChakraNpuTrace& t = traces[reps[s]];
    if (next[s] == t.items.size()) continue;
    const ChakraItem& it = t.items[next[s]];
    const auto from = stage_of.find(it.peer);
    throw std::invalid_argument(
        t.where(it) + ": the receive waits for a send from NPU " + std::to_string(it.peer) + " with comm_tag " +
        std::to_string(it.tag) + " that " +
        (from == stage_of.end() ? "is not a pipeline stage (the stages are NPUs " + npu_list(reps) + ")"
                                : "stage " + std::to_string(from->second) + " never makes (it ended, or waits itself)"));
  }
  for (const auto& [channel, sends] : in_flight) {
    if (sends.empty()) continue;
    const ChakraItem& it = *sends.front();
    const int from = std::get<0>(channel);
    throw std::invalid_argument(traces[from].where(it) + ": the send to NPU " + std::to_string(it.peer) +
                                " with comm_tag " + std::to_string(it.tag) + " is never received there");
  }
  return steps;
}

}  // namespace hxemu::sw
