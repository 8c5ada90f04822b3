# Tree-switch variants: every radix in HX_SWITCH_RADICES with every VC count of the routers (a
# system's switches and routers share one VC-class table). Appends to HX_SWITCH_ENTRIES, the table
# sysc/blocks/model_registry.cpp.in builds make_switch() from.
set(HX_SWITCH_RADICES "4;8;16" CACHE STRING "radices of the switch variants")

foreach(k ${HX_SWITCH_RADICES})
  foreach(v ${HX_ROUTER_VCS})
    set(prefix Vhx_switch_k${k}_v${v}_w${HX_FLIT_BITS})
    hx_add_model(${prefix} TOP hx_switch
                 PARAMS K=${k} V=${v} D=${HX_BUFFER_SLOTS} W=${HX_FLIT_BITS})
    hx_register_variant(HX_SWITCH_ENTRIES switch ${k} ${v} ${HX_BUFFER_SLOTS} ${prefix}
                        SwitchBlock SwitchModel "${k}, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}")
  endforeach()
endforeach()
