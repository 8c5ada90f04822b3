#include "sysc/harness/parallel_harness.h"

#include "sysc/dist/link_exchange.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <chrono>
#include <thread>
#include <stdexcept>
#include <string>
#include <vector>

namespace hxemu::sysc {

namespace {

// Sense-reversing barrier: the last thread to arrive runs `last` (advancing the clock) and
// releases the others. Waiters spin briefly -- the others are at most a window of work away -- then
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
  struct Part {
    std::vector<int> blocks;   // in index order
    std::uint64_t span = 1;    // partition_spans
  };

 public:
  ParallelHarness(System& sys, int threads)
      : sys_(sys), window_(lookahead_window(sys)), exchange_(sys) {
    // This rank's partitions, heaviest first by a cost estimate (a block's ports): each window the
    // threads claim them in this order, one at a time, so a thread that is slower in this window
    // (a busier core, a partition with more traffic) simply steps fewer of them, and the last ones
    // claimed are the small ones (longest-processing-time-first). Which thread steps a partition
    // does not change the result: partitions are independent within a window (see the header).
    std::vector<std::pair<int, int>> parts;   // (weight, partition)
    for (std::size_t pi = 0; pi < sys.partitions().size(); ++pi) {
      if (!sys.owns_partition(static_cast<int>(pi))) continue;
      int w = 0;
      for (int b : sys.partitions()[pi].blocks) w += 1 + sys.net().block(b).ports();
      parts.push_back({w, static_cast<int>(pi)});
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    threads = std::max(1, std::min<int>(threads, static_cast<int>(parts.size())));
    threads_ = threads;
    if (exchange_.active() && window_ == 0) throw std::logic_error("parallel harness: ranks joined by a link of no partition");
    const std::vector<std::uint64_t> spans = partition_spans(sys);
    for (const auto& weighed : parts) {
      Part part;
      part.blocks = sys.partitions()[static_cast<std::size_t>(weighed.second)].blocks;
      std::sort(part.blocks.begin(), part.blocks.end());
      part.span = spans[static_cast<std::size_t>(weighed.second)];
      parts_.push_back(std::move(part));
    }
    name_ = "parallel C++, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    if (sys.ranks() > 1) name_ += " x " + std::to_string(sys.ranks()) + " MPI ranks";
    if (threads > 1 || sys.ranks() > 1) name_ += ", window " + std::to_string(window_) + " cycles";
  }

  ~ParallelHarness() override {
    if (pool_.empty()) return;
    job_cycles_ = 0;
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    for (auto& th : pool_) th.join();
  }

  void run(std::uint64_t cycles) override { run_beside(cycles, nullptr); }

  void run_beside(std::uint64_t cycles, const std::function<void()>& beside) override {
    if ((cycles == 0 || threads_ == 1) && beside) {
      Harness::run_beside(cycles, beside);   // first, then the cycles
      return;
    }
    if (cycles == 0) return;
    Network& net = sys_.net();
    if (threads_ == 1 && !exchange_.active()) {
      const std::uint64_t end = net.now() + cycles;
      const std::uint64_t w = window_ > 0 ? window_ : cycles;
      for (std::uint64_t t0 = net.now(); t0 < end; t0 += w) {
        const std::uint64_t t1 = std::min(end, t0 + w);
        for (const Part& part : parts_) step_partition(part, t0, t1);
        net.set_now(t1);
      }
      return;
    }
    if (pool_.empty() && threads_ > 1) start_pool();
    // Hand the job to the workers (they wait for the generation to change), take part as
    // worker 0, and return when all have passed the last window's barrier.
    job_start_ = net.now();
    job_cycles_ = cycles;
    beside_ = threads_ > 1 ? &beside : nullptr;
    beside_error_ = nullptr;
    beside_open_.store(beside_ != nullptr && *beside_, std::memory_order_relaxed);
    if (threads_ > 1) generation_.fetch_add(1, std::memory_order_acq_rel);
    work(0);
    beside_ = nullptr;
    if (beside_error_) std::rethrow_exception(beside_error_);
  }

  const char* name() const override { return name_.c_str(); }
  int threads() const override { return threads_; }

 private:
  // Worker `id`'s part of the current job: window by window, it claims partitions until none is
  // left, steps each through the window, and meets the others at one barrier per window (whose
  // last arrival advances the clock and puts the claim counter back to the first partition).
  void work(int id) {
    Network& net = sys_.net();
    const std::uint64_t end = job_start_ + job_cycles_;
    const std::uint64_t w = window_ > 0 ? window_ : job_cycles_;
    for (std::uint64_t t0 = job_start_; t0 < end; t0 += w) {
      const std::uint64_t t1 = std::min(end, t0 + w);
      // The caller's side work goes to the first thread here; the others meanwhile claim the
      // partitions it would have stepped (it is done before this window's barrier).
      if (t0 == job_start_ && beside_open_.load(std::memory_order_relaxed) &&
          beside_open_.exchange(false, std::memory_order_acq_rel)) {
        try {
          (*beside_)();
        } catch (...) {
          beside_error_ = std::current_exception();
        }
      }
      for (std::size_t k = next_part_.fetch_add(1, std::memory_order_relaxed); k < parts_.size();
           k = next_part_.fetch_add(1, std::memory_order_relaxed)) {
        step_partition(parts_[k], t0, t1);
      }
      if (exchange_.active()) {
        // Only the thread that started MPI talks to the other ranks (MPI_THREAD_FUNNELED).
        if (barrier_) barrier_->wait([] {});
        if (id == 0) exchange_.exchange(t0, t1);
      }
      auto next_window = [this, &net, t1] {
        next_part_.store(0, std::memory_order_relaxed);
        net.set_now(t1);
      };
      if (barrier_) {
        barrier_->wait(next_window);
      } else {
        next_window();
      }
    }
  }

  // Cycles [t0, t1) of one partition: nothing it reads in the window was written in it by another
  // partition (see the header), so any order of partitions, on any thread, gives the same result;
  // and the partition's blocks and links stay in the core's caches for the whole window instead of
  // every partition being swept every cycle. Within the partition, block by block through each span
  // of its cycles (partition_spans), so a block's model is still in the first-level cache for its
  // second cycle; a partition of span 1 cycle by cycle.
  void step_partition(const Part& part, std::uint64_t t0, std::uint64_t t1) {
    Network& net = sys_.net();
    for (std::uint64_t s0 = t0; s0 < t1;) {
      const std::uint64_t s1 = t1 - s0 > part.span ? s0 + part.span : t1;   // (span may be kWholeRun)
      net.step_blocks_through(part.blocks, s0, s1);
      s0 = s1;
    }
  }

  void start_pool() {
    barrier_ = std::make_unique<Barrier>(threads_);
    // The generation before the first job, read here: a thread that starts late must still see
    // that job as new.
    const std::uint64_t first = generation_.load(std::memory_order_acquire);
    for (int id = 1; id < threads_; ++id) {
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
          work(id);
        }
      });
    }
  }

  System& sys_;
  const std::uint64_t window_;
  std::string name_;
  int threads_ = 1;
  std::vector<Part> parts_;   // this rank's partitions, heaviest first
  std::atomic<std::size_t> next_part_{0};   // the next partition to claim in this window
  std::vector<std::thread> pool_;
  LinkExchange exchange_;
  std::unique_ptr<Barrier> barrier_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::uint64_t job_start_ = 0;
  std::uint64_t job_cycles_ = 0;
  const std::function<void()>* beside_ = nullptr;   // run_beside's side work, for this job
  std::atomic<bool> beside_open_{false};            // not yet taken by a thread
  std::exception_ptr beside_error_;
};

}  // namespace

std::uint64_t lookahead_window(const System& sys) {
  const Network& net = sys.net();
  for (int b = 0; b < net.blocks(); ++b) {
    if (sys.partition_of_block(b) < 0) {
      throw std::logic_error("parallel harness: block " + net.block_name(b) + " is in no partition");
    }
  }
  std::uint64_t w = 0;
  for (int l = 0; l < net.links(); ++l) {
    const auto& info = net.link_info(l);
    if (sys.partition_of_block(info.from.block) == sys.partition_of_block(info.to.block)) continue;
    const auto lw = static_cast<std::uint64_t>(net.link(l).latency()) + 1;
    w = w == 0 ? lw : std::min(w, lw);
  }
  return w;
}

std::vector<std::uint64_t> partition_spans(const System& sys) {
  const Network& net = sys.net();
  const auto parts = sys.partitions().size();
  std::vector<std::uint64_t> span(parts, kWholeRun);
  for (int l = 0; l < net.links(); ++l) {
    const auto& info = net.link_info(l);
    const int p = sys.partition_of_block(info.from.block);
    if (p < 0 || p != sys.partition_of_block(info.to.block)) continue;
    auto& s = span[static_cast<std::size_t>(p)];
    s = std::min(s, static_cast<std::uint64_t>(net.link(l).latency()) + 1);
  }
  for (int b = 0; b < net.blocks(); ++b) {
    const int p = sys.partition_of_block(b);
    if (p >= 0 && !net.block(b).links_only()) span[static_cast<std::size_t>(p)] = 1;
  }
  return span;
}

std::unique_ptr<Harness> make_parallel_harness(System& sys, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::make_unique<ParallelHarness>(sys, threads);
}

}  // namespace hxemu::sysc
