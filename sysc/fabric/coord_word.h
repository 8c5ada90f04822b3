// The coordinate word: the one 32-bit layout of a node's coordinates the RTL reads, in the head
// flit's route field (payload bits 32..63), as a router's position (pos_i) and, with counts in place
// of indices, as the system's dimensions (dims_i of routers and switches). Byte 0 is the board row
// in the grid, byte 1 the board column, byte 2 the row inside the board, byte 3 the column inside
// the board (rtl/common/hx_flit.svh, HX_COORD_*_LSB; tests/sysc/fabric/flit_format_test.cpp checks
// the two agree). Each coordinate is 8 bits: a grid or board side of at most 255.
#pragma once

#include <cstdint>

namespace hxemu::sysc {

// A node's place: board position in the grid and position inside the board.
struct NodeCoord {
  int grid_row = 0, grid_col = 0, local_row = 0, local_col = 0;
};

inline constexpr int kCoordGridRowLsb = 0;
inline constexpr int kCoordGridColLsb = 8;
inline constexpr int kCoordLocalRowLsb = 16;
inline constexpr int kCoordLocalColLsb = 24;
inline constexpr int kCoordMax = 255;

inline std::uint32_t pack_coord(const NodeCoord& c) {
  auto byte = [](int v, int lsb) { return static_cast<std::uint32_t>(v & 0xff) << lsb; };
  return byte(c.grid_row, kCoordGridRowLsb) | byte(c.grid_col, kCoordGridColLsb) |
         byte(c.local_row, kCoordLocalRowLsb) | byte(c.local_col, kCoordLocalColLsb);
}

inline NodeCoord unpack_coord(std::uint32_t w) {
  auto byte = [w](int lsb) { return static_cast<int>((w >> lsb) & 0xff); };
  return {byte(kCoordGridRowLsb), byte(kCoordGridColLsb), byte(kCoordLocalRowLsb),
          byte(kCoordLocalColLsb)};
}

// dims_i: grid rows x, grid columns y, board rows a, board columns b in the same layout.
inline std::uint32_t pack_dims(int grid_rows, int grid_cols, int board_rows, int board_cols) {
  return pack_coord({grid_rows, grid_cols, board_rows, board_cols});
}

}  // namespace hxemu::sysc
