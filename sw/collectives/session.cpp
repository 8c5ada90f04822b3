#include "sw/collectives/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <tuple>

#include "sw/collectives/communicator.h"
#include "sw/collectives/hierarchical.h"
#include "sw/collectives/libra_estimate.h"
#include "sysc/dist/ranks.h"
#include "sysc/util/fnv_digest.h"
#include "sw/collectives/reference.h"
#include "sysc/system/route_model.h"

namespace hxemu::sw {

namespace {

std::string mib(std::uint64_t b) {
  char buf[32];
  if (b >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1ull << 30));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
  }
  return buf;
}

// Blocks, links and harness per node, with margin (measured, largest resident size of 4 KiB ring
// allreduces: ~1 MiB per node on hx2mesh-16, ~0.6 MiB on hx2mesh-64, ~0.7 MiB on hx4mesh-1024).
constexpr std::uint64_t kSystemBytesPerNode = 1ull << 20;
constexpr std::uint64_t kBytesPerOp = 96;           // stored Op, dependencies, host state, vector slack
constexpr std::uint64_t kBytesPerRingOp = 2;        // an op of a ring phase: its host state only
constexpr std::uint64_t kBytesPerRoute = 128;       // map entry and its path's links

}  // namespace

std::string SessionMemory::detail() const {
  const auto n = static_cast<std::uint64_t>(std::max(nodes, 1));
  return std::to_string(nodes) + " nodes x (" + mib(host / n) + " host memory + " + mib(schedule / n) +
         " schedule + " + mib(routes / n) + " routes + " + mib(system / n) + " emulated blocks)";
}

SessionMemory estimate_session_memory(const sysc::SystemConfig& cfg, const SessionConfig& s,
                                      std::uint32_t chunk_bytes, int collectives) {
  SessionMemory m;
  m.nodes = cfg.nodes();
  const auto nodes = static_cast<std::uint64_t>(m.nodes);
  const std::uint64_t bytes = std::max<std::uint64_t>(s.max_bytes, 4);
  // Host memory: three buffers per node (as BufferLayout::for_bytes lays them out, which refuses
  // what 32-bit host addresses cannot hold; here only the size matters).
  const std::uint64_t padded = (bytes + 4095) / 4096 * 4096;
  m.host = nodes * (3 * padded + 4096);
  // Automatic chunks (algorithms.cpp): an eighth of a segment, 1 KiB..64 KiB; the smallest
  // segments are a quarter of the buffer split among the ranks.
  const std::uint64_t chunk =
      chunk_bytes ? chunk_bytes : std::clamp<std::uint64_t>(bytes / (4 * nodes) / 8, 1024, 65536);
  // Per collective and node: stored ops per chunk (pipelined algorithms) and per peer (alltoall:
  // a put and a receive each), and the ring phases' ops, ~24 per node of the ring (4 rings of a
  // Hamiltonian allreduce, 5 ops per step), which keep only their host state
  // (sw/runtime/ring_phase.h).
  const auto per = static_cast<std::uint64_t>(std::max(collectives, 1));
  const std::uint64_t stored = per * (6 * ((bytes + chunk - 1) / chunk) + 2 * nodes);
  const std::uint64_t ring = per * 24 * nodes;
  m.schedule = nodes * (stored * kBytesPerOp + ring * kBytesPerRingOp);
  m.routes = nodes * nodes * static_cast<std::uint64_t>(std::max(s.rails, 1)) * kBytesPerRoute;
  m.system = nodes * kSystemBytesPerNode;
  return m;
}

CollectiveSession::CollectiveSession(const sysc::SystemConfig& cfg, const SessionConfig& s)
    : cfg_(cfg), s_(s) {
  // Host memory for the largest collective: on a multidim platform the hierarchical algorithms'
  // scratch banks (allocated in pages on first write, so only what a run touches costs memory).
  BufferLayout layout = BufferLayout::for_bytes(s.max_bytes);
  if (cfg.topology == sysc::Topology::kMultidim) {
    std::vector<Communicator::Dim> dims;
    for (const auto& d : cfg.md_dims) dims.push_back({d.size, d.kind});
    layout = BufferLayout::with_banks(s.max_bytes, hierarchical_banks(dims),
                                      hierarchical_bank_bytes(s.max_bytes / 4, cfg.nodes()));
  }
  nics_ = std::make_unique<sysc::NicFactory>(s.rails, layout.memory_bytes, s.memory_latency);
  sys_ = std::make_unique<sysc::System>(cfg, *nics_);
  rails_ = sys_->rails();
  comms_ = make_groups(*sys_, s.group);
  for (int n = 0; n < sys_->nodes(); ++n) routes_.push_back(sys_->route_of(n));
  HostCpuConfig hc;
  hc.type = s.type;
  hc.reduce_cycles_per_byte = s.reduce_cycles_per_byte > 0 ? s.reduce_cycles_per_byte
                                                           : 8.0 / cfg.flit_bits;
  for (int n = 0; n < sys_->nodes(); ++n) {
    nics_->memory(n).limit_bandwidth(s.memory_bytes_per_cycle);
    std::vector<sysc::NicNode*> rails;
    for (int r = 0; r < rails_; ++r) rails.push_back(&nics_->nic(n, r));
    auto host = std::make_unique<HostCpu>(n, rails, nics_->memory(n), routes_, sys_->node_clock(n), hc);
    hosts_.push_back(host.get());
    sys_->add_node_block(n, std::move(host), "node" + std::to_string(n) + ".host");
  }
  harness_ = s.harness(*sys_);
}

CollectiveSession::~CollectiveSession() = default;

BufferLayout CollectiveSession::layout_for(const std::vector<Communicator>& comms, const std::string& algo,
                                          std::uint64_t bytes) const {
  if (cfg_.topology != sysc::Topology::kMultidim || algo != "hierarchical") return BufferLayout::for_bytes(bytes);
  int banks = 2, ranks = 1;
  for (const auto& c : comms) {
    banks = std::max(banks, hierarchical_banks(c.dims));
    ranks = std::max(ranks, c.size());
  }
  return BufferLayout::with_banks(bytes, banks, hierarchical_bank_bytes(bytes / 4, ranks));
}

CollectiveResult CollectiveSession::run(CollectiveOp op, const std::string& algo, std::uint64_t bytes,
                                        BuildOptions opt) {
  return run_on(comms_, op, algo, bytes, opt);
}

CollectiveResult CollectiveSession::run_on(const std::vector<Communicator>& comms, CollectiveOp op,
                                           const std::string& algo, std::uint64_t bytes, BuildOptions opt) {
  const auto wall0 = std::chrono::steady_clock::now();
  CollectiveResult res;
  res.op = op_name(op);
  res.algo = find_algorithm(op, algo).name;   // reports show the name, not an alias
  res.type = s_.type == DataType::kInt32 ? "int32" : "float32";
  res.bytes = bytes;
  if (bytes % 4 != 0 || bytes == 0) throw std::invalid_argument("collective size must be a positive multiple of 4 bytes, got " + std::to_string(bytes));
  if (bytes > s_.max_bytes) throw std::invalid_argument("collective size " + std::to_string(bytes) + " exceeds the session's largest size " + std::to_string(s_.max_bytes));
  res.count = bytes / 4;
  res.ranks = comms.front().size();
  res.communicators = static_cast<int>(comms.size());
  opt.count = res.count;
  opt.rails = rails_;

  const BufferLayout layout = layout_for(comms, res.algo, bytes);
  ScheduleBuilder b(sys_->nodes(), layout);
  build_collective(b, op, algo, comms, opt);

  DataSpec d;
  d.op = op;
  d.type = s_.type;
  d.count = res.count;
  d.seed = s_.seed ^ (bytes * 0x9E3779B97F4A7C15ull);
  d.root = opt.root;
  for (const auto& c : comms) {
    for (int r = 0; r < c.size(); ++r) {
      if (sys_->owns_node(c.nodes[r])) write_inputs(nics_->memory(c.nodes[r]), layout, d, c, r);
    }
  }

  // The bound: bytes each link carries under this schedule and the system's routing.
  auto& net = sys_->net();
  std::vector<std::uint64_t> link_bytes(net.links(), 0);
  // Adaptive up-port choices in two-level trees are spread evenly: each put's bytes go in equal
  // shares over the paths through every up port (and, with adaptive board routing, over every
  // minimal route the routers may choose).
  const int spread = sysc::adaptive_up_choices(*sys_);
  std::vector<double> load(net.links(), 0.0);
  std::map<std::tuple<int, int, int>, std::vector<int>> path_links;   // all spread paths' links
  for (int node = 0; node < sys_->nodes(); ++node) {
    const Program& prog = b.at(node);
    for (int i = 0; i < prog.size(); ++i) {
      const Op o = prog.op(i);
      if (o.kind != OpKind::kPut) continue;
      ++res.puts;
      if (cfg_.adaptive) {
        // Adaptive board routers: every minimal route a router may choose, split evenly at each
        // choice (the router picks by credits; an even split is the balanced ideal).
        std::string err;
        const double len = static_cast<double>(o.len);
        if (!sysc::spread_path_links(*sys_, node, o.peer, o.rail,
                                     [&](int l, double share) { load[l] += len * share; }, err)) {
          throw std::logic_error(err);
        }
        continue;
      }
      auto key = std::make_tuple(node, o.peer, static_cast<int>(o.rail));
      auto it = path_links.find(key);
      if (it == path_links.end()) {
        std::vector<int> links;
        for (int u = 0; u < spread; ++u) {
          const auto path = sysc::trace_path(*sys_, node, o.peer, o.rail, u);
          if (!path.ok) throw std::logic_error(path.error);
          links.push_back(net.link_out({sys_->terminal_block(node, o.rail), 0}));
          for (const auto& h : path.hops) links.push_back(h.link_out);
        }
        it = path_links.emplace(key, std::move(links)).first;
      }
      for (int l : it->second) load[l] += static_cast<double>(o.len) / spread;
    }
  }
  for (int l = 0; l < net.links(); ++l) link_bytes[l] = static_cast<std::uint64_t>(load[l] + 0.5);
  int busiest = 0;
  for (int l = 0; l < net.links(); ++l) {
    if (link_bytes[l] > link_bytes[busiest]) busiest = l;
  }
  const double bytes_per_cycle = cfg_.flit_bits / 8.0;
  res.bound_cycles = static_cast<std::uint64_t>(static_cast<double>(link_bytes[busiest]) / bytes_per_cycle);
  {
    const auto& info = net.link_info(busiest);
    res.busiest_link = net.block_name(info.from.block) + "." + std::to_string(info.from.port) + " -> " +
                       net.block_name(info.to.block) + "." + std::to_string(info.to.port);
  }

  const std::uint64_t ticks0 = net.ticks_done(), skipped0 = net.ticks_skipped();
  const auto finish = execute(b, res.errors);
  res.block_ticks = sysc::Ranks::sum(net.ticks_done() - ticks0);
  res.block_ticks_skipped = sysc::Ranks::sum(net.ticks_skipped() - skipped0);
  std::uint64_t end = 0;
  for (auto f : finish) end = std::max(end, f);
  res.cycles = end;
  if (sys_->any_error()) res.errors.push_back("a block flagged a credit-protocol error");

  CheckResult check;
  for (const auto& c : comms) {
    // Built for the first member this process checks (empty, and free to build again, for an op
    // that does not reduce).
    std::vector<std::uint32_t> reduced;
    for (int r = 0; r < c.size(); ++r) {
      if (!sys_->owns_node(c.nodes[r])) continue;
      if (reduced.empty()) reduced = reduced_reference(d, c);
      check_result(nics_->memory(c.nodes[r]), layout, d, c, r, reduced, check);
    }
  }
  merge_ranks(check);   // under mpirun each rank checked the nodes it steps
  res.result_digest = result_digest(layout, bytes);
  res.checked = check.checked;
  res.wrong = check.wrong;
  if (check.wrong) res.errors.push_back(std::to_string(check.wrong) + " wrong elements; first: " + check.first_wrong);

  const double seconds = static_cast<double>(res.cycles) / (cfg_.clock_ghz * 1e9);
  res.microseconds = seconds * 1e6;
  const double factor = busbw_factor(op, res.ranks);
  res.algbw = seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0;
  res.busbw = res.algbw * factor;
  const double bound_seconds = static_cast<double>(link_bytes[busiest]) / bytes_per_cycle / (cfg_.clock_ghz * 1e9);
  res.bound_busbw = bound_seconds > 0 ? static_cast<double>(bytes) / bound_seconds / 1e9 * factor : 0;
  res.bound_fraction = res.bound_busbw > 0 ? res.busbw / res.bound_busbw : 0;
  res.injection = rails_ * cfg_.link_gbps() / 8.0;
  res.injection_fraction = res.busbw / res.injection;
  if (cfg_.topology == sysc::Topology::kMultidim && op != CollectiveOp::kBroadcast && op != CollectiveOp::kSendRecv &&
      comms.size() == 1 && res.ranks == sys_->nodes()) {
    // LIBRA's estimate beside the emulation (one communicator over the whole platform, as LIBRA models).
    const LibraEstimate e = libra_estimate(cfg_, op, bytes);
    res.has_libra = true;
    res.libra_cycles = e.cycles;
    res.libra_ratio = e.cycles > 0 ? static_cast<double>(res.cycles) / e.cycles : 0;
    res.libra_bottleneck = e.dims[e.bottleneck].name;
    std::vector<double> sent(cfg_.md_dims.size(), 0.0);
    for (int l = 0; l < net.links(); ++l) {
      const int d = sys_->md_npu_link_dim(l);
      if (d >= 0) sent[d] += load[l];
    }
    const double n = sys_->nodes();
    for (std::size_t d = 0; d < cfg_.md_dims.size(); ++d) {
      const auto& md = cfg_.md_dims[d];
      CollectiveResult::DimFigure f;
      f.name = md.name;
      f.kind = sysc::dim_kind_name(md.kind);
      f.size = md.size;
      f.lanes = md.lanes;
      f.libra_load_bytes = e.dims[d].load_bytes;
      f.libra_cycles = e.dims[d].cycles;
      f.libra_utilisation = e.cycles > 0 ? e.dims[d].cycles / e.cycles : 0;
      f.sent_bytes_per_npu = sent[d] / n;
      const double capacity = n * md.ports() * bytes_per_cycle * static_cast<double>(res.cycles);
      f.utilisation = capacity > 0 ? sent[d] / capacity : 0;
      res.dims.push_back(f);
    }
  }
  res.ok = res.errors.empty();
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

std::vector<std::uint64_t> CollectiveSession::execute(ScheduleBuilder& b, std::vector<std::string>& errors) {
  // Every host starts its program in the same cycle.
  for (int node = 0; node < sys_->nodes(); ++node) {
    if (sys_->owns_node(node)) {
      b.at(node).shrink_to_fit();   // the host keeps it for the whole run
      hosts_[node]->load(std::move(b.at(node)));
    } else {
      Program discard = std::move(b.at(node));   // another rank runs it
    }
  }
  const std::uint64_t start = now();
  std::uint64_t last_moved = sys_->flits_moved(), last_change = start;
  std::uint64_t last_done = 0;
  while (true) {
    harness_->run(64);
    if (s_.progress && now() >= progress_next_) progress_next_ = s_.progress(now());
    // Hosts this rank steps (all of them in one process); under mpirun the ranks add up.
    std::uint64_t done_hosts = 0;
    for (auto* h : hosts_) done_hosts += sys_->owns_node(h->node()) && h->done() ? 1 : 0;
    done_hosts = sysc::Ranks::sum(done_hosts);
    if (done_hosts == hosts_.size()) break;
    const std::uint64_t moved = sys_->flits_moved();
    if (moved != last_moved || done_hosts != last_done) {
      last_moved = moved;
      last_done = done_hosts;
      last_change = now();
    } else if (now() - last_change > s_.stall_cycles) {
      errors.push_back("no progress for " + std::to_string(now() - last_change) + " cycles");
      for (auto* h : hosts_) {
        if (sys_->owns_node(h->node()) && !h->done()) {
          errors.push_back("node " + std::to_string(h->node()) + " waits for: " + h->waiting_report());
          if (errors.size() > 8) break;
        }
      }
      break;
    }
  }
  std::vector<std::uint64_t> finish;
  for (auto* h : hosts_) {
    if (!sys_->owns_node(h->node())) {
      finish.push_back(0);
      continue;
    }
    finish.push_back(h->finished_at() >= start ? h->finished_at() - start : 0);
    for (const auto& e : h->errors()) errors.push_back(e);
  }
  if (sys_->ranks() > 1) {
    sysc::Ranks::sum(finish);   // each node's finish cycle comes from the rank that stepped it
    std::string mine;
    for (const auto& e : errors) mine += e + '\n';
    errors.clear();
    for (const auto& all : sysc::Ranks::all_gather(mine)) {
      std::size_t from = 0;
      for (std::size_t nl; (nl = all.find('\n', from)) != std::string::npos; from = nl + 1) {
        errors.push_back(all.substr(from, nl - from));
      }
    }
  }
  return finish;
}

// FNV-1a over every node's data buffer, node by node: equal digests mean equal result buffers.
std::string CollectiveSession::result_digest(const BufferLayout& layout, std::uint64_t bytes) const {
  std::vector<std::uint64_t> per_node(static_cast<std::size_t>(sys_->nodes()), 0);
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(bytes));
  for (int n = 0; n < sys_->nodes(); ++n) {
    if (!sys_->owns_node(n)) continue;
    nics_->memory(n).read(layout.data, buf.data(), buf.size());
    sysc::Fnv64 node;
    node.add_bytes(buf.data(), buf.size());
    per_node[n] = node.value();
  }
  if (sys_->ranks() > 1) sysc::Ranks::sum(per_node);   // each node's digest from one rank
  sysc::Fnv64 all;
  for (std::uint64_t v : per_node) all.add(v);
  return all.hex();
}

nlohmann::json CollectiveResult::json() const {
  nlohmann::json j = {{"op", op},
          {"algo", algo},
          {"type", type},
          {"bytes", bytes},
          {"count", count},
          {"ranks", ranks},
          {"communicators", communicators},
          {"cycles", cycles},
          {"time_us", microseconds},
          {"algbw_GBps", algbw},
          {"busbw_GBps", busbw},
          {"bound_busbw_GBps", bound_busbw},
          {"bound_fraction", bound_fraction},
          {"bound_cycles", bound_cycles},
          {"busiest_link", busiest_link},
          {"injection_GBps", injection},
          {"injection_fraction", injection_fraction},
          {"puts", puts},
          {"checked", checked},
          {"wrong", wrong},
          {"ok", ok},
          {"result_digest", result_digest},
          {"errors", errors},
          {"wall_seconds", wall_seconds},
          {"block_ticks", block_ticks},
          {"block_ticks_skipped", block_ticks_skipped}};
  if (has_libra) {
    nlohmann::json dj = nlohmann::json::array();
    for (const auto& d : dims) {
      dj.push_back({{"name", d.name}, {"kind", d.kind}, {"size", d.size}, {"lanes", d.lanes},
                    {"libra_load_bytes", d.libra_load_bytes}, {"libra_cycles", d.libra_cycles},
                    {"libra_utilisation", d.libra_utilisation}, {"sent_bytes_per_npu", d.sent_bytes_per_npu},
                    {"utilisation", d.utilisation}});
    }
    j["libra"] = {{"estimate_cycles", libra_cycles}, {"emulated_cycles", cycles}, {"ratio", libra_ratio},
                  {"bottleneck", libra_bottleneck}, {"dims", dj}};
  }
  return j;
}

}  // namespace hxemu::sw
