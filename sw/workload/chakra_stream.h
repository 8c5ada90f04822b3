// The framing of a Chakra trace file: a sequence of protobuf messages, each preceded by its length
// as a base-128 varint (the layout of ASTRA-sim's and Chakra's own tools). The first message is the
// GlobalMetadata, every further one a Node (sw/workload/chakra_et.proto). Reading only splits the
// bytes; what a frame must hold is the caller's business, so errors here say what is wrong with the
// framing and the caller adds the file and the node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace google::protobuf {
class MessageLite;
}

namespace hxemu::sw {

// A frame whose length prefix is cut short, too long for the file, or larger than protobuf takes.
class ChakraFrameError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class ChakraFrameReader {
 public:
  explicit ChakraFrameReader(std::string_view bytes) : bytes_(bytes) {}
  // The next frame's payload, or false at the end of the bytes. Throws ChakraFrameError.
  bool next(std::string_view& frame);
  // Where the frame last returned (or the one that failed) starts: its length prefix.
  std::size_t frame_offset() const { return frame_offset_; }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::size_t frame_offset_ = 0;
};

// Appends `m` to `out` as one frame.
void append_chakra_frame(std::string& out, const google::protobuf::MessageLite& m);

}  // namespace hxemu::sw
