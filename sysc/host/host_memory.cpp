#include "sysc/host/host_memory.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

namespace hxemu::sysc {

HostMemory::HostMemory(const HostMemory& other, int read_latency)
    : HostMemory(0, other.word_bits_, read_latency) {
  mem_ = other.mem_;
}

HostMemory::HostMemory(std::size_t bytes, int word_bits, int read_latency)
    : mem_(std::make_shared<std::vector<std::uint8_t>>(bytes, 0)),
      word_bits_(word_bits),
      latency_(read_latency),
      pending_(64) {
  if (word_bits <= 0 || word_bits % 32 != 0 || word_bits > kMaxFlitBits) {
    std::ostringstream os;
    os << "host memory word_bits=" << word_bits << ": must be a multiple of 32 in 32.."
       << kMaxFlitBits;
    throw std::invalid_argument(os.str());
  }
  if (read_latency < 1) {
    throw std::invalid_argument("host memory read_latency=" + std::to_string(read_latency) +
                                ": must be >= 1 cycle");
  }
}

void HostMemory::write(std::uint32_t addr, const void* src, std::size_t n) {
  if (static_cast<std::size_t>(addr) + n > mem_->size()) {
    throw std::out_of_range("host memory write past the end");
  }
  if (n) std::memcpy(mem_->data() + addr, src, n);
}

void HostMemory::read(std::uint32_t addr, void* dst, std::size_t n) const {
  if (static_cast<std::size_t>(addr) + n > mem_->size()) {
    throw std::out_of_range("host memory read past the end");
  }
  if (n) std::memcpy(dst, mem_->data() + addr, n);
}

void HostMemory::fill(std::uint32_t addr, std::size_t n, std::uint8_t value) {
  if (static_cast<std::size_t>(addr) + n > mem_->size()) {
    throw std::out_of_range("host memory fill past the end");
  }
  std::memset(mem_->data() + addr, value, n);
}

void HostMemory::check_word(std::uint32_t addr, const char* what) const {
  const std::size_t wb = static_cast<std::size_t>(word_bytes());
  if (addr % wb != 0 || static_cast<std::size_t>(addr) + wb > mem_->size()) {
    std::ostringstream os;
    os << "DMA " << what << " at 0x" << std::hex << addr << std::dec << ": "
       << (addr % wb != 0 ? "not aligned to the word size " : "outside the memory of ")
       << (addr % wb != 0 ? wb : mem_->size()) << " bytes";
    throw std::out_of_range(os.str());
  }
}

DmaIn HostMemory::cycle(std::uint64_t now, const DmaOut& out) {
  DmaIn in;
  in.rd_ready = read_ready_;
  in.wr_ready = write_ready_;
  const int words = word_bits_ / 32;
  if (!pending_.empty() && pending_.front().due <= now) {
    in.rd_valid = true;
    std::memcpy(in.rd_data.data(), pending_.front().data.data(), words * 4);
    pending_.pop_front();
  }
  if (out.rd_valid && in.rd_ready) {
    check_word(out.rd_addr, "read");
    Pending p;
    p.due = now + static_cast<std::uint64_t>(latency_);
    p.data.fill(0);
    const std::uint8_t* src = mem_->data() + out.rd_addr;
    for (int w = 0; w < words; ++w) {
      p.data[w] = static_cast<std::uint32_t>(src[4 * w]) |
                  (static_cast<std::uint32_t>(src[4 * w + 1]) << 8) |
                  (static_cast<std::uint32_t>(src[4 * w + 2]) << 16) |
                  (static_cast<std::uint32_t>(src[4 * w + 3]) << 24);
    }
    pending_.push_back(p);
    ++reads_;
    if (first_read_ == UINT64_MAX) first_read_ = now;
  }
  if (out.wr_valid && in.wr_ready) {
    check_word(out.wr_addr, "write");
    std::uint8_t* dst = mem_->data() + out.wr_addr;
    for (int k = 0; k < word_bytes(); ++k) {
      if ((out.wr_be >> k) & 1u) {
        dst[k] = static_cast<std::uint8_t>(out.wr_data[k / 4] >> (8 * (k % 4)));
        ++bytes_written_;
      }
    }
    ++writes_;
    last_write_ = now;
  }
  return in;
}

void HostMemory::clear_stats() {
  reads_ = writes_ = bytes_written_ = 0;
  first_read_ = UINT64_MAX;
  last_write_ = 0;
}

}  // namespace hxemu::sysc
