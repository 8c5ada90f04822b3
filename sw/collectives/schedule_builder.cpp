#include "sw/collectives/schedule_builder.h"

#include <algorithm>
#include <stdexcept>

namespace hxemu::sw {

BufferLayout BufferLayout::for_bytes(std::uint64_t bytes) {
  constexpr std::uint64_t kAlign = 4096;
  const std::uint64_t padded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (3 * padded + kAlign > 0xFFFFFFFFull) throw std::invalid_argument("collective too large for 32-bit host addresses");
  BufferLayout l;
  l.data = 0;
  l.scratch = static_cast<std::uint32_t>(padded);
  l.scratch_bank = static_cast<std::uint32_t>(padded);
  l.bytes = static_cast<std::uint32_t>(bytes);
  l.memory_bytes = static_cast<std::uint32_t>(3 * padded + kAlign);
  return l;
}

BufferLayout BufferLayout::with_banks(std::uint64_t bytes, int banks, std::uint64_t bank_bytes) {
  constexpr std::uint64_t kAlign = 4096;
  const std::uint64_t padded = (bytes + kAlign - 1) / kAlign * kAlign;
  const std::uint64_t bank = (std::max(bank_bytes, padded) + kAlign - 1) / kAlign * kAlign;
  const std::uint64_t total = padded + static_cast<std::uint64_t>(std::max(banks, 2)) * bank + kAlign;
  if (total > 0xFFFFFFFFull) throw std::invalid_argument("collective too large for 32-bit host addresses");
  BufferLayout l;
  l.data = 0;
  l.scratch = static_cast<std::uint32_t>(padded);
  l.scratch_bank = static_cast<std::uint32_t>(bank);
  l.bytes = static_cast<std::uint32_t>(bytes);
  l.banks = static_cast<std::uint32_t>(std::max(banks, 2));
  l.memory_bytes = static_cast<std::uint32_t>(total);
  return l;
}

std::vector<Span> split_elems(std::uint64_t first, std::uint64_t count_elems, int parts) {
  std::vector<Span> out;
  const std::uint64_t base = count_elems / static_cast<std::uint64_t>(parts);
  const std::uint64_t extra = count_elems % static_cast<std::uint64_t>(parts);
  std::uint64_t at = first;
  for (int i = 0; i < parts; ++i) {
    const std::uint64_t n = base + (static_cast<std::uint64_t>(i) < extra ? 1 : 0);
    out.push_back({static_cast<std::uint32_t>(at * 4), static_cast<std::uint32_t>(n * 4)});
    at += n;
  }
  return out;
}

std::vector<Span> chunk_span(const Span& s, std::uint32_t chunk) {
  std::vector<Span> out;
  chunk = std::max<std::uint32_t>(4, chunk / 4 * 4);
  if (s.len == 0) {
    out.push_back(s);
    return out;
  }
  for (std::uint32_t off = 0; off < s.len; off += chunk) {
    out.push_back({s.offset + off, std::min(chunk, s.len - off)});
  }
  return out;
}

std::uint16_t ScheduleBuilder::next_tag(int rail, int src, int dst) {
  return tags_[{rail, src, dst}]++;
}

std::uint16_t ScheduleBuilder::reserve_tags(int rail, int src, int dst, std::uint32_t count) {
  std::uint16_t& t = tags_[{rail, src, dst}];
  const std::uint16_t first = t;
  t = static_cast<std::uint16_t>(t + count);
  return first;
}

ScheduleBuilder::Message ScheduleBuilder::send(int rail, int src, int dst, std::uint32_t from,
                                               std::uint32_t to, std::uint32_t len,
                                               std::initializer_list<int> put_deps,
                                               std::initializer_list<int> recv_deps) {
  const std::uint16_t tag = next_tag(rail, src, dst);
  Message m;
  m.put = programs_[src].put(rail, dst, from, to, len, tag, put_deps);
  m.recv = programs_[dst].recv(rail, src, tag, recv_deps);
  return m;
}

}  // namespace hxemu::sw
