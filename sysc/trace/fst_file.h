// FstFile: one FST waveform file that several traced blocks dump into together, written beside its
// final path and moved there, with its GTKWave save file, only when finished -- so a run that stops
// early (an error, a kill) never leaves a half-written waveform under the name asked for.
//
// Compiled into hx_models_traced (it needs Verilator's FST writer); the rest of hxemu sees only
// this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class VerilatedFstC;

namespace hxemu::sysc {

class TraceTarget;

class FstFile {
 public:
  // `path`: FILE.fst; `gtkw_path`: the GTKWave save file written beside it by finish().
  FstFile(std::string path, std::string gtkw_path);
  ~FstFile();   // removes the temporary file of an unfinished trace
  FstFile(const FstFile&) = delete;
  FstFile& operator=(const FstFile&) = delete;

  // Registers every target's model, then opens the file (Verilator forbids adding models later).
  void open(const std::vector<TraceTarget*>& targets);
  // The values of every registered model now, at FST time `time` (increasing).
  void dump(std::uint64_t time);
  // Closes the file, writes the save file (one group per scope in `scopes`, each holding the
  // ports of that block, the view starting at `time_start`) and moves both into place. Throws
  // std::runtime_error naming the path when a file cannot be written.
  void finish(const std::vector<std::string>& scopes, std::uint64_t time_start);

 private:
  std::string path_, gtkw_path_, temp_;
  std::unique_ptr<VerilatedFstC> fst_;
};

}  // namespace hxemu::sysc
