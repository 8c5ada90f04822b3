#include "sw/remote/protocol.h"

namespace hxemu::sw::remote {

const char* error_name(ErrorCode c) {
  switch (c) {
    case ErrorCode::kBadFrame: return "bad_frame";
    case ErrorCode::kFrameTooLarge: return "frame_too_large";
    case ErrorCode::kUnknownRequest: return "unknown_request";
    case ErrorCode::kBadArgument: return "bad_argument";
    case ErrorCode::kHandshake: return "handshake_required";
    case ErrorCode::kVersion: return "version";
    case ErrorCode::kNotAttached: return "not_attached";
    case ErrorCode::kAlreadyAttached: return "already_attached";
    case ErrorCode::kNodeTaken: return "node_taken";
    case ErrorCode::kTooManyClients: return "too_many_clients";
    case ErrorCode::kNever: return "never";
    case ErrorCode::kBarrierBroken: return "barrier_broken";
    case ErrorCode::kEmulationFailed: return "emulation_failed";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kDetached: return "detached";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

const RequestSpec* find_request(std::string_view name) {
  for (const RequestSpec& r : kRequests) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

const char* request_name(RequestKind k) {
  for (const RequestSpec& r : kRequests) {
    if (r.kind == k) return r.name;
  }
  return "?";
}

std::string request_names() {
  std::string s;
  for (const RequestSpec& r : kRequests) {
    if (!s.empty()) s += ", ";
    s += r.name;
  }
  return s;
}

const char* event_name(EventKind k) {
  switch (k) {
    case EventKind::kPutDone: return "put_done";
    case EventKind::kMessage: return "message";
    case EventKind::kReduceDone: return "reduce_done";
    case EventKind::kCopyDone: return "copy_done";
  }
  return "?";
}

json event_json(const Event& e) {
  json j = {{"event", event_name(e.kind)}, {"rail", e.rail}, {"cycle", e.cycle}};
  switch (e.kind) {
    case EventKind::kPutDone:
      j["op"] = e.op;
      j["peer"] = e.node;
      j["tag"] = e.tag;
      break;
    case EventKind::kMessage:
      j["src"] = e.node;
      j["tag"] = e.tag;
      j["len"] = e.len;
      break;
    case EventKind::kReduceDone:
    case EventKind::kCopyDone:
      j["op"] = e.op;
      break;
  }
  return j;
}

Event event_from_json(const json& j) {
  try {
    Event e;
    const std::string name = j.at("event").get<std::string>();
    if (name == "put_done") {
      e.kind = EventKind::kPutDone;
    } else if (name == "message") {
      e.kind = EventKind::kMessage;
    } else if (name == "reduce_done") {
      e.kind = EventKind::kReduceDone;
    } else if (name == "copy_done") {
      e.kind = EventKind::kCopyDone;
    } else {
      throw std::invalid_argument("unknown event '" + name + "'");
    }
    e.rail = j.at("rail").get<int>();
    e.cycle = j.at("cycle").get<std::uint64_t>();
    switch (e.kind) {
      case EventKind::kPutDone:
        e.op = j.at("op").get<std::uint64_t>();
        e.node = j.at("peer").get<int>();
        e.tag = j.at("tag").get<std::uint16_t>();
        break;
      case EventKind::kMessage:
        e.node = j.at("src").get<int>();
        e.tag = j.at("tag").get<std::uint16_t>();
        e.len = j.at("len").get<std::uint32_t>();
        break;
      default:
        e.op = j.at("op").get<std::uint64_t>();
        break;
    }
    return e;
  } catch (const json::exception& x) {
    throw std::invalid_argument(std::string("malformed event: ") + x.what());
  }
}

namespace {
constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::string base64_encode(const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += kB64[v & 63];
  }
  if (n - i == 1) {
    const std::uint32_t v = p[i] << 16;
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += "==";
  } else if (n - i == 2) {
    const std::uint32_t v = (p[i] << 16) | (p[i + 1] << 8);
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

bool base64_decode(std::string_view s, std::vector<std::uint8_t>& out) {
  out.clear();
  if (s.size() % 4 != 0) return false;
  out.reserve(s.size() / 4 * 3);
  for (std::size_t i = 0; i < s.size(); i += 4) {
    const bool last = i + 4 == s.size();
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[i + k]);
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad) return false;   // data after padding
      v[k] = b64_value(c);
      if (v[k] < 0) return false;
    }
    const std::uint32_t w = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out.push_back(static_cast<std::uint8_t>(w >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(w >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(w));
    // Canonical: the bits padding drops must be zero.
    if ((pad == 1 && (w & 0xff) != 0) || (pad == 2 && (w & 0xffff) != 0)) return false;
  }
  return true;
}

std::string dump_line(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  s += '\n';
  return s;
}

}  // namespace hxemu::sw::remote
