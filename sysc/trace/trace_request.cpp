#include "sysc/trace/trace_request.h"

#include <stdexcept>

#include "sysc/util/parse_number.h"

namespace hxemu::sysc {

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const auto comma = s.find(',', at);
    out.push_back(s.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

void parse_cycles(const std::string& spec, TraceRequest& r) {
  const std::string form = "--trace-cycles '" + spec + "': ";
  const std::string allowed = "expected A:B, whole cycle numbers with A < B <= " +
                              std::to_string(kMaxTraceCycle) + " (cycles A .. B-1 are dumped)";
  const auto colon = spec.find(':');
  if (colon == std::string::npos) throw std::invalid_argument(form + allowed);
  const auto a = parse_uint(spec.substr(0, colon));
  const auto b = parse_uint(spec.substr(colon + 1));
  if (!a || !b || *b > kMaxTraceCycle) throw std::invalid_argument(form + allowed);
  if (*a >= *b) throw std::invalid_argument(form + "the window is empty; " + allowed);
  r.first_cycle = *a;
  r.end_cycle = *b;
}

}  // namespace

std::string gtkw_path_for(const std::string& fst_path) {
  const std::string ext = ".fst";
  if (fst_path.size() > ext.size() && fst_path.compare(fst_path.size() - ext.size(), ext.size(), ext) == 0) {
    return fst_path.substr(0, fst_path.size() - ext.size()) + ".gtkw";
  }
  return fst_path + ".gtkw";
}

TraceRequest parse_trace_request(const std::string& path, const std::string& cycles,
                                 const std::string& blocks) {
  TraceRequest r;
  if (path.empty()) {
    if (!cycles.empty()) throw std::invalid_argument("--trace-cycles needs --trace FILE.fst");
    if (!blocks.empty()) throw std::invalid_argument("--trace-blocks needs --trace FILE.fst");
    return r;
  }
  if (cycles.empty()) {
    throw std::invalid_argument("--trace needs --trace-cycles A:B (the window of cycles to dump)");
  }
  if (blocks.empty()) {
    throw std::invalid_argument("--trace needs --trace-blocks (block names or patterns, e.g. 'board0.*')");
  }
  r.path = path;
  parse_cycles(cycles, r);
  for (const std::string& p : split_commas(blocks)) {
    if (p.empty()) {
      throw std::invalid_argument("--trace-blocks '" + blocks + "': an empty pattern; expected a comma list "
                                  "of block names or glob patterns, e.g. 'board0.*,rowtree0'");
    }
    r.patterns.push_back(p);
  }
  return r;
}

}  // namespace hxemu::sysc
