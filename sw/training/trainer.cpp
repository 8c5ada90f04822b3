#include "sw/training/trainer.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "sw/training/analytic.h"
#include "sw/workload/text_workload.h"

namespace hxemu::sw {

namespace {

using nlohmann::json;

bool suits(const Algorithm& a, const std::vector<Communicator>& groups) {
  for (const auto& g : groups) {
    if (!a.unsuitable(g).empty()) return false;
  }
  return true;
}

std::string algo_for(const sysc::SystemConfig& cfg, const TrainOptions& opt, CollectiveOp op,
                     const std::vector<Communicator>& groups) {
  const auto it = opt.algo.find(op);
  return it != opt.algo.end() ? find_algorithm(op, it->second).name : default_algorithm(cfg, op, groups);
}

}  // namespace

std::string default_algorithm(const sysc::SystemConfig& cfg, CollectiveOp op, const std::vector<Communicator>& groups) {
  std::vector<std::string> prefer;
  const bool md = cfg.topology == sysc::Topology::kMultidim;
  switch (op) {
    case CollectiveOp::kAllreduce:
      prefer = md ? std::vector<std::string>{"hierarchical", "biring"}
                  : std::vector<std::string>{"hamiltonian", "torus2d", "biring"};
      break;
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllgather:
      prefer = md ? std::vector<std::string>{"hierarchical", "biring"} : std::vector<std::string>{"2d", "biring"};
      break;
    case CollectiveOp::kAlltoall: prefer = {"all-at-once"}; break;
    case CollectiveOp::kBroadcast: prefer = {"ring"}; break;
    case CollectiveOp::kSendRecv: prefer = {"pipeline"}; break;
  }
  for (const auto& name : prefer) {
    if (suits(find_algorithm(op, name), groups)) return name;
  }
  return prefer.back();
}

std::uint64_t plan_max_bytes(const TrainingPlan& plan) {
  std::uint64_t m = 4;
  for (const auto& s : plan.steps) {
    if (s.kind == PlanStep::Kind::kCommunication) m = std::max(m, s.bytes);
  }
  return m;
}

void check_plan_sizes(const TrainingPlan& plan) {
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& s = plan.steps[i];
    if (s.kind != PlanStep::Kind::kCommunication) continue;
    if (s.bytes == 0 || s.bytes % 4 != 0 || s.bytes > kMaxWorkloadCollectiveBytes) {
      throw std::invalid_argument(plan.source + ": step " + std::to_string(i) + " (" + describe_step(s) +
                                  "): the size must be a positive multiple of 4 bytes (32-bit elements) up to " +
                                  std::to_string(kMaxWorkloadCollectiveBytes) + " (scale the workload down for "
                                  "emulation)");
    }
  }
}

void check_plan(const sysc::SystemConfig& cfg, const TrainingPlan& plan, const Placement& placement,
                const TrainOptions& opt) {
  check_plan_sizes(plan);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& s = plan.steps[i];
    if (s.kind != PlanStep::Kind::kCommunication) continue;
    const std::string where = "step " + std::to_string(i) + " (" + describe_step(s) + ")";
    if (s.stage < 0 || s.stage >= placement.par.pp || (s.group == GroupKind::kPipeline &&
                                                       (s.backward ? s.stage < 1 : s.stage + 1 >= placement.par.pp))) {
      throw std::invalid_argument(where + ": stage outside the placement's " + std::to_string(placement.par.pp) +
                                  " pipeline stages");
    }
    const auto& groups = placement.groups(s.group, s.stage, s.backward);
    if (groups.empty()) continue;   // groups of one: nothing to run
    const std::string name = algo_for(cfg, opt, s.op, groups);
    const Algorithm& a = find_algorithm(s.op, name);
    for (const auto& g : groups) {
      const std::string why = a.unsuitable(g);
      if (!why.empty()) {
        throw std::invalid_argument(where + ": " + op_name(s.op) + " algorithm '" + name + "' does not fit the " +
                                    group_kind_name(s.group) + " groups (" + why + "; allowed: " +
                                    algorithm_names(s.op) + ")");
      }
    }
  }
}

TrainResult run_training(CollectiveSession& session, const TrainingPlan& plan, const Placement& placement,
                         const TrainOptions& opt, const TrainStepHook& hook) {
  const auto wall0 = std::chrono::steady_clock::now();
  const auto& cfg = session.system().config();
  check_plan(cfg, plan, placement, opt);
  TrainResult res;
  res.workload = plan.name;
  res.placement = placement.describe();
  res.has_libra = cfg.topology == sysc::Topology::kMultidim;
  AnalyticIteration libra;
  if (res.has_libra) {
    libra = libra_iteration(cfg, plan, placement);
    res.libra_iteration_cycles = libra.total_cycles;
  }
  std::map<std::tuple<int, std::uint64_t, int, int, bool>, std::size_t> emulated;   // step key -> figure
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& s = plan.steps[i];
    StepFigure f;
    f.step = s;
    if (s.kind == PlanStep::Kind::kCompute) {
      f.cycles = compute_cycles(cfg, s.compute_ns);
      res.compute_cycles += f.cycles;
      res.bound_iteration_cycles += f.cycles;
      res.steps.push_back(f);
      continue;
    }
    const auto& groups = placement.groups(s.group, s.stage, s.backward);
    f.groups = static_cast<int>(groups.size());
    f.group_size = groups.empty() ? 1 : groups.front().size();
    if (groups.empty()) {
      f.skipped = true;
      res.steps.push_back(f);
      continue;
    }
    f.algo = algo_for(cfg, opt, s.op, groups);
    const auto key = std::make_tuple(static_cast<int>(s.op), s.bytes, static_cast<int>(s.group), s.stage, s.backward);
    const auto seen = emulated.find(key);
    if (opt.reuse && seen != emulated.end()) {
      const StepFigure& e = res.steps[seen->second];
      f.cycles = e.cycles;
      f.bound_cycles = e.bound_cycles;
      f.bound_fraction = e.bound_fraction;
      f.reused = true;
      ++res.reused;
    } else {
      if (hook) hook(i, describe_step(s));
      BuildOptions bo;
      bo.chunk_bytes = opt.chunk_bytes;
      bo.micro_batches = session.rails();   // a pipeline send spreads over the accelerator's NICs
      const CollectiveResult r = session.run_on(groups, s.op, f.algo, s.bytes, bo);
      f.cycles = r.cycles;
      f.bound_cycles = r.bound_cycles;
      f.bound_fraction = r.cycles > 0 ? static_cast<double>(r.bound_cycles) / static_cast<double>(r.cycles) : 0;
      f.checked = r.checked;
      f.wrong = r.wrong;
      f.digest = r.result_digest;
      res.checked += r.checked;
      res.wrong += r.wrong;
      for (const auto& e : r.errors) res.errors.push_back("step " + std::to_string(i) + " (" + describe_step(s) + "): " + e);
      ++res.emulated;
      emulated.emplace(key, res.steps.size());
    }
    if (res.has_libra) {
      f.has_libra = true;
      f.libra_cycles = libra.step_cycles[i];
    }
    res.comm_cycles += f.cycles;
    res.bound_iteration_cycles += f.bound_cycles;
    res.steps.push_back(f);
  }
  res.iteration_cycles = res.compute_cycles + res.comm_cycles;
  res.iteration_us = static_cast<double>(res.iteration_cycles) / (cfg.clock_ghz * 1e3);
  res.exposed_comm_fraction =
      res.iteration_cycles ? static_cast<double>(res.comm_cycles) / static_cast<double>(res.iteration_cycles) : 0;
  res.ok = res.errors.empty() && res.wrong == 0;
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

json TrainResult::json() const {
  nlohmann::json steps_j = nlohmann::json::array();
  for (const auto& f : steps) {
    nlohmann::json j{{"layer", f.step.layer}, {"pass", f.step.pass}, {"stage", f.step.stage}, {"cycles", f.cycles}};
    if (f.step.kind == PlanStep::Kind::kCompute) {
      j["kind"] = "compute";
      j["compute_ns"] = f.step.compute_ns;
    } else {
      j["kind"] = "communication";
      j["op"] = op_name(f.step.op);
      j["bytes"] = f.step.bytes;
      j["group"] = group_kind_name(f.step.group);
      if (f.step.group == GroupKind::kPipeline) j["backward"] = f.step.backward;
      j["groups"] = f.groups;
      j["group_size"] = f.group_size;
      j["skipped"] = f.skipped;
      if (!f.skipped) {
        j["algo"] = f.algo;
        j["bound_cycles"] = f.bound_cycles;
        j["bound_fraction"] = f.bound_fraction;
        j["reused"] = f.reused;
        if (!f.reused) {
          j["checked"] = f.checked;
          j["wrong"] = f.wrong;
          j["result_digest"] = f.digest;
        }
        if (f.has_libra) j["libra_cycles"] = f.libra_cycles;
      }
    }
    steps_j.push_back(j);
  }
  nlohmann::json j{{"workload", workload},
                   {"placement", placement},
                   {"iteration_cycles", iteration_cycles},
                   {"iteration_us", iteration_us},
                   {"compute_cycles", compute_cycles},
                   {"communication_cycles", comm_cycles},
                   {"exposed_communication_cycles", comm_cycles},
                   {"exposed_communication_fraction", exposed_comm_fraction},
                   {"bound_iteration_cycles", bound_iteration_cycles},
                   {"emulated_steps", emulated},
                   {"reused_steps", reused},
                   {"checked", checked},
                   {"wrong", wrong},
                   {"ok", ok},
                   {"errors", errors},
                   {"wall_seconds", wall_seconds},
                   {"steps", steps_j}};
  if (has_libra) j["libra_iteration_cycles"] = libra_iteration_cycles;
  return j;
}

}  // namespace hxemu::sw
