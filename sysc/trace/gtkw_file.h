// The GTKWave save file (.gtkw) of a waveform hxemu wrote: one group per traced block, holding the
// block's ports (the signals directly in its scope; its RTL hierarchy stays in the signal tree for
// the user to add), vectors in hex. Read from the FST's own hierarchy, so it names exactly what
// the file holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::sysc {

// `fst_to_read`: the finished FST file to read the hierarchy from; `fst_path`: where it will be
// (the save file's [dumpfile]); `scopes`: the blocks' scopes, dot-separated ("board0.router0");
// `time_start`: where the view starts. Throws std::runtime_error when the file cannot be read.
std::string gtkw_text(const std::string& fst_to_read, const std::string& fst_path,
                      const std::vector<std::string>& scopes, std::uint64_t time_start);

}  // namespace hxemu::sysc
