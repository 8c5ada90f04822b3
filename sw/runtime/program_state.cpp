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
  const std::size_t n = static_cast<std::size_t>(prog_.size());
  status_.assign(n, kReady);
  many_.clear();
  stored_dependents_.clear();
  phase_watchers_.clear();
  std::vector<std::uint32_t> recv_ids;
  std::size_t stored_edges = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!prog_.phase_of(static_cast<int>(i), nullptr)) stored_edges += prog_.deps_of(static_cast<int>(i));
  }
  stored_dependents_.reserve(stored_edges);
  for (std::size_t i = 0; i < n; ++i) {
    const int id = static_cast<int>(i);
    int base = 0;
    if (const RingPhase* ph = prog_.phase_of(id, &base)) {
      set_missing(i, ph->deps_of(static_cast<std::uint32_t>(id - base)));
      continue;
    }
    std::uint32_t m = 0;
    prog_.for_each_dep(id, [&](int d) {
      ++m;
      stored_dependents_.emplace_back(static_cast<std::uint32_t>(d), static_cast<std::uint32_t>(id));
    });
    set_missing(i, m);
    const Op op = prog_.op(id);
    if (op.kind == OpKind::kRecv) recv_ids.push_back(static_cast<std::uint32_t>(id));
    if (op.rail >= rails && op.kind != OpKind::kJoin) {
      error("op " + std::to_string(i) + " uses rail " + std::to_string(op.rail) + ", the node has " +
            std::to_string(rails));
    }
  }
  // Stable: each dependency's dependents stay in ascending order, as they were appended.
  std::stable_sort(stored_dependents_.begin(), stored_dependents_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t k = 0; k < prog_.phases().size(); ++k) {
    const RingPhase& ph = prog_.phases()[k];
    for (int x : ph.external_deps()) phase_watchers_.emplace_back(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(k));
    if (ph.rail >= rails) {
      error("ring phase at op " + std::to_string(prog_.phase_base(k)) + " uses rail " +
            std::to_string(ph.rail) + ", the node has " + std::to_string(rails));
    }
  }
  std::sort(phase_watchers_.begin(), phase_watchers_.end());
  tx_wait_.assign(static_cast<std::size_t>(rails), {});
  tx_head_.assign(static_cast<std::size_t>(rails), 0);
  {
    auto op_key = [this](std::uint32_t i) {
      const Op op = prog_.op(static_cast<int>(i));
      return key(op.rail, op.peer, op.tag);
    };
    std::vector<std::uint64_t> keys(recv_ids.size());
    for (std::size_t i = 0; i < recv_ids.size(); ++i) keys[i] = op_key(recv_ids[i]);
    std::vector<std::uint32_t> order(recv_ids.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    recv_key_.resize(order.size());
    recv_id_.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      recv_key_[i] = keys[order[i]];
      recv_id_[i] = recv_ids[order[i]];
    }
    recv_key_.shrink_to_fit();
    recv_id_.shrink_to_fit();
  }
  early_.clear();
  ready_.clear();
  finished_ = 0;
  started_ = now;
  finished_at_ = now;
  for (std::size_t i = 0; i < n; ++i) {
    if (status_[i] == kReady) ready_.push_back(static_cast<int>(i));
  }
}

void ProgramState::set_missing(std::size_t i, std::uint32_t missing) {
  if (missing == 0) {
    status_[i] = kReady;
  } else if (missing < kMany - kWaitBase) {
    status_[i] = static_cast<std::uint16_t>(kWaitBase + missing);
  } else {
    status_[i] = kMany;
    many_[static_cast<std::uint32_t>(i)] = missing;
  }
}

void ProgramState::finish(int op, std::uint64_t now) {
  status_[op] = kFinished;
  ++finished_;
  finished_at_ = now;
  // Every op waiting for this one, ascending, as one list over stored ops, the op's own ring phase
  // and ring phases that wait for it from outside (the order decides which becomes ready first).
  std::vector<int>& deps = dependents_scratch_;
  deps.clear();
  const std::uint32_t u = static_cast<std::uint32_t>(op);
  auto lo = std::lower_bound(stored_dependents_.begin(), stored_dependents_.end(), u,
                             [](const auto& e, std::uint32_t v) { return e.first < v; });
  for (auto it = lo; it != stored_dependents_.end() && it->first == u; ++it) deps.push_back(static_cast<int>(it->second));
  int base = 0;
  if (const RingPhase* ph = prog_.phase_of(op, &base)) {
    ph->for_each_internal_dependent(static_cast<std::uint32_t>(op - base), base,
                                    [&deps](int d) { deps.push_back(d); });
  }
  auto w = std::lower_bound(phase_watchers_.begin(), phase_watchers_.end(), std::make_pair(u, 0u));
  for (; w != phase_watchers_.end() && w->first == u; ++w) {
    prog_.phases()[w->second].external_dependents(op, prog_.phase_base(w->second), deps);
  }
  if (deps.size() > 1) std::sort(deps.begin(), deps.end());
  for (int d : deps) {
    std::uint16_t& st = status_[d];
    if (st == kMany) {
      auto it = many_.find(static_cast<std::uint32_t>(d));
      if (--it->second > 0) continue;
      many_.erase(it);
      st = kReady;
    } else if (--st > kWaitBase) {
      continue;
    } else {
      st = kReady;
    }
    ready_.push_back(d);
  }
}

bool ProgramState::start(int id, std::uint64_t now) {
  const Op op = prog_.op(id);
  status_[id] = kRunning;
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
  // The NIC completes puts in the order they finish (rtl/nic/hx_nic_tx.sv interleaves the packets
  // of several messages), so the put is one of the oldest few still waiting: the first with this
  // destination and tag (tags are unique per rail and peer among puts in flight).
  auto& q = tx_wait_[rail];
  std::size_t& head = tx_head_[rail];
  std::size_t i = head;
  for (; i < q.size(); ++i) {
    if (!running(static_cast<std::size_t>(q[i]))) continue;
    const Op op = prog_.op(q[i]);
    if (op.tag == t.tag && op.peer == t.dst) break;
  }
  if (i == q.size()) {
    error("TX completion (destination " + std::to_string(t.dst) + ", tag " + std::to_string(t.tag) +
          ") for no posted put on rail " + std::to_string(rail));
    return;
  }
  finish(q[i], now);
  while (head < q.size() && !running(static_cast<std::size_t>(q[head]))) ++head;
}

void ProgramState::rx_arrived(int rail, const sysc::RxCompletion& c, std::uint64_t now) {
  const std::uint64_t k = key(rail, c.src, c.tag);
  // The first running recv of this key: the lowest id among the stored ones and the ring phases'.
  int best = -1;
  const auto lo = std::lower_bound(recv_key_.begin(), recv_key_.end(), k);
  for (auto it = lo; it != recv_key_.end() && *it == k; ++it) {
    const std::uint32_t id = recv_id_[static_cast<std::size_t>(it - recv_key_.begin())];
    if (running(id)) {
      best = static_cast<int>(id);
      break;
    }
  }
  for (std::size_t p = 0; p < prog_.phases().size(); ++p) {
    const int id = prog_.phases()[p].recv_for(rail, c.src, c.tag, prog_.phase_base(p));
    if (id >= 0 && running(static_cast<std::size_t>(id)) && (best < 0 || id < best)) best = id;
  }
  if (best >= 0) {
    finish(best, now);
    return;
  }
  ++early_[k];
}

void ProgramState::engine_done(int op, std::uint64_t now) {
  if (op < 0 || op >= prog_.size() || !running(static_cast<std::size_t>(op))) {
    error("reduction-engine completion for op " + std::to_string(op) + ", which is not running");
    return;
  }
  finish(op, now);
}

std::string ProgramState::waiting_report(std::size_t max_items) const {
  std::ostringstream os;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < status_.size() && shown < max_items; ++i) {
    if (!running(i)) continue;
    const Op op = prog_.op(static_cast<int>(i));
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
