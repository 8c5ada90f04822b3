# NIC variants (rtl/nic/hx_nic.sv), included by HxVariants.cmake. One variant per VC count of the
# router's local port and per RX buffer size: HX_NIC_SLOTS (a NIC behind a board router receives
# into board-depth buffers, 8 flits per VC in the shipped configurations) and HX_BUFFER_SLOTS (a
# fat-tree endpoint faces a cable). make_nic() takes the smallest that holds the configured depth.
# Appends to HX_NIC_ENTRIES, the table sysc/blocks/model_registry.cpp.in builds make_nic() from.
set(HX_NIC_VCS "${HX_ROUTER_VCS}" CACHE STRING "VCs of the NIC variants (the router's local port)")
set(HX_NIC_MAX_PACKET_FLITS 64 CACHE STRING "largest packet length in flits a NIC can send (MAXP)")
set(HX_NIC_NODES 4096 CACHE STRING "largest node count the NIC's per-node tables cover (NODES)")

set(HX_NIC_SLOTS "8" CACHE STRING "RX buffer slots per VC of the smaller NIC variants (HX_BUFFER_SLOTS is always built)")
hx_slot_list(hx_nic_slots HX_NIC_SLOTS)
foreach(v ${HX_NIC_VCS})
  foreach(d ${hx_nic_slots})
    if(d EQUAL HX_BUFFER_SLOTS)
      set(prefix Vhx_nic_v${v}_w${HX_FLIT_BITS})
    else()
      set(prefix Vhx_nic_v${v}_d${d}_w${HX_FLIT_BITS})
    endif()
    hx_add_model(${prefix} TOP hx_nic
                 PARAMS V=${v} D=${d} W=${HX_FLIT_BITS}
                        MAXP=${HX_NIC_MAX_PACKET_FLITS} NODES=${HX_NIC_NODES})
    hx_register_variant(HX_NIC_ENTRIES nic 1 ${v} ${d} ${prefix} NicBlock NicModel
                        "${v}, ${HX_FLIT_BITS}, ${d}, ${HX_NIC_MAX_PACKET_FLITS}, ${HX_NIC_NODES}")
  endforeach()
endforeach()
