// The C++ statements of the RTL's shared constants agree with rtl/common/hx_flit.svh, read as text:
// head-flit field positions (sysc/fabric/flit.h), router port numbers
// (sysc/fabric/router_ports.h) and the coordinate word (sysc/fabric/coord_word.h).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <string>

#include "sysc/fabric/coord_word.h"
#include "sysc/fabric/flit.h"
#include "sysc/fabric/router_ports.h"

namespace hxemu::sysc {
namespace {

// Every `localparam int NAME = <integer>;` of the header.
std::map<std::string, int> rtl_constants() {
  const std::string path = std::string(HX_RTL_DIR) + "/common/hx_flit.svh";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::map<std::string, int> out;
  const std::regex re(R"(^\s*localparam\s+int\s+(\w+)\s*=\s*(\d+)\s*;)");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, re)) out[m[1]] = std::stoi(m[2]);
  }
  return out;
}

int rtl(const std::map<std::string, int>& c, const std::string& name) {
  const auto it = c.find(name);
  if (it == c.end()) {
    ADD_FAILURE() << name << " is not a localparam of hx_flit.svh";
    return -1;
  }
  return it->second;
}

TEST(FlitFormat, HeadFieldsMatchTheRtlHeader) {
  const auto c = rtl_constants();
  EXPECT_EQ(hdr::kDst.lsb, rtl(c, "HX_HDR_DST_LSB"));
  EXPECT_EQ(hdr::kDst.width, rtl(c, "HX_HDR_DST_W"));
  EXPECT_EQ(hdr::kSrc.lsb, rtl(c, "HX_HDR_SRC_LSB"));
  EXPECT_EQ(hdr::kSrc.width, rtl(c, "HX_HDR_SRC_W"));
  EXPECT_EQ(hdr::kDstGridRow.lsb, rtl(c, "HX_HDR_DGR_LSB"));
  EXPECT_EQ(hdr::kDstGridCol.lsb, rtl(c, "HX_HDR_DGC_LSB"));
  EXPECT_EQ(hdr::kDstLocalRow.lsb, rtl(c, "HX_HDR_DLR_LSB"));
  EXPECT_EQ(hdr::kDstLocalCol.lsb, rtl(c, "HX_HDR_DLC_LSB"));
  for (const Field f : {hdr::kDstGridRow, hdr::kDstGridCol, hdr::kDstLocalRow, hdr::kDstLocalCol}) {
    EXPECT_EQ(f.width, rtl(c, "HX_HDR_COORD_W"));
  }
  EXPECT_EQ(hdr::kRouteBits, rtl(c, "HX_HDR_ROUTE_BITS"));
  EXPECT_EQ(hdr::kTag.lsb, rtl(c, "HX_HDR_TAG_LSB"));
  EXPECT_EQ(hdr::kTag.width, rtl(c, "HX_HDR_TAG_W"));
  EXPECT_EQ(hdr::kSeq.lsb, rtl(c, "HX_HDR_SEQ_LSB"));
  EXPECT_EQ(hdr::kSeq.width, rtl(c, "HX_HDR_SEQ_W"));
  EXPECT_EQ(hdr::kMsgLen.lsb, rtl(c, "HX_HDR_MLEN_LSB"));
  EXPECT_EQ(hdr::kMsgLen.width, rtl(c, "HX_HDR_MLEN_W"));
  EXPECT_EQ(hdr::kPacketAddr.lsb, rtl(c, "HX_HDR_PADDR_LSB"));
  EXPECT_EQ(hdr::kPacketAddr.width, rtl(c, "HX_HDR_PADDR_W"));
  EXPECT_EQ(hdr::kPacketBytes.lsb, rtl(c, "HX_HDR_PBYTES_LSB"));
  EXPECT_EQ(hdr::kPacketBytes.width, rtl(c, "HX_HDR_PBYTES_W"));
  EXPECT_EQ(hdr::kRail.lsb, rtl(c, "HX_HDR_RAIL_LSB"));
  EXPECT_EQ(hdr::kRail.width, rtl(c, "HX_HDR_RAIL_W"));
  EXPECT_EQ(hdr::kMsgBits, rtl(c, "HX_HDR_MSG_BITS"));
}

TEST(FlitFormat, RouterPortsMatchTheRtlHeader) {
  const auto c = rtl_constants();
  EXPECT_EQ(kPortN, rtl(c, "HX_PORT_N"));
  EXPECT_EQ(kPortE, rtl(c, "HX_PORT_E"));
  EXPECT_EQ(kPortS, rtl(c, "HX_PORT_S"));
  EXPECT_EQ(kPortW, rtl(c, "HX_PORT_W"));
  EXPECT_EQ(kPortLocal, rtl(c, "HX_PORT_L"));
  EXPECT_STREQ(port_name(kPortN), "N");
  EXPECT_STREQ(port_name(kPortW), "W");
  EXPECT_STREQ(port_name(local_port(0)), "L");
  EXPECT_STREQ(port_name(local_port(3)), "L3");
  EXPECT_STREQ(port_name(kMaxRouterPorts), "?");
}

// The coordinate word has one layout for pos_i, dims_i and the head's route field: the route field's
// coordinate bytes sit at the head's route-field offset (bit 32) plus the coordinate word's offsets.
TEST(FlitFormat, CoordinateWordMatchesTheRtlHeader) {
  const auto c = rtl_constants();
  EXPECT_EQ(kCoordGridRowLsb, rtl(c, "HX_COORD_GR_LSB"));
  EXPECT_EQ(kCoordGridColLsb, rtl(c, "HX_COORD_GC_LSB"));
  EXPECT_EQ(kCoordLocalRowLsb, rtl(c, "HX_COORD_LR_LSB"));
  EXPECT_EQ(kCoordLocalColLsb, rtl(c, "HX_COORD_LC_LSB"));
  EXPECT_EQ(hdr::kDstGridRow.lsb, 32 + kCoordGridRowLsb);
  EXPECT_EQ(hdr::kDstGridCol.lsb, 32 + kCoordGridColLsb);
  EXPECT_EQ(hdr::kDstLocalRow.lsb, 32 + kCoordLocalRowLsb);
  EXPECT_EQ(hdr::kDstLocalCol.lsb, 32 + kCoordLocalColLsb);
}

TEST(FlitFormat, CoordinateWordPacksLeastSignificantFirst) {
  EXPECT_EQ(pack_coord({1, 2, 3, 4}), 0x04030201u);
  EXPECT_EQ(pack_dims(4, 8, 2, 2), 0x02020804u);
  const NodeCoord back = unpack_coord(0xfe7f0180u);
  EXPECT_EQ(back.grid_row, 0x80);
  EXPECT_EQ(back.grid_col, 0x01);
  EXPECT_EQ(back.local_row, 0x7f);
  EXPECT_EQ(back.local_col, 0xfe);
  // A head flit carrying the word in its route field reads back field by field.
  Flit f;
  set_field(f, Field{32, 32}, pack_coord({5, 6, 7, 8}));
  EXPECT_EQ(get_field(f, hdr::kDstGridRow), 5u);
  EXPECT_EQ(get_field(f, hdr::kDstGridCol), 6u);
  EXPECT_EQ(get_field(f, hdr::kDstLocalRow), 7u);
  EXPECT_EQ(get_field(f, hdr::kDstLocalCol), 8u);
}

// get_field / set_field against a bit-by-bit reference, for every field position and width a flit
// can hold up to 64 bits (word-aligned, straddling one and two word boundaries), on random data.
TEST(FlitFormat, FieldsReadAndWriteExactlyTheirBits) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int width = 1; width <= 64; ++width) {
    for (int lsb = 0; lsb + width <= 32 * kMaxFlitWords; lsb += 5) {
      Flit f;
      for (auto& w : f.data) w = static_cast<std::uint32_t>(rng());
      const Flit before = f;
      std::uint64_t want = 0;
      for (int i = 0; i < width; ++i) {
        const int bit = lsb + i;
        want |= static_cast<std::uint64_t>(before.data[bit / 32] >> (bit % 32) & 1u) << i;
      }
      ASSERT_EQ(get_field(f, Field{lsb, width}), want) << "lsb " << lsb << " width " << width;
      const std::uint64_t value = rng();   // bits above the width must be ignored
      set_field(f, Field{lsb, width}, value);
      for (int bit = 0; bit < 32 * kMaxFlitWords; ++bit) {
        const bool inside = bit >= lsb && bit < lsb + width;
        const std::uint32_t got = f.data[bit / 32] >> (bit % 32) & 1u;
        const std::uint32_t exp = inside ? static_cast<std::uint32_t>(value >> (bit - lsb) & 1u)
                                         : (before.data[bit / 32] >> (bit % 32) & 1u);
        ASSERT_EQ(got, exp) << "lsb " << lsb << " width " << width << " bit " << bit;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 3000);
}

}  // namespace
}  // namespace hxemu::sysc
