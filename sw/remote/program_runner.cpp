#include "sw/remote/program_runner.h"

#include <unordered_map>

#include "sw/runtime/program_state.h"

namespace hxemu::sw::remote {

namespace {

json op_request(const Op& op, DataType type) {
  switch (op.kind) {
    case OpKind::kPut:
      return {{"req", request_name(RequestKind::kPut)},
              {"rail", op.rail},
              {"peer", op.peer},
              {"src", op.src},
              {"dst", op.dst},
              {"len", op.len},
              {"tag", op.tag}};
    case OpKind::kReduce:
      return {{"req", request_name(RequestKind::kReduce)},
              {"rail", op.rail},
              {"dst", op.dst},
              {"src", op.src},
              {"len", op.len},
              {"dtype", type == DataType::kInt32 ? "int32" : "float32"}};
    default:
      return {{"req", request_name(RequestKind::kCopy)},
              {"rail", op.rail},
              {"dst", op.dst},
              {"src", op.src},
              {"len", op.len}};
  }
}

}  // namespace

RemoteRunResult run_program(Client& c, Program p, DataType type, const std::vector<Event>& initial) {
  RemoteRunResult res;
  ProgramState state(c.node());
  const int rails = c.info().rails;
  std::uint64_t now = c.now();
  state.load(std::move(p), rails, now);
  res.started = now;
  std::unordered_map<std::uint64_t, int> engine_ops;   // server op id -> program op
  auto feed = [&](const std::vector<Event>& events, std::uint64_t at) {
    for (const Event& e : events) {
      switch (e.kind) {
        case EventKind::kPutDone: {
          sysc::TxCompletion t;
          t.tag = e.tag;
          t.dst = static_cast<std::uint16_t>(e.node);
          state.tx_completed(e.rail, t, at);
          break;
        }
        case EventKind::kMessage: {
          sysc::RxCompletion r;
          r.src = static_cast<std::uint16_t>(e.node);
          r.tag = e.tag;
          r.len = e.len;
          state.rx_arrived(e.rail, r, at);
          break;
        }
        case EventKind::kReduceDone:
        case EventKind::kCopyDone: {
          auto it = engine_ops.find(e.op);
          if (it == engine_ops.end()) {
            state.error("completion of op " + std::to_string(e.op) + ", which this program did not issue");
          } else {
            state.engine_done(it->second, at);
            engine_ops.erase(it);
          }
          break;
        }
      }
    }
  };
  feed(initial, now);
  try {
    while (true) {
      std::vector<json> batch;
      std::vector<int> issued;   // program op per request in the batch
      state.start_ready(now, [&](int id, const Op& op) {
        batch.push_back(op_request(op, type));
        issued.push_back(id);
      });
      if (state.done()) {
        if (!batch.empty()) {   // cannot happen: an issued op is not finished
          state.error("ops issued after the program finished");
        }
        break;
      }
      batch.push_back({{"req", request_name(RequestKind::kWait)}, {"for", "any"}});
      const auto replies = c.call_batch(batch);
      res.requests += issued.size();
      ++res.rounds;
      for (std::size_t i = 0; i < issued.size(); ++i) {
        const json& r = replies[i];
        if (!r.value("ok", false)) {
          throw RemoteError(r.value("error", std::string("unknown")),
                            "op " + std::to_string(issued[i]) + ": " + r.value("message", std::string()));
        }
        const Op op = state.program().op(issued[i]);
        if (op.kind != OpKind::kPut) engine_ops.emplace(r.at("op").get<std::uint64_t>(), issued[i]);
      }
      const json& w = replies.back();
      if (!w.value("ok", false)) throw RemoteError(w.value("error", std::string("unknown")), w.value("message", std::string()));
      const WaitResult got = Client::wait_result(w);
      now = got.cycle;
      feed(got.events, now);
      if (!state.errors().empty()) break;
    }
  } catch (const std::exception& e) {
    state.error(std::string("remote: ") + e.what() + (state.done() ? "" : "; waiting for: " + state.waiting_report()));
  }
  res.finished_at = state.finished_at();
  res.errors = state.errors();
  res.ok = state.done() && res.errors.empty();
  return res;
}

}  // namespace hxemu::sw::remote
