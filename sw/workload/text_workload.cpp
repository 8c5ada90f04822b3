#include "sw/workload/text_workload.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "sysc/util/input_file.h"
#include "sysc/util/parse_number.h"

namespace hxemu::sw {

namespace {

const std::vector<std::string> kKinds{"DATA", "MODEL", "HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA",
                                      "HYBRID_TRANSFORMER"};
constexpr int kLayerFields = 12;

[[noreturn]] void bad(const std::string& source, int line, const std::string& what) {
  throw std::invalid_argument(source + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> f;
  std::istringstream is(line);
  for (std::string w; is >> w;) f.push_back(w);
  return f;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::uint64_t count_field(const std::string& source, int line, const std::string& field, const std::string& v) {
  const auto n = sysc::parse_uint(v);
  if (!n || *n > (1ull << 50)) {
    bad(source, line, field + " must be a non-negative integer, got '" + v + "'");
  }
  return *n;
}

LayerSpec::Pass pass_of(const std::string& source, int line, const std::string& layer, const char* pass,
                        const std::string& ns, const std::string& type, const std::string& bytes) {
  LayerSpec::Pass p;
  const std::string where = "layer " + layer + " " + pass;
  p.compute_ns = count_field(source, line, where + " compute time (ns)", ns);
  const std::string t = upper(type);
  p.bytes = count_field(source, line, where + " collective size (bytes)", bytes);
  if (t == "NONE") {
    p.bytes = 0;
    return p;
  }
  if (t == "ALLREDUCE") {
    p.op = CollectiveOp::kAllreduce;
  } else if (t == "ALLGATHER") {
    p.op = CollectiveOp::kAllgather;
  } else if (t == "REDUCESCATTER") {
    p.op = CollectiveOp::kReduceScatter;
  } else if (t == "ALLTOALL") {
    p.op = CollectiveOp::kAlltoall;
  } else {
    bad(source, line, where + " collective type '" + type +
                          "' is not one of NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL");
  }
  p.has_comm = p.bytes > 0;
  return p;
}

LayerSpec layer_of(const std::string& source, int line, const std::vector<std::string>& f) {
  if (static_cast<int>(f.size()) != kLayerFields) {
    bad(source, line, "a layer line has exactly 12 fields (name, -1, then compute time, collective type and "
                      "size for forward, input-gradient and weight-gradient, then the update time), got " +
                          std::to_string(f.size()));
  }
  LayerSpec l;
  l.name = f[0];
  l.line = line;
  if (!sysc::parse_int(f[1])) bad(source, line, "layer " + l.name + " field 2 (reserved, -1) must be an integer, got '" + f[1] + "'");
  l.fwd = pass_of(source, line, l.name, "forward", f[2], f[3], f[4]);
  l.ig = pass_of(source, line, l.name, "input-gradient", f[5], f[6], f[7]);
  l.wg = pass_of(source, line, l.name, "weight-gradient", f[8], f[9], f[10]);
  l.update_ns = count_field(source, line, "layer " + l.name + " update time", f[11]);
  return l;
}

int positive_int(const std::string& source, int line, const std::string& key, const std::string& v) {
  const auto n = sysc::parse_uint(v);
  if (!n || *n < 1 || *n > 65536) bad(source, line, key + " must be an integer in 1..65536, got '" + v + "'");
  return static_cast<int>(*n);
}

Parallelism header_of(const std::string& source, int line, const std::vector<std::string>& f) {
  Parallelism p;
  p.kind = upper(f[0]);
  if (std::find(kKinds.begin(), kKinds.end(), p.kind) == kKinds.end()) {
    bad(source, line, "parallelism '" + f[0] + "' is not one of " + parallelism_kinds() +
                          " (or the file starts with a 12-field layer line: LIBRA's headerless form)");
  }
  for (std::size_t i = 1; i < f.size(); i += 2) {
    std::string key = f[i];
    if (key.empty() || key.back() != ':') bad(source, line, "expected 'key: value' after the parallelism, got '" + key + "'");
    key.pop_back();
    if (i + 1 >= f.size()) bad(source, line, key + ": has no value");
    const std::string& v = f[i + 1];
    if (key == "model_parallel_NPU_group") {
      p.tp = positive_int(source, line, key, v);
    } else if (key == "data_parallel_NPU_group") {
      p.dp = positive_int(source, line, key, v);
    } else if (key == "pipeline_stages" || key == "pp") {
      p.pp = positive_int(source, line, key, v);
    } else if (key == "pipeline_bytes") {
      p.pp_bytes = count_field(source, line, key, v);
    } else {
      bad(source, line, "unknown header key '" + key +
                            "' (allowed: model_parallel_NPU_group, data_parallel_NPU_group, pipeline_stages, pp, "
                            "pipeline_bytes)");
    }
  }
  return p;
}

}  // namespace

std::string parallelism_kinds() {
  std::string s;
  for (const auto& k : kKinds) s += (s.empty() ? "" : ", ") + k;
  return s;
}

std::vector<LayerSpec> parse_layers(const std::string& text, const std::string& source, Parallelism* header) {
  std::vector<LayerSpec> layers;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  enum { kStart, kCount, kLayers } state = kStart;
  std::uint64_t expected = 0;
  bool counted = false;
  int count_line = 0;
  Parallelism par;
  par.kind = "HYBRID_DATA_MODEL";   // LIBRA's headerless form (see the header comment)
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto f = fields_of(line);
    if (f.empty() || f[0][0] == '#') continue;
    if (state == kStart) {
      state = kLayers;
      if (static_cast<int>(f.size()) != kLayerFields) {
        par = header_of(source, n, f);
        state = kCount;
        continue;
      }
    } else if (state == kCount) {
      if (f.size() != 1) bad(source, n, "expected the number of layers after the header, got '" + line + "'");
      expected = count_field(source, n, "the number of layers", f[0]);
      counted = true;
      count_line = n;
      state = kLayers;
      continue;
    }
    layers.push_back(layer_of(source, n, f));
    if (counted && layers.size() > expected) {
      bad(source, n, "more layer lines than the " + std::to_string(expected) + " announced on line " +
                         std::to_string(count_line));
    }
  }
  if (state == kCount) bad(source, n, "the header is not followed by the number of layers");
  if (counted && layers.size() != expected) {
    bad(source, n, std::to_string(layers.size()) + " layer lines, but line " + std::to_string(count_line) +
                       " announces " + std::to_string(expected));
  }
  if (layers.empty()) throw std::invalid_argument(source + ": no layer lines (a workload needs at least one layer)");
  if (header) *header = par;
  return layers;
}

TrainingPlan expand_no_overlap(const std::vector<LayerSpec>& layers, const Parallelism& par) {
  const bool data = par.kind == "DATA", model = par.kind == "MODEL";
  const GroupKind activations = data ? GroupKind::kData : GroupKind::kTensor;
  const GroupKind gradients = model ? GroupKind::kTensor : GroupKind::kData;
  const int stages = par.pp;
  const int count = static_cast<int>(layers.size());
  auto stage_of = [&](int i) { return static_cast<int>(static_cast<long long>(i) * stages / count); };
  TrainingPlan plan;
  plan.par = par;
  auto compute = [&](const LayerSpec& l, const char* pass, const LayerSpec::Pass& p, int stage) {
    if (p.compute_ns == 0) return;
    PlanStep s;
    s.kind = PlanStep::Kind::kCompute;
    s.layer = l.name;
    s.pass = pass;
    s.stage = stage;
    s.compute_ns = p.compute_ns;
    plan.steps.push_back(s);
  };
  auto comm = [&](const LayerSpec& l, const char* pass, const LayerSpec::Pass& p, int stage, GroupKind g) {
    if (!p.has_comm) return;
    PlanStep s;
    s.kind = PlanStep::Kind::kCommunication;
    s.layer = l.name;
    s.pass = pass;
    s.stage = stage;
    s.op = p.op;
    s.bytes = p.bytes;
    s.group = g;
    plan.steps.push_back(s);
  };
  auto send = [&](int stage, bool backward) {
    PlanStep s;
    s.kind = PlanStep::Kind::kCommunication;
    s.pass = backward ? "input-gradient" : "forward";
    s.stage = stage;
    s.op = CollectiveOp::kSendRecv;
    s.bytes = par.pp_bytes;
    s.group = GroupKind::kPipeline;
    s.backward = backward;
    plan.steps.push_back(s);
  };
  for (int st = 0; st < stages; ++st) {
    for (int i = 0; i < count; ++i) {
      if (stage_of(i) != st) continue;
      compute(layers[i], "forward", layers[i].fwd, st);
      comm(layers[i], "forward", layers[i].fwd, st, activations);
    }
    if (st + 1 < stages) send(st, false);
  }
  for (int st = stages - 1; st >= 0; --st) {
    for (int i = count - 1; i >= 0; --i) {
      if (stage_of(i) != st) continue;
      compute(layers[i], "input-gradient", layers[i].ig, st);
      comm(layers[i], "input-gradient", layers[i].ig, st, activations);
      compute(layers[i], "weight-gradient", layers[i].wg, st);
      comm(layers[i], "weight-gradient", layers[i].wg, st, gradients);
    }
    if (st > 0) send(st, true);
  }
  return plan;
}

TrainingPlan parse_text_workload(const std::string& text, const std::string& source, const ParallelismOverride& over) {
  Parallelism par;
  const auto layers = parse_layers(text, source, &par);
  if (!over.kind.empty()) {
    par.kind = upper(over.kind);
    if (std::find(kKinds.begin(), kKinds.end(), par.kind) == kKinds.end()) {
      throw std::invalid_argument("--parallelism '" + over.kind + "' is not one of " + parallelism_kinds());
    }
  }
  if (over.tp) par.tp = over.tp;
  if (over.pp) par.pp = over.pp;
  if (over.dp) par.dp = over.dp;
  if (over.pp_bytes) par.pp_bytes = over.pp_bytes;
  if (par.kind == "DATA" && par.tp > 1) {
    throw std::invalid_argument(source + ": parallelism DATA has no tensor groups, but the tensor group size is " +
                                std::to_string(par.tp) + " (use a HYBRID_* kind or MODEL)");
  }
  if (par.pp > static_cast<int>(layers.size())) {
    throw std::invalid_argument(source + ": " + std::to_string(par.pp) + " pipeline stages but only " +
                                std::to_string(layers.size()) + " layers (a stage needs at least one layer)");
  }
  if (par.pp > 1 && (par.pp_bytes == 0 || par.pp_bytes % 4 != 0 || par.pp_bytes > kMaxWorkloadCollectiveBytes)) {
    throw std::invalid_argument(source + ": pipeline_bytes (the activations each accelerator sends to the next "
                                "stage) must be a positive multiple of 4 up to " +
                                std::to_string(kMaxWorkloadCollectiveBytes) + " with " + std::to_string(par.pp) +
                                " pipeline stages, got " + std::to_string(par.pp_bytes));
  }
  TrainingPlan plan = expand_no_overlap(layers, par);
  plan.source = source;
  std::string name = source.substr(source.find_last_of('/') + 1);
  plan.name = name.substr(0, name.find_last_of('.'));
  return plan;
}

TrainingPlan read_text_workload(const std::string& path, const ParallelismOverride& over) {
  return parse_text_workload(sysc::read_input_file(path, "workload file"), path, over);
}

}  // namespace hxemu::sw
