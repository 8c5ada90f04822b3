#include "sw/jobs/training_job.h"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sw/collectives/reference.h"

namespace hxemu::sw {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::invalid_argument("jobs: " + where + ": " + what);
}

std::uint64_t get_u(const json& j, const std::string& where, const char* key, std::uint64_t lo,
                    std::uint64_t hi, std::uint64_t dflt, bool required) {
  if (!j.contains(key)) {
    if (required) bad(where + "." + key, "is required");
    return dflt;
  }
  const json& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi) {
    bad(where + "." + key, "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                               ", got " + v.dump());
  }
  return v.get<std::uint64_t>();
}

// The job's accelerators as a communicator grid (rank = row * cols + col).
Communicator job_grid(const sysc::System& sys, const JobSpec& j) {
  const auto& c = sys.config();
  Communicator g;
  g.name = j.name;
  g.rows = j.board_rows * c.board_rows;
  g.cols = j.board_cols * c.board_cols;
  const int r0 = j.board_row * c.board_rows, c0 = j.board_col * c.board_cols;
  for (int r = 0; r < g.rows; ++r) {
    for (int k = 0; k < g.cols; ++k) g.nodes.push_back(sys.node_at_global(r0 + r, c0 + k));
  }
  return g;
}

std::vector<Communicator> rows_of(const Communicator& g) {
  std::vector<Communicator> out;
  for (int r = 0; r < g.rows; ++r) {
    Communicator c;
    c.name = g.name + ".row" + std::to_string(r);
    c.rows = 1;
    c.cols = g.cols;
    for (int k = 0; k < g.cols; ++k) c.nodes.push_back(g.at(r, k));
    out.push_back(c);
  }
  return out;
}

std::vector<Communicator> cols_of(const Communicator& g) {
  std::vector<Communicator> out;
  for (int k = 0; k < g.cols; ++k) {
    Communicator c;
    c.name = g.name + ".col" + std::to_string(k);
    c.rows = g.rows;
    c.cols = 1;
    for (int r = 0; r < g.rows; ++r) c.nodes.push_back(g.at(r, k));
    out.push_back(c);
  }
  return out;
}

// Appends job `j`'s steps to `b`: per step TP along rows (scratch bank 0), a gate, DP along
// columns (bank 1), a gate.
void build_job(ScheduleBuilder& b, const Communicator& g, const JobSpec& j) {
  auto gate_all = [&]() {
    for (int node : g.nodes) {
      Program& p = b.at(node);
      p.set_gate(-1);
      std::vector<int> all;
      for (int i = 0; i < p.size(); ++i) all.push_back(i);
      p.set_gate(p.join(all));
    }
  };
  for (int s = 0; s < j.steps; ++s) {
    if (j.tp_bytes > 0 && g.cols > 1) {
      BuildOptions o;
      o.count = j.tp_bytes / 4;
      o.bank = 0;
      build_collective(b, CollectiveOp::kAllreduce, j.tp_algo, rows_of(g), o);
      gate_all();
    }
    if (j.dp_bytes > 0 && g.rows > 1) {
      BuildOptions o;
      o.count = j.dp_bytes / 4;
      o.bank = 1;
      build_collective(b, CollectiveOp::kAllreduce, j.dp_algo, cols_of(g), o);
      gate_all();
    }
  }
  for (int node : g.nodes) b.at(node).set_gate(-1);
}

// What every node of the job holds after its steps: per element, the row sums then the column
// sums, step after step (int32 arithmetic wraps, as the hosts' does).
void check_job(CollectiveSession& session, const Communicator& g, const JobSpec& j, const DataSpec& d,
               const BufferLayout& l, JobResult& res) {
  const std::uint64_t count = std::max(j.tp_bytes, j.dp_bytes) / 4;
  std::vector<std::uint32_t> v(g.nodes.size()), tmp(g.nodes.size());
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::size_t k = 0; k < g.nodes.size(); ++k) v[k] = input_word(d, g.nodes[k], i);
    for (int s = 0; s < j.steps; ++s) {
      if (i < j.tp_bytes / 4 && g.cols > 1) {
        for (int r = 0; r < g.rows; ++r) {
          std::uint32_t sum = 0;
          for (int c = 0; c < g.cols; ++c) sum += v[r * g.cols + c];
          for (int c = 0; c < g.cols; ++c) v[r * g.cols + c] = sum;
        }
      }
      if (i < j.dp_bytes / 4 && g.rows > 1) {
        for (int c = 0; c < g.cols; ++c) {
          std::uint32_t sum = 0;
          for (int r = 0; r < g.rows; ++r) sum += v[r * g.cols + c];
          for (int r = 0; r < g.rows; ++r) v[r * g.cols + c] = sum;
        }
      }
    }
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
      std::uint32_t got;
      session.memory(g.nodes[k]).read(l.data + static_cast<std::uint32_t>(4 * i), &got, 4);
      ++res.checked;
      if (got != v[k] && res.wrong++ == 0) {
        std::ostringstream os;
        os << "job " << j.name << ": node " << g.nodes[k] << " element " << i << " is 0x" << std::hex
           << got << ", expected 0x" << v[k];
        res.errors.push_back(os.str());
      }
    }
  }
  (void)tmp;
}

}  // namespace

std::uint64_t jobs_max_bytes(const std::vector<JobSpec>& jobs) {
  std::uint64_t m = 4;
  for (const auto& j : jobs) m = std::max({m, j.tp_bytes, j.dp_bytes});
  return m;
}

std::vector<JobSpec> parse_jobs(const std::string& text, const std::string& source,
                                const sysc::SystemConfig& cfg) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(source + ": malformed JSON: " + e.what());
  }
  if (!root.is_object() || !root.contains("jobs") || !root.at("jobs").is_array() || root.at("jobs").empty()) {
    bad("jobs", "must be a non-empty array of jobs");
  }
  if (cfg.topology == sysc::Topology::kFatTree) bad("jobs", "jobs are placed on boards: the fat tree has none");
  for (const auto& [k, v] : root.items()) {
    (void)v;
    if (k != "jobs" && k != "comment") bad(k, "unknown key (allowed: jobs, comment)");
  }
  std::vector<JobSpec> out;
  std::set<std::pair<int, int>> used;
  std::set<std::string> names;
  int index = 0;
  for (const auto& jj : root.at("jobs")) {
    const std::string where = "jobs[" + std::to_string(index++) + "]";
    if (!jj.is_object()) bad(where, "must be an object");
    for (const auto& [k, v] : jj.items()) {
      (void)v;
      static const std::set<std::string> kKeys{"name", "boards", "steps", "tp_bytes", "dp_bytes", "tp_algo", "dp_algo"};
      if (!kKeys.count(k)) bad(where + "." + k, "unknown key (allowed: name, boards, steps, tp_bytes, dp_bytes, tp_algo, dp_algo)");
    }
    JobSpec j;
    j.name = jj.value("name", "job" + std::to_string(index - 1));
    if (!names.insert(j.name).second) bad(where + ".name", "'" + j.name + "' is used twice");
    if (!jj.contains("boards") || !jj.at("boards").is_array() || jj.at("boards").size() != 4) {
      bad(where + ".boards", "must be [R0, C0, H, W]: top-left board and size in boards");
    }
    std::vector<int> bd;
    for (const auto& x : jj.at("boards")) {
      if (!x.is_number_unsigned()) bad(where + ".boards", "must hold non-negative integers");
      bd.push_back(x.get<int>());
    }
    j.board_row = bd[0];
    j.board_col = bd[1];
    j.board_rows = bd[2];
    j.board_cols = bd[3];
    if (j.board_rows < 1 || j.board_cols < 1 || j.board_row + j.board_rows > cfg.grid_rows ||
        j.board_col + j.board_cols > cfg.grid_cols) {
      bad(where + ".boards", "boards rows " + std::to_string(j.board_row) + ".." +
                                 std::to_string(j.board_row + j.board_rows - 1) + " x columns " +
                                 std::to_string(j.board_col) + ".." + std::to_string(j.board_col + j.board_cols - 1) +
                                 " do not fit the " + std::to_string(cfg.grid_rows) + "x" +
                                 std::to_string(cfg.grid_cols) + " grid");
    }
    for (int r = j.board_row; r < j.board_row + j.board_rows; ++r) {
      for (int c = j.board_col; c < j.board_col + j.board_cols; ++c) {
        if (!used.insert({r, c}).second) {
          bad(where + ".boards", "board (" + std::to_string(r) + ", " + std::to_string(c) + ") already belongs to another job");
        }
      }
    }
    j.steps = static_cast<int>(get_u(jj, where, "steps", 1, 1000, 1, false));
    j.tp_bytes = get_u(jj, where, "tp_bytes", 0, 1ull << 28, 0, true);
    j.dp_bytes = get_u(jj, where, "dp_bytes", 0, 1ull << 28, 0, true);
    if (j.tp_bytes % 4 || j.dp_bytes % 4) bad(where, "tp_bytes and dp_bytes must be multiples of 4");
    j.tp_algo = jj.value("tp_algo", "biring");
    j.dp_algo = jj.value("dp_algo", "biring");
    for (const auto* a : {&j.tp_algo, &j.dp_algo}) {
      if (*a != "ring" && *a != "biring" && *a != "halving-doubling") {
        bad(where, "tp_algo/dp_algo '" + *a + "': allowed along rows and columns: ring, biring, halving-doubling");
      }
    }
    out.push_back(j);
  }
  return out;
}

std::vector<JobSpec> load_jobs(const std::string& path, const sysc::SystemConfig& cfg) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read jobs file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_jobs(ss.str(), path, cfg);
}

std::vector<JobResult> run_jobs(CollectiveSession& session, const std::vector<JobSpec>& jobs,
                                const JobStageHook& on_stage) {
  auto& sys = session.system();
  std::vector<Communicator> grids;
  for (const auto& j : jobs) grids.push_back(job_grid(sys, j));
  const BufferLayout l = BufferLayout::for_bytes(jobs_max_bytes(jobs));
  DataSpec d;
  d.type = DataType::kInt32;
  d.seed = 77;
  auto write_inputs_for = [&](std::size_t k) {
    const std::uint64_t count = std::max(jobs[k].tp_bytes, jobs[k].dp_bytes) / 4;
    for (int node : grids[k].nodes) {
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint32_t w = input_word(d, node, i);
        session.memory(node).write(l.data + static_cast<std::uint32_t>(4 * i), &w, 4);
      }
    }
  };
  std::vector<JobResult> res(jobs.size());
  // Alone: one job on the otherwise idle machine.
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    res[k].name = jobs[k].name;
    res[k].nodes = grids[k].size();
    write_inputs_for(k);
    ScheduleBuilder b(sys.nodes(), l);
    build_job(b, grids[k], jobs[k]);
    if (on_stage) on_stage(jobs[k].name + " alone", k, jobs.size() + 1);
    const auto finish = session.execute(b, res[k].errors);
    for (int node : grids[k].nodes) res[k].cycles_alone = std::max(res[k].cycles_alone, finish[node]);
    check_job(session, grids[k], jobs[k], d, l, res[k]);
  }
  // Together.
  ScheduleBuilder b(sys.nodes(), l);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    write_inputs_for(k);
    build_job(b, grids[k], jobs[k]);
  }
  std::vector<std::string> errors;
  if (on_stage) on_stage("all together", jobs.size(), jobs.size() + 1);
  const auto finish = session.execute(b, errors);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    for (int node : grids[k].nodes) res[k].cycles_together = std::max(res[k].cycles_together, finish[node]);
    check_job(session, grids[k], jobs[k], d, l, res[k]);
    res[k].errors.insert(res[k].errors.end(), errors.begin(), errors.end());
    res[k].slowdown = res[k].cycles_alone
                          ? static_cast<double>(res[k].cycles_together) / static_cast<double>(res[k].cycles_alone) - 1
                          : 0;
    res[k].ok = res[k].errors.empty();
  }
  return res;
}

nlohmann::json JobResult::json() const {
  return {{"name", name}, {"nodes", nodes}, {"cycles_together", cycles_together},
          {"cycles_alone", cycles_alone}, {"slowdown", slowdown}, {"checked", checked},
          {"wrong", wrong}, {"ok", ok}, {"errors", errors}};
}

}  // namespace hxemu::sw
