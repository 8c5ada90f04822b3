// The byte messages ranks send each other (sysc/dist/link_exchange.cpp, tb/event_log.cpp):
// trivially copyable values appended to and read back from a std::string, in the same order on
// both sides (every rank is the same binary on the same kind of machine). A read past the end is
// a broken message: an exception, never a read out of bounds.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace hxemu::sysc {

template <class T>
void put_bytes(std::string& s, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The same bytes written in place at `w` (a message sized beforehand), advancing `w`.
template <class T>
void put_bytes_at(char*& w, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(w, &v, sizeof v);
  w += sizeof v;
}

template <class T>
T get_bytes(const std::string& s, std::size_t& pos) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (pos + sizeof(T) > s.size()) throw std::runtime_error("message from another rank ends early");
  T v;
  std::memcpy(&v, s.data() + pos, sizeof v);
  pos += sizeof v;
  return v;
}

}  // namespace hxemu::sysc
