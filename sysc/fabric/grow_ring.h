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
  explicit GrowRing(std::size_t capacity = 8) : buf_(capacity ? capacity : 1) {}

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return (*this)[count_ - 1]; }
  const T& back() const { return (*this)[count_ - 1]; }
  // i-th element from the front.
  T& operator[](std::size_t i) { return buf_[(head_ + i) % buf_.size()]; }
  const T& operator[](std::size_t i) const { return buf_[(head_ + i) % buf_.size()]; }

  void push_back(const T& v) {
    if (count_ == buf_.size()) grow();
    buf_[(head_ + count_) % buf_.size()] = v;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) % buf_.size();
    --count_;
  }
  void clear() {
    head_ = 0;
    count_ = 0;
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = (*this)[i];
    buf_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace hxemu::sysc
