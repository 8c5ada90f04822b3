#include "sysc/fabric/router_ports.h"

namespace hxemu::sysc {

const char* port_name(int port) {
  static const char* const kNames[kMaxRouterPorts] = {"N", "E", "S", "W", "L", "L1", "L2", "L3"};
  return (port >= 0 && port < kMaxRouterPorts) ? kNames[port] : "?";
}

}  // namespace hxemu::sysc
