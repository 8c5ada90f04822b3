// What `hxemu area` runs (docs/area.md): Yosys generic synthesis of each distinct block of a design
// point (sysc/system/area_model.h), its cell and flip-flop counts, and a cache of them keyed by the
// block's top and parameters, a digest of the RTL sources, the Yosys version and the recipe -- so a
// repeated run starts no Yosys and any change to the RTL synthesizes again.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sysc/system/area_model.h"

namespace hxemu::app {

// Yosys is not installed: bad input in the sense of the command line (exit status 2), with what to
// run to install it.
class SynthToolMissing : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct SynthResult {
  long long cells = 0;        // Yosys generic cells: gates, multiplexers and flip-flops
  long long flip_flops = 0;   // of those, flip-flops (cell types with DFF in their name)
  std::map<std::string, long long> cell_types;
  double seconds = 0;         // wall time of the Yosys run that produced it (cached: that run's)
  bool cached = false;        // read from the cache, no Yosys run
};

struct AreaOptions {
  std::string rtl_dir;       // the RTL sources (*.sv under it, includes in its common/); "" default
  std::string cache_dir;     // "" default: $HXEMU_AREA_CACHE, $XDG_CACHE_HOME/hxemu/area, ~/.cache/hxemu/area
  int timeout_s = 3600;      // per Yosys run; 0 = none
  std::uint64_t max_memory = 0;   // bytes of address space per Yosys run; 0 = no limit
  // The command line options that set the two limits, as messages name them.
  std::string timeout_option = "--timeout", memory_option = "--max-memory";
  bool refresh = false;      // synthesize even when the cache has the block
  bool flat = false;         // flatten everything (slower; see recipe())
  // A block that ran out of time or memory is recorded in the cache; with this set, a later run
  // whose limits are no larger reports that failure again instead of spending its time on it
  // (hxemu signoff; hxemu area always tries again).
  bool reuse_failures = false;
  std::function<void(const std::string&)> progress;   // progress lines (stderr)
};

// The RTL folder of the source tree this binary was built from.
std::string default_rtl_dir();
// $HXEMU_AREA_CACHE, else $XDG_CACHE_HOME/hxemu/area, else $HOME/.cache/hxemu/area.
std::string default_area_cache_dir();

class AreaSynthesizer {
 public:
  // Finds yosys on PATH (SynthToolMissing if absent), reads its version and digests the RTL
  // (std::invalid_argument naming --rtl when the folder holds no *.sv).
  explicit AreaSynthesizer(AreaOptions o);

  // The block's counts, from the cache or from a Yosys run (std::runtime_error naming the block,
  // with the end of Yosys' log, when Yosys fails or runs past the timeout).
  SynthResult synthesize(const sysc::AreaBlock& b);

  const std::string& yosys_version() const { return yosys_version_; }
  const std::string& rtl_digest() const { return rtl_digest_; }
  const std::string& cache_dir() const { return opt_.cache_dir; }
  const std::string& rtl_dir() const { return opt_.rtl_dir; }
  // The Yosys commands after reading the sources, with TOP for the block's top.
  std::string recipe() const;

 private:
  std::string cache_path(const sysc::AreaBlock& b) const;
  bool same_key(const nlohmann::json& j, const sysc::AreaBlock& b) const;   // throws json::exception on a damaged record
  bool read_cache(const sysc::AreaBlock& b, SynthResult& r) const;
  void write_cache(const sysc::AreaBlock& b, const SynthResult& r) const;
  SynthResult run_yosys(const sysc::AreaBlock& b) const;
  // Failures by time or memory (AreaOptions::reuse_failures): the record beside the cache entry.
  void write_failure(const sysc::AreaBlock& b, const std::string& kind, double seconds,
                     const std::string& message) const;
  bool read_failure(const sysc::AreaBlock& b, std::string& message) const;

  AreaOptions opt_;
  std::string yosys_;
  std::string yosys_version_;
  std::string rtl_digest_;
  std::vector<std::string> sources_;   // absolute paths, sorted
};

// One block of a plan and its figures: `result` when `error` is empty, else why Yosys gave none.
struct BlockArea {
  sysc::AreaBlock block;
  SynthResult result;
  std::string error;
};

// Every block of a plan with its figures, and the system's total over the blocks that synthesized.
struct AreaReport {
  int rails = 1;
  bool synthesized = false;   // false: the plan only (no Yosys run asked for)
  std::vector<BlockArea> blocks;
  long long total_blocks = 0, total_cells = 0, total_flip_flops = 0;
  bool complete() const;      // every block synthesized
  // "blocks" and "total" as `hxemu area --json` writes them.
  nlohmann::json json() const;
};

// Synthesizes each distinct block of `plan` with `synth` (blocks with the same top and parameters,
// an NPU router and a tree switch of one radix, are one synthesis); nullptr: the plan only. A
// block Yosys cannot synthesize (time, memory, an error) carries the error and leaves the other
// blocks' figures standing; the total is then partial.
AreaReport measure_area(const sysc::AreaPlan& plan, AreaSynthesizer* synth);

// The default cap on one Yosys run's address space: half the machine's memory in whole GiB (at
// least 1), so a design point too large fails in Yosys, not in the processes sharing the machine.
double default_max_memory_gib();

// Cell counts of the statistics Yosys printed last (`stat -top`: the whole hierarchy) in `log`;
// std::runtime_error when the log has none.
SynthResult parse_yosys_stat(const std::string& log);

}  // namespace hxemu::app
