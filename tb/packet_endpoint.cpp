#include "tb/packet_endpoint.h"

#include "sysc/fabric/network_step.h"

namespace hxemu::tb {

PacketEndpoint::PacketEndpoint(const EndpointConfig& cfg, const std::uint64_t* clock,
                               EndpointObserver* obs)
    : cfg_(cfg),
      clock_(clock),
      obs_(obs),
      credits_(cfg.vcs, cfg.inject_credits),
      open_(cfg.vcs),
      buf_(cfg.vcs, sysc::GrowRing<sysc::Flit>(static_cast<std::size_t>(cfg.eject_depth))) {}

bool PacketEndpoint::drained() const {
  if (!queue_.empty() || cur_flit_ >= 0 || buffered_ != 0) return false;
  for (int v = 0; v < cfg_.vcs; ++v) {
    if (((cfg_.inject_vcs >> v) & 1u) && credits_[v] != cfg_.inject_credits) return false;
  }
  return true;
}

void PacketEndpoint::fault(const std::string& what) {
  error_ = true;
  if (obs_) obs_->fault(cfg_.node, what);
}

void PacketEndpoint::accept(const sysc::Flit& f) {
  ++flits_received_;
  const std::uint64_t now = *clock_;
  Open& o = open_[f.vc];
  const std::uint64_t id = flit_packet_id(f);
  const int index = flit_index(f);
  const bool intact = flit_payload_intact(f, cfg_.flit_bits);
  if (f.head) {
    if (o.open) {
      o.d.intact = false;
      fault("packet " + std::to_string(id) + " begins on VC " + std::to_string(f.vc) +
            " before packet " + std::to_string(o.d.id) + " ended");
    }
    o = Open{};
    o.open = true;
    o.d.id = id;
    o.d.src = static_cast<int>(sysc::get_field(f, sysc::hdr::kSrc));
    o.d.header_dst = static_cast<int>(sysc::get_field(f, sysc::hdr::kDst));
    o.d.dst = cfg_.node;
    o.d.flits = static_cast<int>(sysc::get_field(f, pkt::kFlits));
    o.d.vc = f.vc;
    o.d.created = sysc::get_field(f, pkt::kCreated);
    o.d.head_arrival = now;
    o.next = 1;
    if (!intact) o.d.intact = false;
  } else {
    if (!o.open || id != o.d.id || index != o.next) {
      fault("flit " + std::to_string(index) + " of packet " + std::to_string(id) +
            " out of place on VC " + std::to_string(f.vc));
      if (o.open) o.d.intact = false;
      return;
    }
    if (!intact) o.d.intact = false;
    ++o.next;
  }
  if (f.tail) {
    if (o.next != o.d.flits) o.d.intact = false;
    o.d.tail_arrival = now;
    o.open = false;
    if (obs_) obs_->delivered(o.d);
  }
}

// As its own (final) type: the harness's calls to the port methods above are direct.
void PacketEndpoint::step(sysc::Network& net, int index, std::uint64_t now) { net.step_as(*this, index, now); }

void PacketEndpoint::tick() {
  out_flit_.valid = false;
  out_credit_.valid = false;
  if (in_credit_.valid) {
    if (++credits_[in_credit_.vc] > cfg_.inject_credits) fault("credit returned past the buffer depth");
  }

  // Sink: queue what arrives, take one flit per cycle unless stalled.
  if (in_flit_.valid) {
    const int v = in_flit_.vc;
    if (v >= cfg_.vcs) {
      fault("flit on VC " + std::to_string(v) + ", which does not exist");
    } else if (static_cast<int>(buf_[v].size()) >= cfg_.eject_depth) {
      fault("network overflowed the ejection buffer of VC " + std::to_string(v));
    } else {
      buf_[v].push_back(in_flit_);
      ++buffered_;
    }
  }
  if (!stalled_ && buffered_ > 0) {
    for (int k = 0; k < cfg_.vcs; ++k) {
      const int v = (drain_rr_ + k) % cfg_.vcs;
      if (buf_[v].empty()) continue;
      accept(buf_[v].front());
      buf_[v].pop_front();
      --buffered_;
      out_credit_ = sysc::Credit{true, static_cast<std::uint8_t>(v)};
      drain_rr_ = (v + 1) % cfg_.vcs;
      break;
    }
  }

  // Source: continue the current packet or start the next one.
  if (cur_flit_ < 0 && !queue_.empty() && queue_.front().created <= *clock_) {
    for (int k = 0; k < cfg_.vcs; ++k) {
      const int v = (rr_ + k) % cfg_.vcs;
      if (((cfg_.inject_vcs >> v) & 1u) && credits_[v] > 0) {
        cur_ = queue_.front();
        queue_.pop_front();
        cur_flit_ = 0;
        cur_vc_ = v;
        rr_ = (v + 1) % cfg_.vcs;
        break;
      }
    }
    if (cur_flit_ < 0) ++stalls_no_credit_;
  }
  if (cur_flit_ >= 0) {
    if (credits_[cur_vc_] > 0) {
      out_flit_ = make_packet_flit(cur_, cur_flit_, cfg_.flit_bits);
      out_flit_.vc = static_cast<std::uint8_t>(cur_vc_);
      --credits_[cur_vc_];
      ++flits_sent_;
      // The flit is on the output link from the next cycle on.
      if (cur_flit_ == 0 && obs_) obs_->injected(cfg_.node, cur_.id, *clock_ + 1);
      if (++cur_flit_ == cur_.flits) cur_flit_ = -1;
    } else {
      ++stalls_no_credit_;
    }
  }
}

}  // namespace hxemu::tb
