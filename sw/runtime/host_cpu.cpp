#include "sw/runtime/host_cpu.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace hxemu::sw {

HostCpu::HostCpu(int node, std::vector<sysc::NicNode*> rails, sysc::HostMemory& memory,
                 const std::vector<std::uint32_t>& routes, const std::uint64_t* clock,
                 const HostCpuConfig& cfg)
    : node_(node), rails_(std::move(rails)), mem_(memory), routes_(routes), clock_(clock), cfg_(cfg) {
  tx_wait_.resize(rails_.size());
  tx_head_.assign(rails_.size(), 0);
  engines_.resize(rails_.size());
}

void HostCpu::error(const std::string& what) {
  if (errors_.size() < 20) errors_.push_back("node " + std::to_string(node_) + ": " + what);
}

void HostCpu::load(Program p) {
  prog_ = std::move(p);
  const auto& ops = prog_.ops();
  const auto& dl = prog_.dep_list();
  const std::size_t n = ops.size();
  missing_.assign(n, 0);
  state_.assign(n, 0);
  dep_start_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    missing_[i] = ops[i].deps;
    for (std::uint32_t k = 0; k < ops[i].deps; ++k) ++dep_start_[dl[ops[i].first_dep + k] + 1];
  }
  for (std::size_t i = 0; i < n; ++i) dep_start_[i + 1] += dep_start_[i];
  dependents_.assign(dep_start_[n], 0);
  std::vector<std::uint32_t> fill(dep_start_.begin(), dep_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t k = 0; k < ops[i].deps; ++k) {
      dependents_[fill[dl[ops[i].first_dep + k]]++] = static_cast<std::uint32_t>(i);
    }
  }
  for (auto& ops_of_rail : tx_wait_) ops_of_rail.clear();
  std::fill(tx_head_.begin(), tx_head_.end(), 0);
  recv_wait_.clear();
  early_.clear();
  for (auto& e : engines_) e = Engine{};
  ready_.clear();
  finished_ = 0;
  started_ = *clock_;
  finished_at_ = started_;
  for (std::size_t i = 0; i < n; ++i) {
    if (missing_[i] == 0) ready_.push_back(static_cast<int>(i));
    if (ops[i].rail >= rails_.size() && ops[i].kind != OpKind::kJoin) {
      error("op " + std::to_string(i) + " uses rail " + std::to_string(ops[i].rail) +
            ", the node has " + std::to_string(rails_.size()));
    }
  }
}

void HostCpu::finish(int op) {
  state_[op] = 2;
  ++finished_;
  finished_at_ = *clock_;
  for (std::uint32_t k = dep_start_[op]; k < dep_start_[op + 1]; ++k) {
    const std::uint32_t d = dependents_[k];
    if (--missing_[d] == 0) ready_.push_back(static_cast<int>(d));
  }
}

void HostCpu::run_engine_op(int id) {
  const Op& op = prog_.ops()[id];
  std::uint8_t* m = mem_.data();
  if (static_cast<std::size_t>(op.dst) + op.len > mem_.size() ||
      static_cast<std::size_t>(op.src) + op.len > mem_.size()) {
    error("reduce/copy outside host memory");
    return;
  }
  if (op.kind == OpKind::kCopy) {
    std::memmove(m + op.dst, m + op.src, op.len);
    return;
  }
  const std::uint32_t n = op.len / 4;
  if (cfg_.type == DataType::kInt32) {
    for (std::uint32_t i = 0; i < n; ++i) {
      std::int32_t a, b;
      std::memcpy(&a, m + op.dst + 4 * i, 4);
      std::memcpy(&b, m + op.src + 4 * i, 4);
      const std::int32_t c = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
      std::memcpy(m + op.dst + 4 * i, &c, 4);
    }
  } else {
    for (std::uint32_t i = 0; i < n; ++i) {
      float a, b;
      std::memcpy(&a, m + op.dst + 4 * i, 4);
      std::memcpy(&b, m + op.src + 4 * i, 4);
      const float c = a + b;
      std::memcpy(m + op.dst + 4 * i, &c, 4);
    }
  }
}

void HostCpu::start(int id) {
  const Op& op = prog_.ops()[id];
  state_[id] = 1;
  switch (op.kind) {
    case OpKind::kJoin:
      finish(id);
      break;
    case OpKind::kPut: {
      sysc::NicCommand c;
      c.dst = static_cast<std::uint16_t>(op.peer);
      c.src_addr = op.src;
      c.dst_addr = op.dst;
      c.len = op.len;
      c.tag = op.tag;
      c.route = routes_.at(static_cast<std::size_t>(op.peer));
      rails_[op.rail]->post(c);
      tx_wait_[op.rail].push_back(id);
      break;
    }
    case OpKind::kRecv: {
      const std::uint64_t k = key(op.rail, op.peer, op.tag);
      auto it = early_.find(k);
      if (it != early_.end()) {
        if (--it->second == 0) early_.erase(it);
        finish(id);
      } else {
        recv_wait_.emplace(k, id);
      }
      break;
    }
    case OpKind::kReduce:
    case OpKind::kCopy:
      engines_[op.rail].queue.push_back(id);
      break;
  }
}

void HostCpu::tick() {
  const std::uint64_t now = *clock_;
  // Completions delivered before this cycle.
  for (std::size_t r = 0; r < rails_.size(); ++r) {
    sysc::TxCompletion t;
    while (rails_[r]->pop_tx(t)) {
      auto& q = tx_wait_[r];
      if (tx_head_[r] >= q.size()) {
        error("TX completion (tag " + std::to_string(t.tag) + ") for no posted put on rail " + std::to_string(r));
        continue;
      }
      const int id = q[tx_head_[r]++];
      const Op& op = prog_.ops()[id];
      if (op.tag != t.tag || op.peer != t.dst) {
        error("TX completion out of order on rail " + std::to_string(r));
      }
      finish(id);
    }
    sysc::RxCompletion c;
    while (rails_[r]->pop_rx(c)) {
      const std::uint64_t k = key(static_cast<int>(r), c.src, c.tag);
      auto it = recv_wait_.find(k);
      if (it != recv_wait_.end()) {
        const int id = it->second;
        recv_wait_.erase(it);
        finish(id);
      } else {
        ++early_[k];
      }
    }
  }
  // Reduction engines.
  for (auto& e : engines_) {
    if (e.op >= 0 && e.busy_until <= now) {
      run_engine_op(e.op);
      const int id = e.op;
      e.op = -1;
      finish(id);
    }
  }
  // Start whatever is ready (finishing ops may make more ready at once).
  while (!ready_.empty()) {
    const int id = ready_.back();
    ready_.pop_back();
    start(id);
  }
  for (auto& e : engines_) {
    if (e.op < 0 && e.queue_head < e.queue.size()) {
      e.op = e.queue[e.queue_head++];
      const Op& op = prog_.ops()[e.op];
      e.busy_until = now + std::max<std::uint64_t>(
                               1, static_cast<std::uint64_t>(std::ceil(op.len * cfg_.reduce_cycles_per_byte)));
    }
  }
}

bool HostCpu::idle() const {
  if (!ready_.empty()) return false;
  for (const auto& e : engines_) {
    if (e.op >= 0 || e.queue_head < e.queue.size()) return false;
  }
  for (const auto* r : rails_) {
    if (r->has_completion()) return false;
  }
  return true;
}

std::string HostCpu::waiting_report(std::size_t max_items) const {
  std::ostringstream os;
  std::size_t shown = 0;
  const auto& ops = prog_.ops();
  for (std::size_t i = 0; i < ops.size() && shown < max_items; ++i) {
    if (state_[i] != 1) continue;
    const Op& op = ops[i];
    ++shown;
    os << (shown > 1 ? "; " : "");
    switch (op.kind) {
      case OpKind::kPut: os << "put to " << op.peer << " tag " << op.tag << " rail " << int(op.rail); break;
      case OpKind::kRecv: os << "recv from " << op.peer << " tag " << op.tag << " rail " << int(op.rail); break;
      case OpKind::kReduce: os << "reduce"; break;
      case OpKind::kCopy: os << "copy"; break;
      case OpKind::kJoin: os << "join"; break;
    }
  }
  return os.str();
}

}  // namespace hxemu::sw
