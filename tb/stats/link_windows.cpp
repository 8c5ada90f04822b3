#include "tb/stats/link_windows.h"

#include <stdexcept>

#include "sysc/dist/ranks.h"
#include "sysc/fabric/router_ports.h"

namespace hxemu::tb {

std::string link_end_label(const sysc::System& sys, sysc::PortRef p) {
  std::string s = sys.net().block_name(p.block) + ".";
  s += sys.block_kind(p.block) == sysc::System::BlockKind::kRouter ? sysc::port_name(p.port)
                                                                     : "p" + std::to_string(p.port);
  return s;
}

void LinkWindows::attach(const sysc::System& sys) {
  sys_ = &sys;
  const sysc::Network& net = sys.net();
  links_ = net.links();
  base_flits_.assign(links_, 0);
  base_credit_.assign(links_, 0);
  base_sa_.assign(links_, 0);
  carry_flits_.assign(links_, 0);
  carry_credit_.assign(links_, 0);
  carry_sa_.assign(links_, 0);
  for (int l = 0; l < links_; ++l) {
    const sysc::PortRef to = net.link_info(l).to;
    base_flits_[l] = net.link_flits(l);
    base_credit_[l] = net.stalls_credit(to);
    base_sa_[l] = net.stalls_sa(to);
  }
  const std::uint64_t now = net.now();
  edges_.assign(1, now);
  next_edge_ = now + w_;
  flits_.clear();
  stall_credit_.clear();
  stall_sa_.clear();
  finished_ = false;
}

void LinkWindows::close_window(std::uint64_t now) {
  const sysc::Network& net = sys_->net();
  for (int l = 0; l < links_; ++l) {
    const sysc::PortRef to = net.link_info(l).to;
    const std::uint64_t f = net.link_flits(l), c = net.stalls_credit(to), a = net.stalls_sa(to);
    flits_.push_back(carry_flits_[l] + f - base_flits_[l]);
    stall_credit_.push_back(carry_credit_[l] + c - base_credit_[l]);
    stall_sa_.push_back(carry_sa_[l] + a - base_sa_[l]);
    base_flits_[l] = f;
    base_credit_[l] = c;
    base_sa_[l] = a;
    carry_flits_[l] = carry_credit_[l] = carry_sa_[l] = 0;
  }
  edges_.push_back(now);
  // The next edge is the next multiple of W after the start that lies ahead (a sample that came
  // late does not shift the grid).
  if (w_ > 0) {
    const std::uint64_t start = edges_.front();
    next_edge_ = start + ((now - start) / w_ + 1) * w_;
  }
}

void LinkWindows::before_counter_reset() {
  if (!sys_) return;
  const sysc::Network& net = sys_->net();
  for (int l = 0; l < links_; ++l) {
    const sysc::PortRef to = net.link_info(l).to;
    carry_flits_[l] += net.link_flits(l) - base_flits_[l];
    carry_credit_[l] += net.stalls_credit(to) - base_credit_[l];
    carry_sa_[l] += net.stalls_sa(to) - base_sa_[l];
    base_flits_[l] = base_credit_[l] = base_sa_[l] = 0;
  }
}

void LinkWindows::finish(std::uint64_t now) {
  if (finished_) return;
  if (!sys_) throw std::logic_error("LinkWindows::finish before attach");
  finished_ = true;
  if (now > edges_.back() || edges_.size() == 1) close_window(now);
  if (sys_->ranks() > 1) {
    sysc::Ranks::sum(flits_);
    sysc::Ranks::sum(stall_credit_);
    sysc::Ranks::sum(stall_sa_);
  }
  const sysc::Network& net = sys_->net();
  names_.clear();
  for (int l = 0; l < links_; ++l) {
    const auto& info = net.link_info(l);
    names_.push_back({link_end_label(*sys_, info.from), link_end_label(*sys_, info.to), sysc::link_class_name(info.cls)});
  }
  sys_ = nullptr;   // done sampling; the system may go
}

double LinkWindows::utilisation(int link, int window) const {
  const std::uint64_t cycles = edges_.at(window + 1) - edges_.at(window);
  return cycles > 0 ? static_cast<double>(flits(link, window)) / static_cast<double>(cycles) : 0.0;
}

std::uint64_t LinkWindows::total_flits(int link) const {
  std::uint64_t t = 0;
  for (int k = 0; k < windows(); ++k) t += flits(link, k);
  return t;
}

std::vector<double> LinkWindows::total_utilisation() const {
  std::vector<double> u(static_cast<std::size_t>(links_), 0.0);
  const std::uint64_t cycles = edges_.empty() ? 0 : edges_.back() - edges_.front();
  if (cycles == 0) return u;
  for (int l = 0; l < links_; ++l) u[l] = static_cast<double>(total_flits(l)) / static_cast<double>(cycles);
  return u;
}

nlohmann::json LinkWindows::json() const {
  nlohmann::json j;
  j["window_cycles"] = w_;
  j["start"] = edges_.empty() ? 0 : edges_.front();
  j["end"] = edges_.empty() ? 0 : edges_.back();
  j["edges"] = edges_;
  if (!finished_) throw std::logic_error("LinkWindows::json before finish");
  const auto total = total_utilisation();
  nlohmann::json links = nlohmann::json::array();
  std::uint64_t all_flits = 0, all_credit = 0, all_sa = 0;
  double busiest = 0;
  int busiest_link = -1;
  for (int l = 0; l < links_; ++l) {
    nlohmann::json f = nlohmann::json::array(), u = nlohmann::json::array();
    nlohmann::json sc = nlohmann::json::array(), sa = nlohmann::json::array();
    for (int k = 0; k < windows(); ++k) {
      f.push_back(flits(l, k));
      u.push_back(utilisation(l, k));
      sc.push_back(stall_credit(l, k));
      sa.push_back(stall_sa(l, k));
      all_credit += stall_credit(l, k);
      all_sa += stall_sa(l, k);
    }
    all_flits += total_flits(l);
    if (total[l] > busiest) {
      busiest = total[l];
      busiest_link = l;
    }
    links.push_back({{"id", l},
                     {"from", names_[l].from},
                     {"to", names_[l].to},
                     {"class", names_[l].cls},
                     {"flits", f},
                     {"utilisation", u},
                     {"stall_credit", sc},
                     {"stall_sa", sa},
                     {"total_flits", total_flits(l)},
                     {"total_utilisation", total[l]}});
  }
  j["links"] = links;
  j["totals"] = {{"cycles", edges_.empty() ? 0 : edges_.back() - edges_.front()},
                 {"windows", windows()},
                 {"flits", all_flits},
                 {"stall_credit", all_credit},
                 {"stall_sa", all_sa},
                 {"busiest_link", busiest_link},
                 {"busiest_utilisation", busiest}};
  return j;
}

}  // namespace hxemu::tb
