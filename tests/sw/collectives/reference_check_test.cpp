// The collectives' data check (sw/collectives/reference.h) without a network: members' host
// memories filled by hand with what a correct collective leaves, then one element changed. The
// reduced reference is each element's sum over the members, computed once per communicator.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <vector>

#include "sw/collectives/reference.h"
#include "sw/collectives/schedule_builder.h"

namespace hxemu::test {
namespace {

sw::Communicator three_nodes() {
  sw::Communicator c;
  c.name = "test";
  c.nodes = {5, 2, 9};   // rank -> node, not in node order
  return c;
}

sw::DataSpec spec(sw::CollectiveOp op, sw::DataType type, std::uint64_t count) {
  sw::DataSpec d;
  d.op = op;
  d.type = type;
  d.count = count;
  d.seed = 77;
  return d;
}

std::uint32_t word_at(const sysc::HostMemory& m, std::uint32_t addr) {
  std::uint32_t v;
  m.read(addr, &v, 4);
  return v;
}

TEST(ReducedReference, IsEachElementsSumOverTheMembersInt32) {
  const auto c = three_nodes();
  const auto d = spec(sw::CollectiveOp::kAllreduce, sw::DataType::kInt32, 100);
  const auto ref = sw::reduced_reference(d, c);
  ASSERT_EQ(ref.size(), 100u);
  for (std::uint64_t i = 0; i < d.count; ++i) {
    std::int32_t sum = 0;
    for (int node : c.nodes) sum += static_cast<std::int32_t>(sw::input_word(d, node, i));
    EXPECT_EQ(ref[i], static_cast<std::uint32_t>(sum)) << "element " << i;
  }
}

TEST(ReducedReference, IsEachElementsSumOverTheMembersFloat32) {
  const auto c = three_nodes();
  const auto d = spec(sw::CollectiveOp::kReduceScatter, sw::DataType::kFloat32, 64);
  const auto ref = sw::reduced_reference(d, c);
  ASSERT_EQ(ref.size(), 64u);
  for (std::uint64_t i = 0; i < d.count; ++i) {
    float sum = 0.0f;
    for (int node : c.nodes) {
      const std::uint32_t b = sw::input_word(d, node, i);
      float f;
      std::memcpy(&f, &b, 4);
      sum += f;
    }
    float got;
    std::memcpy(&got, &ref[i], 4);
    EXPECT_EQ(got, sum) << "element " << i;
  }
}

TEST(ReducedReference, IsEmptyForOpsThatDoNotReduce) {
  const auto c = three_nodes();
  for (auto op : {sw::CollectiveOp::kAllgather, sw::CollectiveOp::kAlltoall, sw::CollectiveOp::kBroadcast,
                  sw::CollectiveOp::kSendRecv}) {
    EXPECT_TRUE(sw::reduced_reference(spec(op, sw::DataType::kInt32, 10), c).empty());
  }
}

// Every member holds the reference: all elements checked, none wrong; then rank 1's element 7 is
// off by one and the check names it.
TEST(CheckResult, AllreduceCountsEveryElementAndNamesTheFirstWrongOne) {
  const auto c = three_nodes();
  const std::uint64_t count = 33;
  const auto d = spec(sw::CollectiveOp::kAllreduce, sw::DataType::kInt32, count);
  const auto l = sw::BufferLayout::for_bytes(count * 4);
  const auto ref = sw::reduced_reference(d, c);
  std::deque<sysc::HostMemory> mem;   // (HostMemory does not move)
  for (int r = 0; r < c.size(); ++r) {
    mem.emplace_back(l.memory_bytes);
    sw::write_inputs(mem.back(), l, d, c, r);
    mem.back().write(l.data, ref.data(), ref.size() * 4);
  }
  sw::CheckResult ok;
  for (int r = 0; r < c.size(); ++r) sw::check_result(mem[r], l, d, c, r, ref, ok);
  EXPECT_EQ(ok.checked, 3 * count);
  EXPECT_EQ(ok.wrong, 0u);
  EXPECT_TRUE(ok.first_wrong.empty());

  const std::uint32_t addr = l.data + 7 * 4;
  const std::uint32_t bad = word_at(mem[1], addr) + 1;
  mem[1].write(addr, &bad, 4);
  sw::CheckResult r;
  for (int k = 0; k < c.size(); ++k) sw::check_result(mem[k], l, d, c, k, ref, r);
  EXPECT_EQ(r.checked, 3 * count);
  EXPECT_EQ(r.wrong, 1u);
  EXPECT_NE(r.first_wrong.find("node 2 (rank 1): element 7 is 0x"), std::string::npos) << r.first_wrong;
}

// Reduce-scatter: each member is checked on its own block only (33 elements over 3: 11 each).
TEST(CheckResult, ReduceScatterChecksTheMembersBlock) {
  const auto c = three_nodes();
  const auto d = spec(sw::CollectiveOp::kReduceScatter, sw::DataType::kInt32, 33);
  const auto l = sw::BufferLayout::for_bytes(33 * 4);
  const auto ref = sw::reduced_reference(d, c);
  sysc::HostMemory m(l.memory_bytes);
  sw::write_inputs(m, l, d, c, 2);
  m.write(l.data, ref.data(), ref.size() * 4);
  // Outside rank 2's block (elements 22..32) nothing is looked at.
  const std::uint32_t junk = 0xDEADBEEFu;
  m.write(l.data, &junk, 4);
  sw::CheckResult r;
  sw::check_result(m, l, d, c, 2, ref, r);
  EXPECT_EQ(r.checked, 11u);
  EXPECT_EQ(r.wrong, 0u);
}

TEST(CheckResult, AReferenceOfAnotherLengthIsRefused) {
  const auto c = three_nodes();
  const auto d = spec(sw::CollectiveOp::kAllreduce, sw::DataType::kInt32, 16);
  const auto l = sw::BufferLayout::for_bytes(16 * 4);
  sysc::HostMemory m(l.memory_bytes);
  sw::CheckResult r;
  const std::vector<std::uint32_t> short_ref(15, 0);
  EXPECT_THROW(sw::check_result(m, l, d, c, 0, short_ref, r), std::invalid_argument);
  EXPECT_THROW(sw::check_result(m, l, d, c, 0, {}, r), std::invalid_argument);
  // An op that does not reduce needs none.
  const auto g = spec(sw::CollectiveOp::kBroadcast, sw::DataType::kInt32, 16);
  EXPECT_NO_THROW(sw::check_result(m, l, g, c, 0, {}, r));
}

}  // namespace
}  // namespace hxemu::test
