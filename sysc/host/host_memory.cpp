#include "sysc/host/host_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace hxemu::sysc {

namespace {
// A DMA word's 32-bit lanes hold its bytes little-endian (byte k in bits 8 * (k % 4) of lane k / 4):
// on a little-endian host that is the memory's own byte order, so a whole word moves with one copy.
constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// One word of n bytes. The usual 32 (a 256-bit NIC) as a copy of fixed size, which the compiler
// inlines: a call into the C library's memcpy per word cost more than the copy.
void copy_word(void* dst, const void* src, std::size_t n) {
  if (n == 32) {
    std::memcpy(dst, src, 32);
  } else {
    std::memcpy(dst, src, n);
  }
}
}  // namespace

std::uint8_t* HostMemory::Pages::get(std::size_t page) {
  std::unique_ptr<std::uint8_t[]>& p = table[page];
  if (!p) {
    p.reset(new std::uint8_t[kPageBytes]());   // value-initialized: zeros
    ++allocated;
  }
  return p.get();
}

HostMemory::HostMemory(const HostMemory& other, int read_latency)
    : HostMemory(0, other.word_bits_, read_latency) {
  mem_ = other.mem_;
}

HostMemory::HostMemory(std::size_t bytes, int word_bits, int read_latency)
    : mem_(std::make_shared<Pages>()),
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
  mem_->size = bytes;
  mem_->table.resize((bytes + kPageBytes - 1) / kPageBytes);
}

void HostMemory::check_range(std::uint32_t addr, std::size_t n, const char* what) const {
  if (static_cast<std::size_t>(addr) + n > mem_->size) {
    throw std::out_of_range(std::string("host memory ") + what + " past the end");
  }
}

namespace {

// Calls f(page, offset in page, bytes, bytes done before) for each piece of [addr, addr + n) that
// lies in one page.
template <class F>
void for_each_page_span(std::size_t addr, std::size_t n, std::size_t page_bytes, F&& f) {
  for (std::size_t done = 0; done < n;) {
    const std::size_t a = addr + done;
    const std::size_t off = a % page_bytes;
    const std::size_t k = std::min(n - done, page_bytes - off);
    f(a / page_bytes, off, k, done);
    done += k;
  }
}

}  // namespace

void HostMemory::write(std::uint32_t addr, const void* src, std::size_t n) {
  check_range(addr, n, "write");
  const auto* s = static_cast<const std::uint8_t*>(src);
  for_each_page_span(addr, n, kPageBytes,
                     [&](std::size_t page, std::size_t off, std::size_t k, std::size_t done) {
    std::memcpy(mem_->get(page) + off, s + done, k);
  });
}

void HostMemory::read(std::uint32_t addr, void* dst, std::size_t n) const {
  check_range(addr, n, "read");
  auto* d = static_cast<std::uint8_t*>(dst);
  for_each_page_span(addr, n, kPageBytes,
                     [&](std::size_t page, std::size_t off, std::size_t k, std::size_t done) {
    if (const std::uint8_t* p = mem_->find(page)) {
      std::memcpy(d + done, p + off, k);
    } else {
      std::memset(d + done, 0, k);   // never written: zeros
    }
  });
}

std::vector<std::uint8_t> HostMemory::bytes(std::uint32_t addr, std::size_t n) const {
  std::vector<std::uint8_t> v(n);
  read(addr, v.data(), n);
  return v;
}

void HostMemory::fill(std::uint32_t addr, std::size_t n, std::uint8_t value) {
  check_range(addr, n, "fill");
  for_each_page_span(addr, n, kPageBytes,
                     [&](std::size_t page, std::size_t off, std::size_t k, std::size_t) {
    // Zeros into a page never written leave it unallocated: it reads as zeros already.
    if (value != 0 || mem_->find(page)) std::memset(mem_->get(page) + off, value, k);
  });
}

void HostMemory::check_word(std::uint32_t addr, const char* what) const {
  const std::size_t wb = static_cast<std::size_t>(word_bytes());
  if (addr % wb != 0 || static_cast<std::size_t>(addr) + wb > mem_->size) {
    std::ostringstream os;
    os << "DMA " << what << " at 0x" << std::hex << addr << std::dec << ": "
       << (addr % wb != 0 ? "not aligned to the word size " : "outside the memory of ")
       << (addr % wb != 0 ? wb : mem_->size) << " bytes";
    throw std::out_of_range(os.str());
  }
}

void HostMemory::limit_bandwidth(double bytes_per_cycle) {
  mem_->bandwidth = bytes_per_cycle > 0 ? std::make_unique<MemoryBandwidth>(bytes_per_cycle) : nullptr;
}

DmaIn HostMemory::cycle(std::uint64_t now, const DmaOut& out) {
  DmaIn in;
  in.rd_ready = read_ready_;
  in.wr_ready = write_ready_;
  MemoryBandwidth* bw = mem_->bandwidth.get();
  // A read is decided first, then a write, each only when it is asked for (the ready level of a
  // port that asks nothing does not matter to the NIC).
  if (bw && out.rd_valid && in.rd_ready) {
    in.rd_ready = bw->can_start(now);
    if (in.rd_ready) bw->spend(now, static_cast<std::uint32_t>(word_bytes()));
  }
  if (bw && out.wr_valid && in.wr_ready) {
    in.wr_ready = bw->can_start(now);
    if (in.wr_ready) bw->spend(now, static_cast<std::uint32_t>(word_bytes()));
  }
  const int words = word_bits_ / 32;
  if (!pending_.empty() && pending_.front().due <= now) {
    in.rd_valid = true;
    copy_word(in.rd_data.data(), pending_.front().data.data(), static_cast<std::size_t>(words) * 4);
    pending_.pop_front();
  }
  if (out.rd_valid && in.rd_ready) {
    check_word(out.rd_addr, "read");
    Pending p;
    p.due = now + static_cast<std::uint64_t>(latency_);
    p.data.fill(0);
    // A word lies in one page unless the word size does not divide the page (e.g. 28 bytes).
    std::uint8_t buf[kMaxFlitBits / 8];
    const std::size_t off = out.rd_addr % kPageBytes;
    const std::uint8_t* src = nullptr;
    if (off + static_cast<std::size_t>(word_bytes()) <= kPageBytes) {
      const std::uint8_t* page = mem_->find(out.rd_addr / kPageBytes);
      src = page ? page + off : nullptr;   // null: never written, zeros
    } else {
      read(out.rd_addr, buf, static_cast<std::size_t>(word_bytes()));
      src = buf;
    }
    if (src == nullptr) {
      // never written: the word stays zeros
    } else if (kLittleEndianHost) {
      copy_word(p.data.data(), src, static_cast<std::size_t>(word_bytes()));
    } else {
      for (int w = 0; w < words; ++w) {
        p.data[w] = static_cast<std::uint32_t>(src[4 * w]) |
                    (static_cast<std::uint32_t>(src[4 * w + 1]) << 8) |
                    (static_cast<std::uint32_t>(src[4 * w + 2]) << 16) |
                    (static_cast<std::uint32_t>(src[4 * w + 3]) << 24);
      }
    }
    pending_.push_back(p);
    ++reads_;
    if (first_read_ == UINT64_MAX) first_read_ = now;
  }
  if (out.wr_valid && in.wr_ready) {
    check_word(out.wr_addr, "write");
    const std::uint64_t all = word_bytes() >= 64 ? ~0ull : (1ull << word_bytes()) - 1;
    const std::uint64_t be = out.wr_be & all;
    const std::size_t off = out.wr_addr % kPageBytes;
    // A whole word inside one page (what the NIC writes but for a message's first and last word):
    // one copy. Otherwise byte by byte, as the enables say.
    if (kLittleEndianHost && be == all && off + static_cast<std::size_t>(word_bytes()) <= kPageBytes) {
      copy_word(mem_->get(out.wr_addr / kPageBytes) + off, out.wr_data.data(),
                static_cast<std::size_t>(word_bytes()));
      bytes_written_ += static_cast<std::uint64_t>(word_bytes());
    } else {
      std::uint8_t* page = nullptr;
      std::size_t page_index = SIZE_MAX;
      for (int k = 0; be && k < word_bytes(); ++k) {
        if ((be >> k) & 1u) {
          const std::size_t a = static_cast<std::size_t>(out.wr_addr) + static_cast<std::size_t>(k);
          if (a / kPageBytes != page_index) {
            page_index = a / kPageBytes;
            page = mem_->get(page_index);
          }
          page[a % kPageBytes] = static_cast<std::uint8_t>(out.wr_data[k / 4] >> (8 * (k % 4)));
          ++bytes_written_;
        }
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
