#include "tb/scoreboard.h"

#include <sstream>

namespace hxemu::tb {

namespace {
constexpr std::size_t kMaxErrors = 50;   // keep the report readable
}

void Scoreboard::error(const std::string& what) {
  if (errors_.size() < kMaxErrors) errors_.push_back(what);
}

void Scoreboard::expect(const PacketSpec& p) {
  if (p.id != records_.size()) {
    error("packet ids must be consecutive: got " + std::to_string(p.id));
    return;
  }
  PacketRecord r;
  r.spec = p;
  records_.push_back(r);
}

void Scoreboard::take_from(std::size_t id, std::vector<PacketRecord>& out) {
  out.clear();
  if (id >= records_.size()) return;
  out.assign(records_.begin() + static_cast<std::ptrdiff_t>(id), records_.end());
  records_.resize(id);
}

void Scoreboard::put_back(const std::vector<PacketRecord>& ahead) {
  for (const PacketRecord& r : ahead) {
    if (r.spec.id != records_.size()) {
      error("packet ids must be consecutive: got " + std::to_string(r.spec.id));
      return;
    }
    records_.push_back(r);
  }
}

void Scoreboard::injected(int node, std::uint64_t id, std::uint64_t cycle) {
  if (id >= records_.size()) {
    error("node " + std::to_string(node) + " injected unknown packet " + std::to_string(id));
    return;
  }
  records_[id].injected = cycle;
}

std::string Scoreboard::history(std::uint64_t id) const {
  if (id >= records_.size()) return "packet " + std::to_string(id) + ": unknown";
  const PacketRecord& r = records_[id];
  std::ostringstream os;
  os << "packet " << id << " (" << r.spec.src << " -> " << r.spec.dst << ", " << r.spec.flits
     << " flits): created " << r.spec.created;
  if (r.injected) os << ", head left source " << r.injected;
  else os << ", not injected";
  if (r.deliveries) {
    os << ", delivered to " << r.delivery.dst << " on VC " << static_cast<int>(r.delivery.vc) << " head "
       << r.delivery.head_arrival << " tail " << r.delivery.tail_arrival
       << (r.delivery.intact ? "" : " CORRUPTED") << " (" << r.deliveries << "x)";
  } else {
    os << ", not delivered";
  }
  return os.str();
}

void Scoreboard::delivered(const Delivery& d) {
  if (d.id >= records_.size()) {
    error("node " + std::to_string(d.dst) + " received unknown packet " + std::to_string(d.id));
    return;
  }
  PacketRecord& r = records_[d.id];
  if (++r.deliveries > 1) {
    error("duplicate delivery: " + history(d.id));
    return;
  }
  r.delivery.head_arrival = d.head_arrival;
  r.delivery.tail_arrival = d.tail_arrival;
  r.delivery.dst = d.dst;
  r.delivery.vc = static_cast<std::uint8_t>(d.vc);
  r.delivery.intact = d.intact;
  ++delivered_;
  if (d.dst != r.spec.dst || d.header_dst != r.spec.dst) {
    error("misrouted: " + history(d.id));
  }
  if (!d.intact || d.src != r.spec.src || d.flits != r.spec.flits) {
    error("payload or header corrupted: " + history(d.id));
  }
  if (check_order_) {
    const std::uint64_t key = (static_cast<std::uint64_t>(r.spec.src) << 40) |
                              (static_cast<std::uint64_t>(r.spec.dst) << 16) |
                              static_cast<std::uint64_t>(d.vc);
    auto [it, fresh] = last_in_stream_.try_emplace(key, d.id);
    if (!fresh) {
      if (it->second > d.id) {
        error("out of order: " + history(d.id) + " arrived after packet " +
              std::to_string(it->second));
      }
      it->second = d.id;
    }
  }
}

void Scoreboard::fault(int node, const std::string& what) {
  error("node " + std::to_string(node) + ": " + what);
}

}  // namespace hxemu::tb
