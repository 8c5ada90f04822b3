// Finding the files of one Chakra trace: `<name>.<k>.et`, one per NPU k, numbered 0..N-1.
#pragma once

#include <string>
#include <vector>

namespace hxemu::sw {

struct ChakraFileSet {
  std::string name;                 // <name>
  std::vector<std::string> files;   // files[k] = <dir>/<name>.<k>.et
};

// `prefix_or_dir`: a folder holding exactly one such set, or `<dir>/<name>`. Throws
// std::invalid_argument when there is no file, a number is missing (naming the missing file), a
// folder holds several sets (naming them), or `npus_hint` > 0 differs from the count.
ChakraFileSet find_chakra_files(const std::string& prefix_or_dir, int npus_hint);

// The path of NPU k's file for `prefix` = `<dir>/<name>` (what the generator writes).
std::string chakra_file_name(const std::string& prefix, int npu);

}  // namespace hxemu::sw
