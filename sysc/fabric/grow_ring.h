// GrowRing<T>: a FIFO on one buffer that doubles when full and never shrinks, so a queue on the
// per-cycle path (read pipelines, command and completion queues, packets per VC) allocates only
// while it reaches its working size, not per element.
#pragma once

#include <cstddef>
#include <vector>

namespace hxemu::sysc {

template <class T>
class GrowRing {
 public:
  // Not explicit, so that a struct holding a GrowRing can be value-initialised with {} (clang
  // rejects that through an explicit default constructor).
  GrowRing() : GrowRing(8) {}
  // The capacity is rounded up to a power of two: indices wrap with a mask, not a division (a
  // modulo by the vector's size cost two integer divisions per access on the per-flit path).
  explicit GrowRing(std::size_t capacity) : buf_(round_up(capacity)), mask_(buf_.size() - 1) {}

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return (*this)[count_ - 1]; }
  const T& back() const { return (*this)[count_ - 1]; }
  // i-th element from the front.
  T& operator[](std::size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& operator[](std::size_t i) const { return buf_[(head_ + i) & mask_]; }

  void push_back(const T& v) {
    if (count_ == buf_.size()) grow();
    buf_[(head_ + count_) & mask_] = v;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --count_;
  }
  void clear() {
    head_ = 0;
    count_ = 0;
  }

 private:
  static std::size_t round_up(std::size_t n) {
    std::size_t c = 1;
    while (c < n) c <<= 1;
    return c;
  }
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = (*this)[i];
    buf_.swap(bigger);
    mask_ = buf_.size() - 1;
    head_ = 0;
  }

  std::vector<T> buf_;
  std::size_t mask_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace hxemu::sysc
