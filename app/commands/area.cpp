#include "app/commands/area.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "sysc/util/fnv_digest.h"
#include "tb/report_io.h"

#ifndef HXEMU_SOURCE_DIR
#define HXEMU_SOURCE_DIR "."
#endif

namespace hxemu::app {

namespace fs = std::filesystem;
using nlohmann::json;

// Bumped when the recipe or the cache record changes meaning: older records are then ignored.
constexpr int kCacheFormat = 1;

std::string default_rtl_dir() { return std::string(HXEMU_SOURCE_DIR) + "/rtl"; }

std::string default_area_cache_dir() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v && *v ? v : "";
  };
  if (const auto d = env("HXEMU_AREA_CACHE"); !d.empty()) return d;
  if (const auto d = env("XDG_CACHE_HOME"); !d.empty()) return d + "/hxemu/area";
  if (const auto d = env("HOME"); !d.empty()) return d + "/.cache/hxemu/area";
  return "";   // no cache
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// An executable named `name` in a folder of PATH, or "".
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const std::string p = dir + "/" + name;
    if (::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p)) return p;
  }
  return "";
}

struct ToolRun {
  int status = -1;   // exit status; -1 killed or not started
  bool timed_out = false;
  double seconds = 0;
};

// Runs argv[0] with stdout and stderr into `out_path`; kills it after `timeout_s` seconds (0: no
// limit). It dies with us (PR_SET_PDEATHSIG): a killed hxemu leaves no Yosys running.
// `max_bytes` (0: none) caps its address space, so a design point too large for the machine fails
// in Yosys instead of pushing other processes out of memory.
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& out_path, int timeout_s,
                 std::uint64_t max_bytes, const std::function<void(double)>& tick) {
  ToolRun r;
  const auto start = std::chrono::steady_clock::now();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (max_bytes > 0) {
      const rlimit rl{static_cast<rlim_t>(max_bytes), static_cast<rlim_t>(max_bytes)};
      ::setrlimit(RLIMIT_AS, &rl);
    }
    const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double next_tick = 60;
  while (true) {
    int st = 0;
    const pid_t w = ::waitpid(pid, &st, WNOHANG);
    if (w == pid) {
      r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      break;
    }
    if (w < 0) break;
    if (timeout_s > 0 && elapsed() > timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      r.timed_out = true;
      break;
    }
    if (tick && elapsed() >= next_tick) {
      tick(elapsed());
      next_tick += 60;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  r.seconds = elapsed();
  return r;
}

// The last `lines` lines of `text`.
std::string tail_lines(const std::string& text, int lines) {
  std::size_t pos = text.size();
  for (int n = 0; n <= lines && pos > 0; ++n) {
    const auto p = text.rfind('\n', pos - 1);
    if (p == std::string::npos) return text;
    pos = p;
  }
  return text.substr(pos + 1);
}

// A temporary folder, removed with its contents.
struct WorkDir {
  std::string path;
  WorkDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/hxemu-area.XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("area: cannot create a temporary folder in " + tmpl);
    path = tmpl;
  }
  ~WorkDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

SynthResult parse_yosys_stat(const std::string& log) {
  // The statistics of our own `stat -top` come last; with blocks kept apart (see recipe()) the
  // whole design's figures are in its "design hierarchy" part.
  auto start = log.rfind("Printing statistics");
  if (start == std::string::npos) throw std::runtime_error("Yosys printed no statistics");
  if (const auto h = log.find("=== design hierarchy ===", start); h != std::string::npos) start = h;
  const auto cells_at = log.find("Number of cells:", start);
  if (cells_at == std::string::npos) throw std::runtime_error("Yosys printed no cell count");
  SynthResult r;
  std::istringstream in(log.substr(cells_at));
  std::string line;
  std::getline(in, line);
  r.cells = std::stoll(line.substr(line.find(':') + 1));
  // Then one "  $_TYPE_   N" line per cell type, up to the first line that is not one.
  static const std::regex type_line(R"(^\s+(\$\S+)\s+(\d+)\s*$)");
  std::smatch m;
  long long sum = 0;
  while (std::getline(in, line) && std::regex_match(line, m, type_line)) {
    const long long n = std::stoll(m[2].str());
    r.cell_types[m[1].str()] += n;
    sum += n;
    if (m[1].str().find("DFF") != std::string::npos) r.flip_flops += n;
  }
  if (sum != r.cells) {
    throw std::runtime_error(fmt::format("Yosys statistics: {} cells listed by type, {} in all", sum, r.cells));
  }
  return r;
}

AreaSynthesizer::AreaSynthesizer(AreaOptions o) : opt_(std::move(o)) {
  if (opt_.rtl_dir.empty()) opt_.rtl_dir = default_rtl_dir();
  if (opt_.cache_dir.empty()) opt_.cache_dir = default_area_cache_dir();
  // The RTL digest: every source and include file, by path relative to the folder and content.
  std::error_code ec;
  if (!fs::is_directory(opt_.rtl_dir, ec)) {
    throw std::invalid_argument("--rtl '" + opt_.rtl_dir + "': not a folder (the RTL sources, rtl/ of the repository)");
  }
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(opt_.rtl_dir, ec)) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".sv" || ext == ".svh" || ext == ".v")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  sysc::Fnv64 h;
  for (const auto& f : files) {
    const std::string rel = fs::relative(f, opt_.rtl_dir).string();
    const std::string text = slurp(f);
    h.add(rel.size());
    h.add_bytes(reinterpret_cast<const std::uint8_t*>(rel.data()), rel.size());
    h.add(text.size());
    h.add_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    if (fs::path(f).extension() == ".sv") sources_.push_back(f);
  }
  if (sources_.empty()) throw std::invalid_argument("--rtl '" + opt_.rtl_dir + "': no *.sv files in it");
  rtl_digest_ = h.hex();

  yosys_ = find_on_path("yosys");
  if (yosys_.empty()) {
    throw SynthToolMissing("area: yosys is not installed (no 'yosys' on PATH); install it with `make deps-synth` "
                           "(scripts/install-deps.sh synth)");
  }

  WorkDir w;
  const std::string out = w.path + "/version";
  const ToolRun v = run_tool({yosys_, "-V"}, out, 60, 0, nullptr);
  yosys_version_ = slurp(out);
  while (!yosys_version_.empty() && (yosys_version_.back() == '\n' || yosys_version_.back() == '\r')) yosys_version_.pop_back();
  if (v.status != 0 || yosys_version_.empty()) throw SynthToolMissing("area: '" + yosys_ + " -V' failed; reinstall it with `make deps-synth`");
}

std::string AreaSynthesizer::recipe() const {
  // --flat: what scripts/synth.sh ran before this command existed.
  if (opt_.flat) return "hierarchy -top TOP; synth -flatten -top TOP; stat -top TOP";
  // As scripts/lint.sh elaborates, then Yosys' generic `synth`, with two differences that keep the
  // large design points within minutes and a few GB (docs/area.md has the measurements):
  // - The VC buffers (the bulk of every block: V x D flits per input port) are synthesized once and
  //   counted per instance instead of flattened into the block. They take only data and pointers
  //   from outside, so flattening would fold nothing into them; it only multiplies the work by the
  //   ports. Board router NL=1 D=8: the same flip-flops, cells within 0.06% (V=2 and V=8).
  // - No SAT-based resource sharing (-noshare): across a flattened 16-port switch's 48 route
  //   computers it ran 9 minutes into 15 GB without finishing. Its gain where it finishes: 3 of
  //   105,295 cells on the board router NL=1 V=2 D=8, 102 of 60,771 (0.17%) on a switch K=4 V=3 D=2.
  return "hierarchy -top TOP; setattr -mod -set keep_hierarchy 1 hx_vc_buffer $paramod*hx_vc_buffer; "
         "synth -noshare -flatten -top TOP; stat -top TOP";
}

std::string AreaSynthesizer::cache_path(const sysc::AreaBlock& b) const {
  sysc::Fnv64 h;
  for (const std::string& s : {b.top, b.param_text(), rtl_digest_, yosys_version_, recipe()}) {
    h.add(s.size());
    h.add_bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
  h.add(kCacheFormat);
  std::string params = b.param_text();
  std::replace(params.begin(), params.end(), ' ', '_');
  return opt_.cache_dir + "/" + b.top + "_" + params + "_" + h.hex() + ".json";
}

// A record (result or failure) holds the key in full, not only its digest in the file name.
bool AreaSynthesizer::same_key(const json& j, const sysc::AreaBlock& b) const {
  return j.at("format") == kCacheFormat && j.at("top") == b.top && j.at("params") == b.param_text() &&
         j.at("rtl_digest") == rtl_digest_ && j.at("yosys") == yosys_version_ && j.at("recipe") == recipe();
}

bool AreaSynthesizer::read_cache(const sysc::AreaBlock& b, SynthResult& r) const {
  if (opt_.cache_dir.empty()) return false;
  const std::string text = slurp(cache_path(b));
  if (text.empty()) return false;
  try {
    const json j = json::parse(text);
    if (!same_key(j, b)) return false;
    r.cells = j.at("cells").get<long long>();
    r.flip_flops = j.at("flip_flops").get<long long>();
    r.cell_types = j.at("cell_types").get<std::map<std::string, long long>>();
    r.seconds = j.at("seconds").get<double>();
    r.cached = true;
    return true;
  } catch (const json::exception&) {
    return false;   // a damaged record: synthesize again and replace it
  }
}

void AreaSynthesizer::write_cache(const sysc::AreaBlock& b, const SynthResult& r) const {
  if (opt_.cache_dir.empty()) return;
  json j = {{"format", kCacheFormat}, {"top", b.top}, {"params", b.param_text()}, {"rtl_digest", rtl_digest_},
            {"yosys", yosys_version_}, {"recipe", recipe()}, {"cells", r.cells}, {"flip_flops", r.flip_flops},
            {"cell_types", r.cell_types}, {"seconds", r.seconds}};
  std::error_code ec;
  fs::create_directories(opt_.cache_dir, ec);
  try {
    tb::write_file_atomic(cache_path(b), j.dump(2) + "\n");
  } catch (const std::exception& e) {
    // The figures are right either way; only the next run is slower.
    if (opt_.progress) opt_.progress(fmt::format("area: warning: not cached ({})", e.what()));
  }
}

SynthResult AreaSynthesizer::run_yosys(const sysc::AreaBlock& b) const {
  WorkDir w;
  std::string script = "read_verilog -sv -I" + opt_.rtl_dir + "/common";
  for (const auto& s : sources_) script += " " + s;
  script += "\nchparam";
  for (const auto& [name, value] : b.params) script += fmt::format(" -set {} {}", name, value);
  script += " " + b.top + "\n";
  std::string steps = recipe();
  for (std::size_t p; (p = steps.find("TOP")) != std::string::npos;) steps.replace(p, 3, b.top);
  std::replace(steps.begin(), steps.end(), ';', '\n');
  script += steps + "\n";
  std::ofstream(w.path + "/synth.ys") << script;

  const std::string what = b.top + " " + b.param_text();
  const ToolRun t = run_tool({yosys_, "-q", "-l", w.path + "/yosys.log", "-s", w.path + "/synth.ys"},
                             w.path + "/out", opt_.timeout_s, opt_.max_memory, [&](double s) {
                               if (opt_.progress) opt_.progress(fmt::format("area:   {}: still synthesizing, {:.0f} s", what, s));
                             });
  const std::string log = slurp(w.path + "/yosys.log");
  if (t.timed_out) {
    const std::string message =
        fmt::format("area: Yosys did not finish {} within {} s ({}); no figures cached", what, opt_.timeout_s,
                    opt_.timeout_option);
    write_failure(b, "timeout", t.seconds, message);
    throw std::runtime_error(message);
  }
  if (t.status != 0) {
    // With -q Yosys prints only warnings and the error; the log's end says where it stopped.
    const std::string out = slurp(w.path + "/out");
    const bool memory = out.find("bad_alloc") != std::string::npos || out.find("out of memory") != std::string::npos;
    if (memory) {
      const std::string message = fmt::format(
          "area: Yosys ran out of memory on {} after {:.0f} s, within the {:.1f} GiB of {}; no figures cached",
          what, t.seconds, static_cast<double>(opt_.max_memory) / (1 << 30), opt_.memory_option);
      write_failure(b, "memory", t.seconds, message);
      throw std::runtime_error(message);
    }
    throw std::runtime_error(fmt::format("area: Yosys failed on {} (exit status {}); the end of its output:\n{}{}",
                                         what, t.status, tail_lines(out, 5), tail_lines(log, 5)));
  }
  SynthResult r;
  try {
    r = parse_yosys_stat(log);
  } catch (const std::exception& e) {
    throw std::runtime_error("area: " + what + ": " + e.what());
  }
  r.seconds = t.seconds;
  return r;
}

namespace {
// The failure record sits beside the block's cache entry (".json"), under the same key.
std::string failure_path(const std::string& cache_path) {
  return cache_path.substr(0, cache_path.size() - 5) + ".failed.json";
}
}  // namespace

void AreaSynthesizer::write_failure(const sysc::AreaBlock& b, const std::string& kind, double seconds,
                                    const std::string& message) const {
  if (opt_.cache_dir.empty()) return;
  json j = {{"format", kCacheFormat}, {"top", b.top}, {"params", b.param_text()}, {"rtl_digest", rtl_digest_},
            {"yosys", yosys_version_}, {"recipe", recipe()}, {"failure", kind}, {"timeout_s", opt_.timeout_s},
            {"max_memory", opt_.max_memory}, {"seconds", seconds}, {"message", message}};
  std::error_code ec;
  fs::create_directories(opt_.cache_dir, ec);
  try {
    tb::write_file_atomic(failure_path(cache_path(b)), j.dump(2) + "\n");
  } catch (const std::exception&) {
    // Only a later run's time is at stake.
  }
}

bool AreaSynthesizer::read_failure(const sysc::AreaBlock& b, std::string& message) const {
  if (opt_.cache_dir.empty()) return false;
  const std::string text = slurp(failure_path(cache_path(b)));
  if (text.empty()) return false;
  try {
    const json j = json::parse(text);
    if (!same_key(j, b)) return false;
    // It fails again only within the same or tighter limits: no more time (timeout), no more
    // memory (out of memory; a run that was still going when killed gains nothing from memory).
    const std::string kind = j.at("failure");
    const int t = j.at("timeout_s");
    const std::uint64_t m = j.at("max_memory");
    const bool again = kind == "timeout" ? t > 0 && opt_.timeout_s > 0 && opt_.timeout_s <= t
                                         : m > 0 && opt_.max_memory > 0 && opt_.max_memory <= m;
    if (!again) return false;
    message = j.at("message").get<std::string>() + " (recorded by an earlier run with these limits or larger; "
              "not tried again; --area-retry tries)";
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

SynthResult AreaSynthesizer::synthesize(const sysc::AreaBlock& b) {
  SynthResult r;
  if (!opt_.refresh && read_cache(b, r)) return r;
  if (!opt_.refresh && opt_.reuse_failures) {
    if (std::string message; read_failure(b, message)) throw std::runtime_error(message);
  }
  if (opt_.progress) opt_.progress(fmt::format("area: synthesizing {} {} ...", b.top, b.param_text()));
  r = run_yosys(b);
  if (opt_.progress) {
    opt_.progress(fmt::format("area:   {} cells, {} flip-flops in {:.1f} s", r.cells, r.flip_flops, r.seconds));
  }
  write_cache(b, r);
  return r;
}

bool AreaReport::complete() const {
  return std::all_of(blocks.begin(), blocks.end(), [](const BlockArea& b) { return b.error.empty(); });
}

json AreaReport::json() const {
  nlohmann::json j;
  j["blocks"] = nlohmann::json::array();
  for (const auto& ba : blocks) {
    const auto& b = ba.block;
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, value] : b.params) params[name] = value;
    nlohmann::json bj = {{"role", b.role}, {"top", b.top}, {"params", params}, {"param_text", b.param_text()},
                         {"count", b.count}};
    if (!b.note.empty()) bj["note"] = b.note;
    if (!b.emulated_as.empty()) bj["emulated_as"] = b.emulated_as;
    if (synthesized && !ba.error.empty()) {
      bj["error"] = ba.error;
    } else if (synthesized) {
      const auto& r = ba.result;
      bj["cells"] = r.cells;
      bj["flip_flops"] = r.flip_flops;
      bj["cells_x_count"] = r.cells * b.count;
      bj["flip_flops_x_count"] = r.flip_flops * b.count;
      bj["cell_types"] = r.cell_types;
      bj["cached"] = r.cached;
      bj["synthesis_seconds"] = r.seconds;
    }
    j["blocks"].push_back(bj);
  }
  j["total"] = {{"blocks", total_blocks}};
  if (synthesized) {
    j["total"]["cells"] = total_cells;
    j["total"]["flip_flops"] = total_flip_flops;
    j["total"]["complete"] = complete();   // false: the blocks that failed are not in the sums
  }
  return j;
}

AreaReport measure_area(const sysc::AreaPlan& plan, AreaSynthesizer* synth) {
  AreaReport rep;
  rep.rails = plan.rails;
  rep.synthesized = synth != nullptr;
  for (std::size_t i = 0; i < plan.blocks.size(); ++i) {
    BlockArea ba;
    ba.block = plan.blocks[i];
    rep.total_blocks += ba.block.count;
    if (synth) {
      // Blocks with the same top and parameters are one synthesis: the second comes from the
      // first (from the cache too, but also when not caching, and when the first failed).
      bool same = false;
      for (std::size_t k = 0; k < i && !same; ++k) {
        if (plan.blocks[k].top == ba.block.top && plan.blocks[k].params == ba.block.params) {
          ba.result = rep.blocks[k].result;
          ba.error = rep.blocks[k].error;
          same = true;
        }
      }
      if (!same) {
        try {
          ba.result = synth->synthesize(ba.block);
        } catch (const std::runtime_error& e) {
          ba.error = e.what();
        }
      }
      if (ba.error.empty()) {
        rep.total_cells += ba.result.cells * ba.block.count;
        rep.total_flip_flops += ba.result.flip_flops * ba.block.count;
      }
    }
    rep.blocks.push_back(std::move(ba));
  }
  return rep;
}

double default_max_memory_gib() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0
             ? std::max(1.0, std::floor(static_cast<double>(pages) * static_cast<double>(page) / 2 / (1ull << 30)))
             : 0;
}

}  // namespace hxemu::app
