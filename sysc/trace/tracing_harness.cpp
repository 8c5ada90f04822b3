#include "sysc/trace/tracing_harness.h"

#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sysc/trace/fst_file.h"
#include "sysc/trace/trace_selection.h"
#include "sysc/trace/trace_target.h"

namespace hxemu::sysc {

namespace {

class TracingHarness final : public Harness {
 public:
  TracingHarness(std::unique_ptr<Harness> inner, System& sys, TraceRequest req,
                 std::vector<TracedBlockRef> blocks)
      : inner_(std::move(inner)), sys_(sys), req_(std::move(req)), file_(req_.path, gtkw_path_for(req_.path)) {
    for (auto& b : blocks) {
      targets_.push_back(b.target);
      scopes_.push_back(std::move(b.name));
    }
  }

  // A run that ends inside the window still gets its waveform (up to where it ended); one that
  // ends before the window gets a warning instead; one that ends in an error gets nothing (the
  // FstFile removes what it wrote).
  ~TracingHarness() override {
    if (std::uncaught_exceptions() > 0) return;
    const std::uint64_t now = sys_.net().now();
    if (state_ == State::kRecording) {
      std::fprintf(stderr, "hxemu: note: the run ended at cycle %llu, inside --trace-cycles %llu:%llu\n",
                   static_cast<unsigned long long>(now), static_cast<unsigned long long>(req_.first_cycle),
                   static_cast<unsigned long long>(req_.end_cycle));
      try {
        finish(now);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "hxemu: error: %s\n", e.what());
      }
    } else if (state_ == State::kBefore) {
      std::fprintf(stderr,
                   "hxemu: warning: the run ended at cycle %llu, before --trace-cycles %llu:%llu began; "
                   "no waveform written\n",
                   static_cast<unsigned long long>(now), static_cast<unsigned long long>(req_.first_cycle),
                   static_cast<unsigned long long>(req_.end_cycle));
    }
  }

  void run(std::uint64_t cycles) override {
    std::uint64_t now = sys_.net().now();
    const std::uint64_t end = now + cycles;
    while (now < end) {
      if (state_ == State::kDone || now >= req_.end_cycle) {
        inner_->run(end - now);
        return;
      }
      if (now < req_.first_cycle) {
        const std::uint64_t k = std::min(end, req_.first_cycle) - now;
        inner_->run(k);
        now += k;
        continue;
      }
      if (state_ == State::kBefore) {
        file_.open(targets_);
        state_ = State::kRecording;
      }
      inner_->run(1);
      dump(now);
      ++now;
      if (now == req_.end_cycle) finish(now);
    }
  }

  const char* name() const override { return inner_->name(); }

 private:
  enum class State { kBefore, kRecording, kDone };

  // Cycle `c` has just been stepped by every block.
  void dump(std::uint64_t c) {
    for (TraceTarget* t : targets_) t->clock_high();
    file_.dump(2 * c);
    for (TraceTarget* t : targets_) t->clock_low();
    file_.dump(2 * c + 1);
  }

  void finish(std::uint64_t reached) {
    state_ = State::kDone;
    file_.finish(scopes_, 2 * req_.first_cycle);
    std::fprintf(stderr,
                 "hxemu: waveform %s: %zu block%s, cycles %llu..%llu at FST time 2 x cycle; GTKWave save "
                 "file %s\n",
                 req_.path.c_str(), scopes_.size(), scopes_.size() == 1 ? "" : "s",
                 static_cast<unsigned long long>(req_.first_cycle), static_cast<unsigned long long>(reached - 1),
                 gtkw_path_for(req_.path).c_str());
  }

  std::unique_ptr<Harness> inner_;
  System& sys_;
  TraceRequest req_;
  FstFile file_;
  std::vector<TraceTarget*> targets_;
  std::vector<std::string> scopes_;
  State state_ = State::kBefore;
};

}  // namespace

HarnessFactory with_waveform(HarnessFactory inner, const TraceRequest& req) {
  if (!req.active()) return inner;
  auto built = std::make_shared<bool>(false);
  return [inner = std::move(inner), req, built](System& sys) -> std::unique_ptr<Harness> {
    if (*built) throw std::logic_error("--trace records one system, and this command built a second");
    *built = true;
    auto blocks = install_traced_blocks(sys, select_traced_blocks(sys, req));
    return std::make_unique<TracingHarness>(inner(sys), sys, req, std::move(blocks));
  };
}

}  // namespace hxemu::sysc
