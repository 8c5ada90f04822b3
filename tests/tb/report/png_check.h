// A PNG reader just big enough to look at what rsvg-convert drew: 8-bit RGB or RGBA, not
// interlaced (what it writes). Chunks are walked, the IDAT stream inflated with zlib and the
// scanline filters undone, giving the pixels to count.
#pragma once

#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace hxemu::test {

struct Image {
  int width = 0, height = 0;
  std::vector<std::array<std::uint8_t, 4>> px;   // RGBA, row-major
  std::string error;                             // why it could not be read ("" when read)
  const std::array<std::uint8_t, 4>& at(int x, int y) const { return px[static_cast<std::size_t>(y) * width + x]; }
};

inline std::uint32_t be32(const std::string& s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 3]));
}

inline Image read_png(const std::string& file) {
  Image img;
  static const char kSig[] = "\x89PNG\r\n\x1a\n";
  if (file.size() < 8 || file.compare(0, 8, std::string(kSig, 8)) != 0) {
    img.error = "not a PNG";
    return img;
  }
  int depth = 0, colour = 0, interlace = 0;
  std::string idat;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    const std::uint32_t len = be32(file, at);
    const std::string type = file.substr(at + 4, 4);
    if (at + 12 + len > file.size()) break;
    const std::string data = file.substr(at + 8, len);
    if (type == "IHDR" && len >= 13) {
      img.width = static_cast<int>(be32(data, 0));
      img.height = static_cast<int>(be32(data, 4));
      depth = static_cast<std::uint8_t>(data[8]);
      colour = static_cast<std::uint8_t>(data[9]);
      interlace = static_cast<std::uint8_t>(data[12]);
    } else if (type == "IDAT") {
      idat += data;
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  const int channels = colour == 6 ? 4 : colour == 2 ? 3 : 0;
  if (depth != 8 || channels == 0 || interlace != 0 || img.width <= 0 || img.height <= 0) {
    img.error = "unsupported PNG (depth " + std::to_string(depth) + ", colour type " + std::to_string(colour) + ")";
    return img;
  }
  const std::size_t stride = static_cast<std::size_t>(img.width) * channels;
  std::vector<std::uint8_t> raw((stride + 1) * static_cast<std::size_t>(img.height));
  uLongf raw_len = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), static_cast<uLong>(idat.size())) !=
          Z_OK ||
      raw_len != raw.size()) {
    img.error = "IDAT does not inflate to the image size";
    return img;
  }
  // Undo the per-scanline filters (None, Sub, Up, Average, Paeth) in place.
  std::vector<std::uint8_t> prev(stride, 0), cur(stride);
  img.px.resize(static_cast<std::size_t>(img.width) * img.height);
  for (int y = 0; y < img.height; ++y) {
    const std::uint8_t* line = &raw[y * (stride + 1)];
    const int filter = line[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= static_cast<std::size_t>(channels) ? cur[i - channels] : 0;
      const int b = prev[i];
      const int c = i >= static_cast<std::size_t>(channels) ? prev[i - channels] : 0;
      int pred = 0;
      switch (filter) {
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: break;
      }
      cur[i] = static_cast<std::uint8_t>(line[1 + i] + pred);
    }
    for (int x = 0; x < img.width; ++x) {
      auto& p = img.px[static_cast<std::size_t>(y) * img.width + x];
      for (int k = 0; k < 3; ++k) p[k] = cur[x * channels + k];
      p[3] = channels == 4 ? cur[x * channels + 3] : 255;
    }
    prev.swap(cur);
  }
  return img;
}

}  // namespace hxemu::test
