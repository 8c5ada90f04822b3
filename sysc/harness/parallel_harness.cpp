#include "sysc/harness/parallel_harness.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <chrono>
#include <thread>
#include <vector>

namespace hxemu::sysc {

namespace {

// Sense-reversing barrier: the last thread to arrive runs `last` (advancing the clock) and
// releases the others. Waiters spin briefly -- the others are at most a cycle of work away -- then
// block on a condition variable, so an oversubscribed machine does not burn the waiters' time.
class Barrier {
 public:
  explicit Barrier(int n) : n_(n), left_(n) {}

  template <class F>
  void wait(F&& last) {
    const bool sense = sense_.load(std::memory_order_relaxed);
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      last();
      left_.store(n_, std::memory_order_relaxed);
      {
        std::lock_guard<std::mutex> lock(mu_);
        sense_.store(!sense, std::memory_order_release);
      }
      cv_.notify_all();
      return;
    }
    for (int spins = 0; spins < 4000; ++spins) {
      if (sense_.load(std::memory_order_acquire) != sense) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return sense_.load(std::memory_order_acquire) != sense; });
  }

 private:
  const int n_;
  std::atomic<int> left_;
  std::atomic<bool> sense_{false};
  std::mutex mu_;
  std::condition_variable cv_;
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

  ~ParallelHarness() override {
    if (pool_.empty()) return;
    job_cycles_ = 0;
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    for (auto& th : pool_) th.join();
  }

  void run(std::uint64_t cycles) override {
    if (cycles == 0) return;
    if (groups_.size() == 1) {
      for (std::uint64_t i = 0; i < cycles; ++i) sys_.net().step();
      return;
    }
    if (pool_.empty()) start_pool();
    // Hand the job to the workers (they wait for the generation to change), take part as
    // worker 0, and return when all have passed the last cycle's barrier.
    job_start_ = sys_.net().now();
    job_cycles_ = cycles;
    generation_.fetch_add(1, std::memory_order_acq_rel);
    work(0);
  }

  const char* name() const override { return "parallel C++"; }

 private:
  // Worker `id`'s share of the current job: its blocks, every cycle, in lockstep with the others.
  void work(int id) {
    Network& net = sys_.net();
    for (std::uint64_t c = 0; c < job_cycles_; ++c) {
      const std::uint64_t now = job_start_ + c;
      for (int b : groups_[id]) net.step_block(b, now);
      barrier_->wait([&net, now] { net.set_now(now + 1); });
    }
  }

  void start_pool() {
    barrier_ = std::make_unique<Barrier>(static_cast<int>(groups_.size()));
    // The generation before the first job, read here: a thread that starts late must still see
    // that job as new.
    const std::uint64_t first = generation_.load(std::memory_order_acquire);
    for (std::size_t id = 1; id < groups_.size(); ++id) {
      pool_.emplace_back([this, id, first] {
        std::uint64_t seen = first;
        while (true) {
          // Wait for the next job (spinning briefly, then sleeping: between jobs the main thread
          // checks progress, which is short).
          for (int spins = 0; generation_.load(std::memory_order_acquire) == seen; ++spins) {
            if (spins > 2000) std::this_thread::sleep_for(std::chrono::microseconds(20));
          }
          seen = generation_.load(std::memory_order_acquire);
          if (stop_.load(std::memory_order_acquire)) return;
          work(static_cast<int>(id));
        }
      });
    }
  }

  System& sys_;
  std::vector<std::vector<int>> groups_;
  std::vector<std::thread> pool_;
  std::unique_ptr<Barrier> barrier_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::uint64_t job_start_ = 0;
  std::uint64_t job_cycles_ = 0;
};

}  // namespace

std::unique_ptr<Harness> make_parallel_harness(System& sys, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::make_unique<ParallelHarness>(sys, threads);
}

}  // namespace hxemu::sysc
