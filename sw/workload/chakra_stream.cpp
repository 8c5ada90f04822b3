#include "sw/workload/chakra_stream.h"

#include <google/protobuf/message_lite.h>

#include <limits>

namespace hxemu::sw {

namespace {

// protobuf parses messages of at most 2 GiB - 1; a longer prefix is damage, not a big trace.
constexpr std::uint64_t kMaxFrameBytes = std::numeric_limits<std::int32_t>::max();

}  // namespace

bool ChakraFrameReader::next(std::string_view& frame) {
  if (pos_ == bytes_.size()) return false;
  frame_offset_ = pos_;
  std::uint64_t length = 0;
  // A varint holds 7 bits per byte, low bits first; the high bit says another byte follows.
  for (int shift = 0;; shift += 7) {
    if (pos_ == bytes_.size()) {
      throw ChakraFrameError("the file ends inside a length prefix (truncated)");
    }
    if (shift > 63) throw ChakraFrameError("a length prefix runs past 10 bytes (not a length-delimited trace)");
    const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
    length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) break;
  }
  if (length > kMaxFrameBytes) {
    throw ChakraFrameError("a length prefix says " + std::to_string(length) +
                           " bytes, more than a protobuf message may have");
  }
  const std::size_t left = bytes_.size() - pos_;
  if (length > left) {
    throw ChakraFrameError("the message needs " + std::to_string(length) + " bytes but the file has only " +
                           std::to_string(left) + " left (truncated)");
  }
  frame = bytes_.substr(pos_, static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return true;
}

void append_chakra_frame(std::string& out, const google::protobuf::MessageLite& m) {
  const std::string payload = m.SerializeAsString();
  std::uint64_t length = payload.size();
  do {
    unsigned char byte = length & 0x7f;
    length >>= 7;
    if (length != 0) byte |= 0x80;
    out.push_back(static_cast<char>(byte));
  } while (length != 0);
  out += payload;
}

}  // namespace hxemu::sw
