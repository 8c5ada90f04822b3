#include "sysc/host/message_assembler.h"

#include <algorithm>

namespace hxemu::sysc {

std::vector<MessageAssembler::Open>::iterator MessageAssembler::find_open(std::uint32_t k) {
  return std::lower_bound(open_.begin(), open_.end(), k,
                          [](const Open& o, std::uint32_t v) { return o.key < v; });
}

MessageAssembler::Source& MessageAssembler::source(std::uint16_t src) {
  auto it = std::lower_bound(sources_.begin(), sources_.end(), src,
                             [](const Source& s, std::uint16_t v) { return s.src < v; });
  if (it == sources_.end() || it->src != src) it = sources_.insert(it, Source{src, 0});
  return *it;
}

void MessageAssembler::add(const RxLanding& l) {
  const std::uint32_t k = key(l.src, l.seq);
  auto it = find_open(k);
  if (it == open_.end() || it->key != k) {
    it = open_.insert(it, Open{k, l.tag, l.len, 0});
    most_open_ = std::max(most_open_, open_.size());
  } else if (it->tag != l.tag || it->len != l.len) {
    if (error_.empty()) {
      error_ = "RX landing from node " + std::to_string(l.src) + " sequence " +
               std::to_string(l.seq) + " says tag " + std::to_string(l.tag) + " length " +
               std::to_string(l.len) + ", an earlier packet of it said tag " +
               std::to_string(it->tag) + " length " + std::to_string(it->len);
    }
    return;
  }
  if (l.bytes > it->len - it->landed) {
    if (error_.empty()) {
      error_ = "RX landing from node " + std::to_string(l.src) + " sequence " +
               std::to_string(l.seq) + ": a packet of " + std::to_string(l.bytes) +
               " bytes where the message has " + std::to_string(it->len - it->landed) +
               " of its " + std::to_string(it->len) + " bytes left";
    }
    return;
  }
  it->landed += l.bytes;
  if (it->landed != it->len) return;
  // Done: release it, then its done successors, while each is the one its source posted next.
  Source& s = source(l.src);
  while (true) {
    auto m = find_open(key(l.src, s.expect));
    if (m == open_.end() || m->key != key(l.src, s.expect) || m->landed != m->len) break;
    out_.push_back(RxCompletion{l.src, m->tag, m->len});
    open_.erase(m);
    ++s.expect;
  }
}

bool MessageAssembler::pop(RxCompletion& c) {
  if (out_.empty()) return false;
  c = out_.front();
  out_.pop_front();
  return true;
}

}  // namespace hxemu::sysc
