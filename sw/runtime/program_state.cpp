#include "sw/runtime/program_state.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace hxemu::sw {

void ProgramState::error(const std::string& what) {
  if (errors_.size() < 20) errors_.push_back("node " + std::to_string(node_) + ": " + what);
}

void ProgramState::load(Program p, int rails, std::uint64_t now) {
  prog_ = std::move(p);
  rails_ = rails;
  const auto& ops = prog_.ops();
  const auto& dl = prog_.dep_list();
  const std::size_t n = ops.size();
  missing_.assign(n, 0);
  state_.assign(n, 0);
  dep_start_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    missing_[i] = prog_.deps_of(i);
    for (std::uint32_t k = 0; k < missing_[i]; ++k) ++dep_start_[dl[ops[i].first_dep + k] + 1];
  }
  for (std::size_t i = 0; i < n; ++i) dep_start_[i + 1] += dep_start_[i];
  dependents_.assign(dep_start_[n], 0);
  std::vector<std::uint32_t> fill(dep_start_.begin(), dep_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t k = 0, m = prog_.deps_of(i); k < m; ++k) {
      dependents_[fill[dl[ops[i].first_dep + k]]++] = static_cast<std::uint32_t>(i);
    }
  }
  tx_wait_.assign(static_cast<std::size_t>(rails), {});
  tx_head_.assign(static_cast<std::size_t>(rails), 0);
  {
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 0; i < n; ++i) {
      if (ops[i].kind == OpKind::kRecv) ids.push_back(static_cast<std::uint32_t>(i));
    }
    auto op_key = [&ops](std::uint32_t i) { return key(ops[i].rail, ops[i].peer, ops[i].tag); };
    std::stable_sort(ids.begin(), ids.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return op_key(a) < op_key(b); });
    recv_key_.resize(ids.size());
    recv_key_.shrink_to_fit();
    for (std::size_t i = 0; i < ids.size(); ++i) recv_key_[i] = op_key(ids[i]);
    recv_id_ = std::move(ids);
    recv_id_.shrink_to_fit();
  }
  early_.clear();
  ready_.clear();
  finished_ = 0;
  started_ = now;
  finished_at_ = now;
  for (std::size_t i = 0; i < n; ++i) {
    if (missing_[i] == 0) ready_.push_back(static_cast<int>(i));
    if (ops[i].rail >= rails && ops[i].kind != OpKind::kJoin) {
      error("op " + std::to_string(i) + " uses rail " + std::to_string(ops[i].rail) +
            ", the node has " + std::to_string(rails));
    }
  }
}

void ProgramState::finish(int op, std::uint64_t now) {
  state_[op] = 2;
  ++finished_;
  finished_at_ = now;
  for (std::uint32_t k = dep_start_[op]; k < dep_start_[op + 1]; ++k) {
    const std::uint32_t d = dependents_[k];
    if (--missing_[d] == 0) ready_.push_back(static_cast<int>(d));
  }
}

bool ProgramState::start(int id, std::uint64_t now) {
  const Op& op = prog_.ops()[id];
  state_[id] = 1;
  if (op.kind != OpKind::kJoin && op.rail >= rails_) return false;   // reported at load; stays stuck
  switch (op.kind) {
    case OpKind::kJoin:
      finish(id, now);
      return false;
    case OpKind::kPut:
      tx_wait_[op.rail].push_back(id);
      return true;
    case OpKind::kRecv: {
      const std::uint64_t k = key(op.rail, op.peer, op.tag);
      auto it = early_.find(k);
      if (it != early_.end()) {
        if (--it->second == 0) early_.erase(it);
        finish(id, now);
      }   // else it waits (state 1) for rx_arrived
      return false;
    }
    case OpKind::kReduce:
    case OpKind::kCopy:
      return true;
  }
  return false;
}

void ProgramState::tx_completed(int rail, const sysc::TxCompletion& t, std::uint64_t now) {
  if (rail < 0 || rail >= rails_) {
    error("TX completion on rail " + std::to_string(rail) + ", which the node does not have");
    return;
  }
  auto& q = tx_wait_[rail];
  if (tx_head_[rail] >= q.size()) {
    error("TX completion (tag " + std::to_string(t.tag) + ") for no posted put on rail " + std::to_string(rail));
    return;
  }
  const int id = q[tx_head_[rail]++];
  const Op& op = prog_.ops()[id];
  if (op.tag != t.tag || op.peer != t.dst) error("TX completion out of order on rail " + std::to_string(rail));
  finish(id, now);
}

void ProgramState::rx_arrived(int rail, const sysc::RxCompletion& c, std::uint64_t now) {
  const std::uint64_t k = key(rail, c.src, c.tag);
  const auto lo = std::lower_bound(recv_key_.begin(), recv_key_.end(), k);
  for (auto it = lo; it != recv_key_.end() && *it == k; ++it) {
    const std::uint32_t id = recv_id_[static_cast<std::size_t>(it - recv_key_.begin())];
    if (state_[id] == 1) {
      finish(static_cast<int>(id), now);
      return;
    }
  }
  ++early_[k];
}

void ProgramState::engine_done(int op, std::uint64_t now) {
  if (op < 0 || op >= prog_.size() || state_[op] != 1) {
    error("reduction-engine completion for op " + std::to_string(op) + ", which is not running");
    return;
  }
  finish(op, now);
}

std::string ProgramState::waiting_report(std::size_t max_items) const {
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
