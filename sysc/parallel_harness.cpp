#include "sysc/parallel_harness.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace hxemu::sysc {

namespace {

// Sense-reversing spin barrier: cheap next to a cycle of hundreds of verilated blocks.
class SpinBarrier {
 public:
  explicit SpinBarrier(int n) : n_(n), left_(n) {}
  void wait() {
    const bool sense = sense_.load(std::memory_order_relaxed);
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      left_.store(n_, std::memory_order_relaxed);
      sense_.store(!sense, std::memory_order_release);
    } else {
      // Spin (the other threads are a cycle of work away at most); yield only if that takes
      // unusually long, e.g. when the machine is oversubscribed.
      for (int spins = 0; sense_.load(std::memory_order_acquire) == sense; ++spins) {
        if (spins > 20000) std::this_thread::yield();
#if defined(__x86_64__) || defined(__i386__)
        else __builtin_ia32_pause();
#endif
      }
    }
  }

 private:
  const int n_;
  std::atomic<int> left_;
  std::atomic<bool> sense_{false};
};

class ParallelHarness final : public Harness {
 public:
  ParallelHarness(System& sys, int threads) : sys_(sys) {
    // Balance partitions over the threads by a cost estimate: a block's ports.
    std::vector<std::pair<int, const System::Partition*>> parts;
    for (const auto& p : sys.partitions()) {
      int w = 0;
      for (int b : p.blocks) w += 1 + sys.net().block(b).ports();
      parts.push_back({w, &p});
    }
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    threads = std::max(1, std::min<int>(threads, static_cast<int>(parts.size())));
    groups_.resize(threads);
    std::vector<int> load(threads, 0);
    for (const auto& [w, p] : parts) {
      const int t = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
      load[t] += w;
      groups_[t].insert(groups_[t].end(), p->blocks.begin(), p->blocks.end());
    }
    for (auto& g : groups_) std::sort(g.begin(), g.end());
  }

  void run(std::uint64_t cycles) override {
    if (cycles == 0) return;
    const int t = static_cast<int>(groups_.size());
    if (t == 1) {
      for (std::uint64_t i = 0; i < cycles; ++i) sys_.net().step();
      return;
    }
    SpinBarrier barrier(t);
    Network& net = sys_.net();
    const std::uint64_t start = net.now();
    auto worker = [&](int id) {
      for (std::uint64_t c = 0; c < cycles; ++c) {
        const std::uint64_t now = start + c;
        for (int b : groups_[id]) net.step_block(b, now);
        barrier.wait();
        if (id == 0) net.set_now(now + 1);
        barrier.wait();
      }
    };
    std::vector<std::thread> pool;
    for (int id = 1; id < t; ++id) pool.emplace_back(worker, id);
    worker(0);
    for (auto& th : pool) th.join();
  }

  const char* name() const override { return "parallel C++"; }

 private:
  System& sys_;
  std::vector<std::vector<int>> groups_;
};

}  // namespace

std::unique_ptr<Harness> make_parallel_harness(System& sys, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::make_unique<ParallelHarness>(sys, threads);
}

}  // namespace hxemu::sysc
