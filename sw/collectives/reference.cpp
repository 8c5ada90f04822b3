#include "sw/collectives/reference.h"

#include <cstring>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sysc/dist/ranks.h"

namespace hxemu::sw {

namespace {

std::uint32_t mix(std::uint64_t seed, std::uint64_t node, std::uint64_t i) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ node * 0xBF58476D1CE4E5B9ull ^ (i + 1) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return static_cast<std::uint32_t>(x);
}

// The input element i of `node`, as raw 32 bits.
std::uint32_t input_bits(const DataSpec& d, int node, std::uint64_t i) {
  const std::uint32_t h = mix(d.seed, static_cast<std::uint64_t>(node), i);
  if (d.type == DataType::kInt32) {
    const std::int32_t v = static_cast<std::int32_t>(h & 0xffffu) - 32768;
    return static_cast<std::uint32_t>(v);
  }
  const float f = static_cast<float>(static_cast<int>(h & 0xfffu) - 2048) / 16.0f;
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::uint32_t add_bits(const DataSpec& d, std::uint32_t a, std::uint32_t b) {
  if (d.type == DataType::kInt32) return a + b;
  float x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  const float z = x + y;
  std::uint32_t out;
  std::memcpy(&out, &z, 4);
  return out;
}

constexpr std::uint32_t kPoison = 0xDEADBEEFu;   // where a result must overwrite

// The ops whose result is a sum over the members (reduced_reference).
bool reduces(CollectiveOp op) { return op == CollectiveOp::kAllreduce || op == CollectiveOp::kReduceScatter; }

void put_word(sysc::HostMemory& m, std::uint32_t addr, std::uint32_t v) { m.write(addr, &v, 4); }
std::uint32_t get_word(const sysc::HostMemory& m, std::uint32_t addr) {
  std::uint32_t v;
  m.read(addr, &v, 4);
  return v;
}

}  // namespace

std::uint32_t input_word(const DataSpec& d, int node, std::uint64_t i) { return input_bits(d, node, i); }

std::vector<std::uint32_t> reduced_reference(const DataSpec& d, const Communicator& c) {
  if (!reduces(d.op) || c.size() == 0) return {};
  // Member after member, each element's sum taken in rank order (float32 sums are exact: see the
  // header), one pass over the members' inputs.
  std::vector<std::uint32_t> acc(d.count);
  for (std::uint64_t i = 0; i < d.count; ++i) acc[i] = input_bits(d, c.nodes[0], i);
  for (int k = 1; k < c.size(); ++k) {
    for (std::uint64_t i = 0; i < d.count; ++i) acc[i] = add_bits(d, acc[i], input_bits(d, c.nodes[k], i));
  }
  return acc;
}

std::uint32_t alltoall_stride_bytes(std::uint64_t count, int n) {
  return static_cast<std::uint32_t>((count + static_cast<std::uint64_t>(n) - 1) / static_cast<std::uint64_t>(n) * 4);
}

void write_inputs(sysc::HostMemory& mem, const BufferLayout& l, const DataSpec& d,
                  const Communicator& c, int rank) {
  const int node = c.nodes[rank];
  const int n = c.size();
  const auto blk = split_elems(0, d.count, n);
  for (std::uint64_t i = 0; i < d.count; ++i) {
    std::uint32_t v = input_bits(d, node, i);
    switch (d.op) {
      case CollectiveOp::kAllgather: {
        const std::uint64_t a = blk[rank].offset / 4, e = a + blk[rank].len / 4;
        if (i < a || i >= e) v = kPoison;
        break;
      }
      case CollectiveOp::kBroadcast:
        if (rank != d.root) v = kPoison;
        break;
      case CollectiveOp::kSendRecv:
        if (rank != 0) v = kPoison;
        break;
      default:
        break;
    }
    put_word(mem, l.data + static_cast<std::uint32_t>(4 * i), v);
  }
  if (d.op == CollectiveOp::kAlltoall) {
    const std::uint32_t span = alltoall_stride_bytes(d.count, n) * static_cast<std::uint32_t>(n);
    for (std::uint32_t off = 0; off < span; off += 4) put_word(mem, l.scratch + off, kPoison);
  }
}

void merge_ranks(CheckResult& r) {
  if (!sysc::Ranks::distributed()) return;
  std::vector<std::uint64_t> counts = {r.checked, r.wrong};
  sysc::Ranks::sum(counts);
  r.checked = counts[0];
  r.wrong = counts[1];
  const std::string mine = r.first_wrong;
  r.first_wrong.clear();
  for (const auto& w : sysc::Ranks::all_gather(mine)) {
    if (!w.empty()) {
      r.first_wrong = w;
      break;
    }
  }
}

void check_result(const sysc::HostMemory& mem, const BufferLayout& l, const DataSpec& d,
                  const Communicator& c, int rank, const std::vector<std::uint32_t>& reduced,
                  CheckResult& r) {
  if (reduces(d.op) && reduced.size() != d.count) {
    throw std::invalid_argument("check_result: the reduced reference has " + std::to_string(reduced.size()) +
                                " elements, the collective " + std::to_string(d.count) +
                                " (reduced_reference of the same DataSpec and Communicator)");
  }
  const int n = c.size();
  const auto blk = split_elems(0, d.count, n);
  // `what` names the element; it is built only for a wrong one (a check visits every element of
  // every member).
  auto expect = [&](std::uint32_t addr, std::uint32_t want, auto&& what) {
    ++r.checked;
    const std::uint32_t got = get_word(mem, addr);
    if (got != want) {
      if (r.wrong++ == 0) {
        std::ostringstream os;
        os << "node " << c.nodes[rank] << " (rank " << rank << "): " << what() << " is 0x" << std::hex
           << got << ", expected 0x" << want;
        r.first_wrong = os.str();
      }
    }
  };
  auto element = [](std::uint64_t i) { return [i] { return "element " + std::to_string(i); }; };
  switch (d.op) {
    case CollectiveOp::kAllreduce:
      for (std::uint64_t i = 0; i < d.count; ++i) {
        expect(l.data + static_cast<std::uint32_t>(4 * i), reduced[i], element(i));
      }
      break;
    case CollectiveOp::kReduceScatter:
      for (std::uint64_t i = blk[rank].offset / 4; i < (blk[rank].offset + blk[rank].len) / 4; ++i) {
        expect(l.data + static_cast<std::uint32_t>(4 * i), reduced[i], element(i));
      }
      break;
    case CollectiveOp::kAllgather:
      for (int b = 0; b < n; ++b) {
        for (std::uint64_t i = blk[b].offset / 4; i < (blk[b].offset + blk[b].len) / 4; ++i) {
          expect(l.data + static_cast<std::uint32_t>(4 * i), input_bits(d, c.nodes[b], i),
                 element(i));
        }
      }
      break;
    case CollectiveOp::kAlltoall: {
      const std::uint32_t stride = alltoall_stride_bytes(d.count, n);
      for (int s = 0; s < n; ++s) {
        for (std::uint64_t k = 0; k < blk[rank].len / 4; ++k) {
          expect(l.scratch + static_cast<std::uint32_t>(s) * stride + static_cast<std::uint32_t>(4 * k),
                 input_bits(d, c.nodes[s], blk[rank].offset / 4 + k),
                 [k, s] { return "element " + std::to_string(k) + " from rank " + std::to_string(s); });
        }
      }
      break;
    }
    case CollectiveOp::kBroadcast:
      for (std::uint64_t i = 0; i < d.count; ++i) {
        expect(l.data + static_cast<std::uint32_t>(4 * i), input_bits(d, c.nodes[d.root], i),
               element(i));
      }
      break;
    case CollectiveOp::kSendRecv:
      for (std::uint64_t i = 0; i < d.count; ++i) {
        expect(l.data + static_cast<std::uint32_t>(4 * i), input_bits(d, c.nodes[0], i),
               element(i));
      }
      break;
  }
}

}  // namespace hxemu::sw
