// Training jobs with 2D parallelism placed on disjoint rectangular sub-grids of boards (the
// isolation claim of HammingMesh): each training step is a tensor-parallel allreduce along every
// row of the job's accelerators, then a data-parallel allreduce along every column. Several jobs
// run at once; each is also run alone on the otherwise idle machine, and the report compares.
//
// Job file (JSON):
//   {"jobs": [{"name": "A", "boards": [R0, C0, H, W], "steps": 2,
//              "tp_bytes": 262144, "dp_bytes": 1048576, "tp_algo": "biring", "dp_algo": "biring"}]}
// boards: top-left board (row R0, column C0) and size H x W in boards; bytes per node per step.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/collectives/session.h"

namespace hxemu::sw {

struct JobSpec {
  std::string name;
  int board_row = 0, board_col = 0, board_rows = 1, board_cols = 1;
  int steps = 1;
  std::uint64_t tp_bytes = 0, dp_bytes = 0;
  std::string tp_algo = "biring", dp_algo = "biring";
};

// Largest tp_bytes / dp_bytes of a job.
constexpr std::int64_t kMaxJobBytes = 1ll << 28;

// Parses and validates against the system (board ranges, overlaps, sizes, algorithms and whether
// they fit the job's rows and columns); throws std::invalid_argument naming the job, the field and
// the allowed values. load_jobs reads at most sysc::kMaxInputFileBytes.
std::vector<JobSpec> parse_jobs(const std::string& json_text, const std::string& source,
                                const sysc::SystemConfig& cfg);
std::vector<JobSpec> load_jobs(const std::string& path, const sysc::SystemConfig& cfg);
std::uint64_t jobs_max_bytes(const std::vector<JobSpec>& jobs);

struct JobResult {
  std::string name;
  int nodes = 0;
  std::uint64_t cycles_together = 0, cycles_alone = 0;
  double slowdown = 0;            // together / alone - 1
  std::uint64_t checked = 0, wrong = 0;
  bool ok = false;
  std::vector<std::string> errors;
  nlohmann::json json() const;
};

// Called before each of the jobs.size() + 1 runs with what runs next ("A alone", "all together"),
// its index and the number of runs (for a progress display).
using JobStageHook = std::function<void(const std::string& what, std::size_t index, std::size_t runs)>;

// Runs each job alone, then all together, on `session`'s system; checks every job's result.
std::vector<JobResult> run_jobs(CollectiveSession& session, const std::vector<JobSpec>& jobs,
                                const JobStageHook& on_stage = {});

}  // namespace hxemu::sw
