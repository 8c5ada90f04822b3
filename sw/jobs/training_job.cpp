#include "sw/jobs/training_job.h"

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sw/collectives/reference.h"
#include "sysc/util/input_file.h"

namespace hxemu::sw {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::invalid_argument("jobs: " + where + ": " + what);
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
// sums, step after step (int32 arithmetic wraps, as the hosts' does). Under mpirun each rank
// checks the nodes it steps (the others' memories are another process's); the counts add up and
// the first wrong element reported is the lowest rank's.
void check_job(CollectiveSession& session, const Communicator& g, const JobSpec& j, const DataSpec& d,
               const BufferLayout& l, JobResult& res) {
  const sysc::System& sys = session.system();
  const std::uint64_t count = std::max(j.tp_bytes, j.dp_bytes) / 4;
  std::vector<std::uint32_t> v(g.nodes.size());
  CheckResult check;
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
      if (!sys.owns_node(g.nodes[k])) continue;
      std::uint32_t got;
      session.memory(g.nodes[k]).read(l.data + static_cast<std::uint32_t>(4 * i), &got, 4);
      ++check.checked;
      if (got != v[k] && check.wrong++ == 0) {
        std::ostringstream os;
        os << "job " << j.name << ": node " << g.nodes[k] << " element " << i << " is 0x" << std::hex
           << got << ", expected 0x" << v[k];
        check.first_wrong = os.str();
      }
    }
  }
  merge_ranks(check);
  const bool none_before = res.wrong == 0;
  res.checked += check.checked;
  res.wrong += check.wrong;
  if (none_before && !check.first_wrong.empty()) res.errors.push_back(check.first_wrong);
}

}  // namespace

std::uint64_t jobs_max_bytes(const std::vector<JobSpec>& jobs) {
  std::uint64_t m = 4;
  for (const auto& j : jobs) m = std::max({m, j.tp_bytes, j.dp_bytes});
  return m;
}

namespace {

// An integer field of a job: any JSON number that is not an integer in lo..hi is refused, by
// comparing in the value's own type (no narrowing first: 4294967296 must not become 0).
std::int64_t job_int(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi) {
  const std::string allowed = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  if (!v.is_number_integer()) bad(field, "must be " + allowed + ", got " + v.dump());
  const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                                           : v.get<std::int64_t>() <= hi;
  if (!fits || v.get<std::int64_t>() < lo) bad(field, "must be " + allowed + ", got " + v.dump());
  return v.get<std::int64_t>();
}

std::int64_t job_int(const json& job, const std::string& where, const char* key, std::int64_t lo,
                     std::int64_t hi, std::int64_t dflt, bool required) {
  if (!job.contains(key)) {
    if (required) {
      bad(where + "." + key, "is required (an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ")");
    }
    return dflt;
  }
  return job_int(job.at(key), where + "." + key, lo, hi);
}

std::string job_name(const json& job, const std::string& where, const std::string& dflt) {
  if (!job.contains("name")) return dflt;
  const json& v = job.at("name");
  const std::string allowed = "a string of 1 to 64 printable characters";
  if (!v.is_string()) bad(where + ".name", "must be " + allowed + ", got " + v.dump());
  const std::string n = v.get<std::string>();
  bool printable = !n.empty() && n.size() <= 64;
  for (unsigned char ch : n) printable = printable && ch >= 0x20 && ch != 0x7f;
  if (!printable) bad(where + ".name", "must be " + allowed + ", got " + v.dump());
  return n;
}

// The allreduce algorithm of tp_algo / dp_algo, checked against the communicators it runs on (the
// job's rows for tp, its columns for dp).
std::string job_algo(const json& job, const std::string& where, const char* key, const Communicator& shape,
                     const char* along) {
  const std::string field = where + "." + key;
  std::string allowed;
  for (const auto& a : algorithm_table(CollectiveOp::kAllreduce)) {
    if (!a.unsuitable(shape).empty()) continue;
    allowed += (allowed.empty() ? "" : ", ") + a.name;
    for (const auto& alias : a.aliases) allowed += " (alias " + alias + ")";
  }
  if (!job.contains(key)) return "biring";
  const json& v = job.at(key);
  if (!v.is_string()) bad(field, "must be an allreduce algorithm name (allowed along its " + std::string(along) +
                                     ": " + allowed + "), got " + v.dump());
  const std::string name = v.get<std::string>();
  const Algorithm* a = nullptr;
  try {
    a = &find_algorithm(CollectiveOp::kAllreduce, name, field);
  } catch (const std::invalid_argument&) {
    bad(field, "'" + name + "' is not an allreduce algorithm (allowed along its " + along + ": " + allowed + ")");
  }
  const std::string why = a->unsuitable(shape);
  if (!why.empty()) {
    bad(field, "'" + name + "' does not fit the job's " + along + " (" + why + "; allowed along its " + along +
                   ": " + allowed + ")");
  }
  return a->name;
}

}  // namespace

std::vector<JobSpec> parse_jobs(const std::string& text, const std::string& source,
                                const sysc::SystemConfig& cfg) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(source + ": malformed JSON: " + e.what());
  } catch (const json::exception& e) {   // e.g. a number JSON cannot hold (1e400)
    throw std::invalid_argument(source + ": " + e.what());
  }
  if (!root.is_object()) bad("(top level)", "must be an object {\"jobs\": [...]}");
  for (const auto& [k, v] : root.items()) {
    (void)v;
    if (k != "jobs" && k != "comment") bad(k, "unknown key (allowed: jobs, comment)");
  }
  if (!root.contains("jobs") || !root.at("jobs").is_array() || root.at("jobs").empty()) {
    bad("jobs", "must be a non-empty array of jobs");
  }
  if (cfg.topology == sysc::Topology::kFatTree) bad("jobs", "jobs are placed on boards: the fat tree has none");
  if (cfg.topology == sysc::Topology::kDragonfly) bad("jobs", "jobs are placed on boards: the Dragonfly has none");
  if (cfg.topology == sysc::Topology::kMultidim) bad("jobs", "jobs are placed on boards: a multidim platform has none");
  std::vector<JobSpec> out;
  std::map<std::pair<int, int>, std::string> used;   // board -> the job it belongs to
  std::set<std::string> names;
  int index = 0;
  for (const auto& jj : root.at("jobs")) {
    std::string where = "jobs[" + std::to_string(index++) + "]";
    if (!jj.is_object()) bad(where, "must be an object");
    for (const auto& [k, v] : jj.items()) {
      (void)v;
      static const std::set<std::string> kKeys{"name", "boards", "steps", "tp_bytes", "dp_bytes", "tp_algo", "dp_algo"};
      if (!kKeys.count(k)) bad(where + "." + k, "unknown key (allowed: name, boards, steps, tp_bytes, dp_bytes, tp_algo, dp_algo)");
    }
    JobSpec j;
    j.name = job_name(jj, where, "job" + std::to_string(index - 1));
    if (!names.insert(j.name).second) bad(where + ".name", "'" + j.name + "' is used twice");
    where += " (" + j.name + ")";
    const std::string bfield = where + ".boards";
    if (!jj.contains("boards") || !jj.at("boards").is_array() || jj.at("boards").size() != 4) {
      bad(bfield, "must be [R0, C0, H, W]: top-left board and size in boards, within the " +
                      std::to_string(cfg.grid_rows) + "x" + std::to_string(cfg.grid_cols) + " grid");
    }
    // Each bound depends on the ones before, so that R0 + H and C0 + W never leave the grid (and
    // nothing can overflow).
    const json& bd = jj.at("boards");
    j.board_row = static_cast<int>(job_int(bd[0], bfield + "[0] (R0)", 0, cfg.grid_rows - 1));
    j.board_col = static_cast<int>(job_int(bd[1], bfield + "[1] (C0)", 0, cfg.grid_cols - 1));
    j.board_rows = static_cast<int>(job_int(bd[2], bfield + "[2] (H)", 1, cfg.grid_rows - j.board_row));
    j.board_cols = static_cast<int>(job_int(bd[3], bfield + "[3] (W)", 1, cfg.grid_cols - j.board_col));
    for (int r = j.board_row; r < j.board_row + j.board_rows; ++r) {
      for (int c = j.board_col; c < j.board_col + j.board_cols; ++c) {
        const auto [it, fresh] = used.emplace(std::make_pair(r, c), j.name);
        if (!fresh) {
          bad(bfield, "board (" + std::to_string(r) + ", " + std::to_string(c) + ") already belongs to job " +
                          it->second);
        }
      }
    }
    j.steps = static_cast<int>(job_int(jj, where, "steps", 1, 1000, 1, false));
    j.tp_bytes = static_cast<std::uint64_t>(job_int(jj, where, "tp_bytes", 0, kMaxJobBytes, 0, true));
    j.dp_bytes = static_cast<std::uint64_t>(job_int(jj, where, "dp_bytes", 0, kMaxJobBytes, 0, true));
    if (j.tp_bytes % 4) bad(where + ".tp_bytes", "must be a multiple of 4, got " + std::to_string(j.tp_bytes));
    if (j.dp_bytes % 4) bad(where + ".dp_bytes", "must be a multiple of 4, got " + std::to_string(j.dp_bytes));
    // The shapes of the job's row and column communicators (only their shape matters here).
    Communicator row, col;
    row.cols = j.board_cols * cfg.board_cols;
    row.nodes.resize(static_cast<std::size_t>(row.cols));
    col.rows = j.board_rows * cfg.board_rows;
    col.nodes.resize(static_cast<std::size_t>(col.rows));
    j.tp_algo = job_algo(jj, where, "tp_algo", row, "rows");
    j.dp_algo = job_algo(jj, where, "dp_algo", col, "columns");
    out.push_back(j);
  }
  return out;
}

std::vector<JobSpec> load_jobs(const std::string& path, const sysc::SystemConfig& cfg) {
  return parse_jobs(sysc::read_input_file(path, "job file"), path, cfg);
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
      if (!sys.owns_node(node)) continue;   // under mpirun: another rank's node
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
