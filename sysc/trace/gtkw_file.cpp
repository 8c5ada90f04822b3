#include "sysc/trace/gtkw_file.h"

#include <climits>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "gtkwave/fstapi.h"

namespace hxemu::sysc {

namespace {

struct Port {
  std::string name;   // as GTKWave names it: "in_valid_i[4:0]"
  std::uint32_t bits;
};

// The FST names a vector "in_valid_i [4:0]"; GTKWave shows (and a save file names) it without the
// space.
std::string gtkwave_name(const char* fst_name, std::uint32_t length) {
  std::string s(fst_name, length);
  const auto space = s.find(" [");
  if (space != std::string::npos) s.erase(space, 1);
  return s;
}

// Every scope's own variables, by dot-separated path.
std::map<std::string, std::vector<Port>> ports_by_scope(const std::string& fst) {
  void* ctx = fstReaderOpen(fst.c_str());
  if (!ctx) throw std::runtime_error("cannot read back the waveform '" + fst + "'");
  std::map<std::string, std::vector<Port>> out;
  std::vector<std::string> stack;
  while (const fstHier* h = fstReaderIterateHier(ctx)) {
    switch (h->htyp) {
      case FST_HT_SCOPE: {
        const std::string name(h->u.scope.name, h->u.scope.name_length);
        stack.push_back(stack.empty() ? name : stack.back() + "." + name);
        break;
      }
      case FST_HT_UPSCOPE:
        if (!stack.empty()) stack.pop_back();
        break;
      case FST_HT_VAR:
        if (!stack.empty()) {
          out[stack.back()].push_back({gtkwave_name(h->u.var.name, h->u.var.name_length), h->u.var.length});
        }
        break;
      default:
        break;
    }
  }
  fstReaderClose(ctx);
  return out;
}

// `path` made absolute through its folder (the file itself need not exist yet).
std::string absolute(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  char buf[PATH_MAX];
  if (!::realpath(folder.c_str(), buf)) return path;
  const std::string dir = buf;
  return dir == "/" ? "/" + base : dir + "/" + base;
}

}  // namespace

std::string gtkw_text(const std::string& fst_to_read, const std::string& fst_path,
                      const std::vector<std::string>& scopes, std::uint64_t time_start) {
  const auto ports = ports_by_scope(fst_to_read);
  std::string s;
  s += "[*] hxemu waveform: one group per traced block with its ports (docs/waveforms.md)\n";
  s += "[dumpfile] \"" + absolute(fst_path) + "\"\n";
  s += "[timestart] " + std::to_string(time_start) + "\n";
  s += "[size] 1600 900\n";
  s += "[pos] -1 -1\n";
  s += "[sst_expanded] 1\n";
  // Display flags (GTKWave's trace flags, in hex): 0x800200 opens a group and 0x1000200 closes it
  // (blank lines carrying the group's name), 0x28 shows a bit, 0x22 a vector in hex.
  for (const std::string& scope : scopes) {
    s += "@800200\n-" + scope + "\n";
    const char* flags = "";
    const auto it = ports.find(scope);
    if (it != ports.end()) {
      for (const Port& p : it->second) {
        const char* want = p.bits == 1 ? "@28\n" : "@22\n";
        if (want != flags) s += want;
        flags = want;
        s += scope + "." + p.name + "\n";
      }
    }
    s += "@1000200\n-" + scope + "\n";
  }
  return s;
}

}  // namespace hxemu::sysc
