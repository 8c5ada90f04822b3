# NIC variants (rtl/nic/hx_nic.sv), included by HxVariants.cmake. One variant per VC count of the
# router's local port; the RX buffer slots per VC are HX_BUFFER_SLOTS like every other block.
# Appends to HX_NIC_ENTRIES, the table sysc/blocks/model_registry.cpp.in builds make_nic() from.
set(HX_NIC_VCS "${HX_ROUTER_VCS}" CACHE STRING "VCs of the NIC variants (the router's local port)")
set(HX_NIC_MAX_PACKET_FLITS 64 CACHE STRING "largest packet length in flits a NIC can send (MAXP)")
set(HX_NIC_NODES 4096 CACHE STRING "largest node count the NIC's per-node tables cover (NODES)")

foreach(v ${HX_NIC_VCS})
  set(prefix Vhx_nic_v${v}_w${HX_FLIT_BITS})
  hx_add_model(${prefix} TOP hx_nic
               PARAMS V=${v} D=${HX_BUFFER_SLOTS} W=${HX_FLIT_BITS}
                      MAXP=${HX_NIC_MAX_PACKET_FLITS} NODES=${HX_NIC_NODES})
  hx_register_variant(HX_NIC_ENTRIES nic 1 ${v} ${HX_BUFFER_SLOTS} ${prefix} NicBlock NicModel
                      "${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}, ${HX_NIC_MAX_PACKET_FLITS}, ${HX_NIC_NODES}")
endforeach()
