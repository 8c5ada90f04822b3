// ModelVariant: one verilated build of an RTL block. Verilator fixes structural parameters (ports,
// VCs, flit width, buffer slots) when it verilates, so a build provides a list of variants per
// block kind (cmake/HxVariants*.cmake) and a configuration picks among them at run time
// (sysc/blocks/model_registry.cpp.in; a configuration needing another variant is an error that
// lists the built ones).
#pragma once

#include <string>

namespace hxemu::sysc {

struct ModelVariant {
  std::string kind;   // "board_router", "switch", "nic"
  int ports;
  int vcs;
  int flit_bits;
  int buffer_slots;
  std::string name;   // as the build names it (cmake/HxVariants*.cmake), e.g. Vhx_nic_v6_d8_w256
};

}  // namespace hxemu::sysc
