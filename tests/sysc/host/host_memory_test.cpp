// HostMemory (sysc/host/host_memory.h) allocates its pages on demand: nothing is resident until a
// byte of a page is written; never-written bytes read as zeros on both the host side and the DMA
// side; writes land byte-exactly across page boundaries; ports made from one memory share its pages;
// every access past the end throws with the same messages as before.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sysc/host/host_memory.h"

namespace hxemu::test {
namespace {

using sysc::HostMemory;
constexpr std::size_t kPage = HostMemory::kPageBytes;

std::string what_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(HostMemoryOnDemand, NothingIsAllocatedUntilWritten) {
  HostMemory m(1ull << 30, 256, 1);   // 1 GiB: only its page table (2 MiB of pointers) exists
  EXPECT_EQ(m.size(), 1ull << 30);
  EXPECT_EQ(m.pages_allocated(), 0u);
  EXPECT_EQ(m.resident_bytes(), 0u);
  // Reads anywhere, including the last byte, are zeros and allocate nothing.
  EXPECT_EQ(m.bytes(0, 64), std::vector<std::uint8_t>(64, 0));
  EXPECT_EQ(m.bytes((1u << 30) - 8, 8), std::vector<std::uint8_t>(8, 0));
  // A zero fill of a page never written leaves it unallocated.
  m.fill(4096, 3 * kPage, 0);
  EXPECT_EQ(m.pages_allocated(), 0u);
  const std::uint8_t one = 0x5a;
  m.write((1u << 30) - 1, &one, 1);
  EXPECT_EQ(m.pages_allocated(), 1u);
  EXPECT_EQ(m.resident_bytes(), kPage);
  EXPECT_EQ(m.bytes((1u << 30) - 2, 2), (std::vector<std::uint8_t>{0, 0x5a}));
}

TEST(HostMemoryOnDemand, WritesAcrossPagesAreByteExact) {
  HostMemory m(5 * kPage + 100, 256, 1);
  std::vector<std::uint8_t> src(2 * kPage + 77);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 7 + 3);
  const std::uint32_t at = static_cast<std::uint32_t>(kPage - 13);   // pages 0, 1, 2 and 3
  m.write(at, src.data(), src.size());
  EXPECT_EQ(m.pages_allocated(), 4u);
  // The bytes around it are zeros, the bytes themselves exact.
  const auto all = m.bytes(0, m.size());
  for (std::size_t a = 0; a < all.size(); ++a) {
    const std::uint8_t want = a >= at && a < at + src.size() ? src[a - at] : 0;
    ASSERT_EQ(all[a], want) << "byte " << a;
  }
  // A nonzero fill across the tail page, then a partial overwrite.
  m.fill(static_cast<std::uint32_t>(5 * kPage), 100, 0xab);
  EXPECT_EQ(m.pages_allocated(), 5u);
  EXPECT_EQ(m.bytes(static_cast<std::uint32_t>(5 * kPage - 1), 3),
            (std::vector<std::uint8_t>{0, 0xab, 0xab}));
  m.fill(static_cast<std::uint32_t>(5 * kPage + 1), 1, 0);
  EXPECT_EQ(m.bytes(static_cast<std::uint32_t>(5 * kPage), 3),
            (std::vector<std::uint8_t>{0xab, 0, 0xab}));
}

TEST(HostMemoryOnDemand, DmaReadsZerosAndWritesAllocate) {
  HostMemory m(4 * kPage, 256, 2);
  sysc::DmaOut o;
  o.rd_valid = true;
  o.rd_addr = static_cast<std::uint32_t>(2 * kPage + 32);
  m.cycle(0, o);
  o.rd_valid = false;
  EXPECT_FALSE(m.cycle(1, o).rd_valid);
  const sysc::DmaIn in = m.cycle(2, o);
  ASSERT_TRUE(in.rd_valid);
  for (int w = 0; w < 8; ++w) EXPECT_EQ(in.rd_data[w], 0u) << w;
  EXPECT_EQ(m.pages_allocated(), 0u);
  // A write with no byte enabled allocates nothing; one with bytes 1 and 31 enabled allocates its page.
  sysc::DmaOut w;
  w.wr_valid = true;
  w.wr_addr = static_cast<std::uint32_t>(3 * kPage + 64);
  w.wr_data.fill(0x11223344u);
  w.wr_be = 0;
  m.cycle(3, w);
  EXPECT_EQ(m.pages_allocated(), 0u);
  w.wr_be = (1ull << 1) | (1ull << 31);
  m.cycle(4, w);
  EXPECT_EQ(m.pages_allocated(), 1u);
  std::vector<std::uint8_t> want(32, 0);
  want[1] = 0x33;    // byte 1 of word 0 = bits 15:8
  want[31] = 0x11;   // byte 3 of word 7
  EXPECT_EQ(m.bytes(w.wr_addr, 32), want);
  // The DMA side reads back what landed.
  o.rd_valid = true;
  o.rd_addr = w.wr_addr;
  m.cycle(5, o);
  o.rd_valid = false;
  m.cycle(6, o);
  const sysc::DmaIn back = m.cycle(7, o);
  ASSERT_TRUE(back.rd_valid);
  EXPECT_EQ(back.rd_data[0], 0x00003300u);
  EXPECT_EQ(back.rd_data[7], 0x11000000u);
  EXPECT_EQ(m.bytes_written(), 2u);
}

// A word with every byte enabled inside one page (the NIC's usual write, copied whole): byte k of
// the word is bits 8 * (k % 4) of lane k / 4, as for a partial write; read back lane for lane.
TEST(HostMemoryOnDemand, WholeWordsLandInLaneByteOrder) {
  HostMemory m(2 * kPage, 256, 1);
  sysc::DmaOut w;
  w.wr_valid = true;
  w.wr_addr = static_cast<std::uint32_t>(kPage + 96);
  for (int i = 0; i < 8; ++i) w.wr_data[i] = 0x03020100u + 0x04040404u * static_cast<std::uint32_t>(i);
  w.wr_data[8] = 0xFFFFFFFFu;   // beyond the 32-byte word: never written
  w.wr_be = ~0ull;              // enables beyond the word are ignored
  m.cycle(0, w);
  EXPECT_EQ(m.pages_allocated(), 1u);
  EXPECT_EQ(m.bytes_written(), 32u);
  std::vector<std::uint8_t> want(40, 0);
  for (int k = 0; k < 32; ++k) want[k] = static_cast<std::uint8_t>(k);
  EXPECT_EQ(m.bytes(w.wr_addr, 40), want);
  // A partial write over it changes only its enabled bytes.
  w.wr_data.fill(0xA0B0C0D0u);
  w.wr_be = 1ull << 5;   // byte 1 of lane 1
  m.cycle(1, w);
  want[5] = 0xC0;
  EXPECT_EQ(m.bytes(w.wr_addr, 40), want);
  EXPECT_EQ(m.bytes_written(), 33u);
  sysc::DmaOut o;
  o.rd_valid = true;
  o.rd_addr = w.wr_addr;
  m.cycle(2, o);
  o.rd_valid = false;
  const sysc::DmaIn in = m.cycle(3, o);
  ASSERT_TRUE(in.rd_valid);
  EXPECT_EQ(in.rd_data[0], 0x03020100u);
  EXPECT_EQ(in.rd_data[1], 0x0706C004u);
  EXPECT_EQ(in.rd_data[7], 0x1F1E1D1Cu);
  EXPECT_EQ(in.rd_data[8], 0u);   // lanes beyond the word stay zero
}

TEST(HostMemoryOnDemand, WordsOfAWidthThatDoesNotDivideThePageStraddleTwoPages) {
  HostMemory m(3 * kPage, 224, 1);   // 28-byte words: the word at 4088 covers 4088..4115
  const std::uint32_t at = 28 * 146;
  ASSERT_LT(at, kPage);
  ASSERT_GT(at + 28, kPage);
  sysc::DmaOut w;
  w.wr_valid = true;
  w.wr_addr = at;
  for (int i = 0; i < 7; ++i) w.wr_data[i] = 0x03020100u + 0x04040404u * static_cast<std::uint32_t>(i);
  w.wr_be = (1ull << 28) - 1;
  m.cycle(0, w);
  EXPECT_EQ(m.pages_allocated(), 2u);
  std::vector<std::uint8_t> want(28);
  for (int k = 0; k < 28; ++k) want[k] = static_cast<std::uint8_t>(k);
  EXPECT_EQ(m.bytes(at, 28), want);
  sysc::DmaOut o;
  o.rd_valid = true;
  o.rd_addr = at;
  m.cycle(1, o);
  o.rd_valid = false;
  const sysc::DmaIn in = m.cycle(2, o);
  ASSERT_TRUE(in.rd_valid);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(in.rd_data[i], w.wr_data[i]) << i;
}

TEST(HostMemoryOnDemand, PortsShareOnePageTable) {
  HostMemory a(2 * kPage, 256, 1);
  HostMemory b(a, 3);   // another DMA port onto the same bytes
  const std::uint32_t v = 0xdeadbeef;
  a.write(100, &v, 4);
  EXPECT_EQ(b.pages_allocated(), 1u);
  std::uint32_t got = 0;
  b.read(100, &got, 4);
  EXPECT_EQ(got, v);
  b.fill(static_cast<std::uint32_t>(kPage), 4, 0x77);
  EXPECT_EQ(a.pages_allocated(), 2u);
  EXPECT_EQ(a.bytes(static_cast<std::uint32_t>(kPage), 5),
            (std::vector<std::uint8_t>{0x77, 0x77, 0x77, 0x77, 0}));
}

TEST(HostMemoryOnDemand, BoundsErrorsAreUnchanged) {
  HostMemory m(1000, 256, 1);   // not a multiple of the page or the word
  std::uint8_t buf[16] = {};
  EXPECT_EQ(what_of([&] { m.write(995, buf, 6); }), "host memory write past the end");
  EXPECT_EQ(what_of([&] { m.read(999, buf, 2); }), "host memory read past the end");
  EXPECT_EQ(what_of([&] { m.fill(1000, 1, 0); }), "host memory fill past the end");
  EXPECT_EQ(what_of([&] { (void)m.bytes(0, 1001); }), "host memory read past the end");
  EXPECT_NO_THROW(m.write(999, buf, 1));
  EXPECT_NO_THROW(m.read(1000, buf, 0));
  EXPECT_EQ(m.pages_allocated(), 1u);   // the failed write allocated nothing
  sysc::DmaOut o;
  o.rd_valid = true;
  o.rd_addr = 992;   // aligned, but its word ends past byte 999
  EXPECT_EQ(what_of([&] { m.cycle(0, o); }), "DMA read at 0x3e0: outside the memory of 1000 bytes");
  o.rd_addr = 33;
  EXPECT_EQ(what_of([&] { m.cycle(1, o); }), "DMA read at 0x21: not aligned to the word size 32 bytes");
  sysc::DmaOut w;
  w.wr_valid = true;
  w.wr_be = 1;
  w.wr_addr = 1024;
  EXPECT_EQ(what_of([&] { m.cycle(2, w); }), "DMA write at 0x400: outside the memory of 1000 bytes");
  EXPECT_THROW(HostMemory(64, 48, 1), std::invalid_argument);
  EXPECT_THROW(HostMemory(64, 256, 0), std::invalid_argument);
}

}  // namespace
}  // namespace hxemu::test
