#include "sw/runtime/host_engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace hxemu::sw {

HostEngine::HostEngine(std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
                       const std::vector<std::uint32_t>& routes, double reduce_cycles_per_byte)
    : rails_(std::move(rails)), mem_(memory), routes_(routes), cycles_per_byte_(reduce_cycles_per_byte),
      engines_(rails_.size()) {}

std::uint64_t HostEngine::job_cycles(std::uint32_t len) const {
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(len * cycles_per_byte_)));
}

void HostEngine::put(int rail, int peer, std::uint32_t src, std::uint32_t dst, std::uint32_t len,
                     std::uint16_t tag) {
  sysc::NicCommand c;
  c.dst = static_cast<std::uint16_t>(peer);
  c.src_addr = src;
  c.dst_addr = dst;
  c.len = len;
  c.tag = tag;
  c.route = routes_.at(static_cast<std::size_t>(peer));
  rails_.at(static_cast<std::size_t>(rail))->post(c);
}

void HostEngine::submit(int rail, const EngineJob& job) {
  engines_.at(static_cast<std::size_t>(rail)).queue.push_back(job);
}

bool HostEngine::run_job(const EngineJob& job) {
  if (static_cast<std::size_t>(job.dst) + job.len > mem_.size() ||
      static_cast<std::size_t>(job.src) + job.len > mem_.size()) {
    return false;
  }
  // Host memory is paged (allocated on demand): work on copies of the operands.
  thread_local std::vector<std::uint8_t> a_buf, b_buf;
  b_buf.resize(job.len);
  mem_.read(job.src, b_buf.data(), job.len);
  if (job.kind == OpKind::kCopy) {
    mem_.write(job.dst, b_buf.data(), job.len);
    return true;
  }
  a_buf.resize(job.len);
  mem_.read(job.dst, a_buf.data(), job.len);
  std::uint8_t* const da = a_buf.data();
  const std::uint8_t* const sb = b_buf.data();
  const std::uint32_t n = job.len / 4;
  if (job.type == DataType::kInt32) {
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t a, b;
      std::memcpy(&a, da + 4 * i, 4);
      std::memcpy(&b, sb + 4 * i, 4);
      const std::uint32_t c = a + b;   // int32 addition, wrapping
      std::memcpy(da + 4 * i, &c, 4);
    }
  } else {
    for (std::uint32_t i = 0; i < n; ++i) {
      float a, b;
      std::memcpy(&a, da + 4 * i, 4);
      std::memcpy(&b, sb + 4 * i, 4);
      const float c = a + b;
      std::memcpy(da + 4 * i, &c, 4);
    }
  }
  mem_.write(job.dst, da, 4 * static_cast<std::size_t>(n));
  return true;
}

void HostEngine::collect(std::uint64_t now, HostEvents& out) {
  for (std::size_t r = 0; r < rails_.size(); ++r) {
    sysc::TxCompletion t;
    while (rails_[r]->pop_tx(t)) out.tx_done(static_cast<int>(r), t);
    sysc::RxCompletion c;
    while (rails_[r]->pop_rx(c)) out.rx_done(static_cast<int>(r), c);
  }
  for (std::size_t r = 0; r < engines_.size(); ++r) {
    Engine& e = engines_[r];
    if (e.active && e.busy_until <= now) {
      const bool ok = run_job(e.job);
      e.active = false;
      if (e.reserved > 0) mem_.bandwidth()->release(now, e.reserved);
      e.reserved = 0;
      out.job_done(static_cast<int>(r), e.job, ok);
    }
  }
}

void HostEngine::start_engines(std::uint64_t now) {
  for (Engine& e : engines_) {
    if (!e.active && !e.queue.empty()) {
      e.job = e.queue.front();
      e.queue.pop_front();
      e.active = true;
      std::uint64_t cycles = job_cycles(e.job.len);
      if (sysc::MemoryBandwidth* bw = mem_.bandwidth()) {
        const double traffic = static_cast<double>(e.job.len) * (e.job.kind == OpKind::kReduce ? 3 : 2);
        e.reserved = bw->reserve(now, traffic / static_cast<double>(cycles));
        cycles = std::max<std::uint64_t>(cycles, static_cast<std::uint64_t>(std::ceil(traffic / e.reserved)));
      }
      e.busy_until = now + cycles;
    }
  }
  last_now_ = now;
}

bool HostEngine::completions_visible() const {
  for (const auto* r : rails_) {
    if (r->has_completion()) return true;
  }
  return false;
}

bool HostEngine::engines_busy() const {
  for (const auto& e : engines_) {
    if (e.active || !e.queue.empty()) return true;
  }
  return false;
}

void HostEngine::clear_jobs() {
  for (auto& e : engines_) {
    if (e.active && e.reserved > 0) mem_.bandwidth()->release(last_now_, e.reserved);
    e = Engine{};
  }
}

}  // namespace hxemu::sw
