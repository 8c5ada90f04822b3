# The structural variants the build provides. Everything else (buffer depth up to the slots below,
# link latencies, positions, routing mode, VC classes) is a run-time input of the same model.
# A configuration asking for a variant that is not built gets an error listing the ones that are.
set(HX_FLIT_BITS 256 CACHE STRING "payload bits per flit of the verilated models")
# 6: HammingMesh's 3 VC classes x 2; with the 8-VC models instead, 2 VCs per port stay unused and
# every router and NIC evaluates them (same results, 7-10% slower on hx4mesh-1024).
set(HX_ROUTER_VCS "2;4;6;8;12" CACHE STRING "VCs per port of the board-router variants")
set(HX_BUFFER_SLOTS 32 CACHE STRING "buffer slots per VC of the switches and NICs, and the largest board-router variant")

include(${CMAKE_CURRENT_LIST_DIR}/HxTraceVariants.cmake)

set(HX_REGISTRY_INCLUDES "")
set(HX_BOARD_ROUTER_ENTRIES "")
set(HX_SWITCH_ENTRIES "")
set(HX_NIC_ENTRIES "")

# Registers verilated model `prefix` in the run-time registry (sysc/blocks/model_registry.cpp.in):
# its headers, and an entry {kind, ports, vcs, flit bits, slots} in `table` whose factory returns
# `new DirectStep<<model>>(<args>)` (sysc/blocks/direct_step.h) as a std::unique_ptr<base>.
function(hx_register_variant table kind ports vcs slots prefix base model args)
  # The direct clock edge's declarations (sysc/blocks/clock_edge.h, HX_DIRECT_EVAL): a board
  # router's input-combinational logic is read only where a flit arrives.
  if(kind MATCHES "^board_router")
    set(gated true)
  else()
    set(gated false)
  endif()
  set(HX_REGISTRY_INCLUDES
      "${HX_REGISTRY_INCLUDES}#include \"${prefix}.h\"\n#include \"${prefix}___024root.h\"\n#ifndef HX_PORTABLE_CLOCK\nHX_DIRECT_EVAL(${prefix}, ${gated})\n#endif\n"
      PARENT_SCOPE)
  string(CONCAT entry
         "  {{\"${kind}\", ${ports}, ${vcs}, ${HX_FLIT_BITS}, ${slots}, \"${prefix}\"}, [] {\n"
         "     return std::unique_ptr<${base}>(new DirectStep<${model}<${prefix}>>(\n"
         "         ${args})); }},\n")
  set(${table} "${${table}}${entry}" PARENT_SCOPE)
  hx_register_traced_variant(${table} ${kind} ${ports} ${vcs} ${slots} ${prefix} ${base} ${model} "${args}")
  set(HX_TRACED_REGISTRY_INCLUDES "${HX_TRACED_REGISTRY_INCLUDES}" PARENT_SCOPE)
  set(HX_TRACED_${table} "${HX_TRACED_${table}}" PARENT_SCOPE)
endfunction()

# The buffer-slot variants an option asks for, HX_BUFFER_SLOTS always among them, sorted; a value
# above HX_BUFFER_SLOTS is an error naming the option.
function(hx_slot_list out option)
  set(slots ${${option}} ${HX_BUFFER_SLOTS})
  list(REMOVE_DUPLICATES slots)
  list(SORT slots COMPARE NATURAL)
  foreach(d ${slots})
    if(d GREATER HX_BUFFER_SLOTS)
      message(FATAL_ERROR "${option}: ${d} is more than HX_BUFFER_SLOTS=${HX_BUFFER_SLOTS}")
    endif()
  endforeach()
  set(${out} ${slots} PARENT_SCOPE)
endfunction()

# Board routers are also built with fewer slots per VC (HX_ROUTER_SLOTS): a system takes, per
# router, the smallest variant its buffers fit in (make_board_router), so a configuration asking for
# 8-flit buffers does not carry 32 (a quarter of the buffer memory, fewer cache misses). NICs do the
# same (HX_NIC_SLOTS, HxVariantsNic.cmake); switches face cables (32 flits) in every shipped
# configuration and stay at HX_BUFFER_SLOTS only.
set(HX_ROUTER_SLOTS "8;${HX_BUFFER_SLOTS}" CACHE STRING
    "buffer slots per VC of the board-router variants (HX_BUFFER_SLOTS is always built)")
hx_slot_list(hx_router_slots HX_ROUTER_SLOTS)

# Board routers with one local port (synthetic traffic: one endpoint per node) and with four (one
# NIC per network port: the rails). The HX_BUFFER_SLOTS variants keep their historic names.
foreach(nl 1 4)
  foreach(v ${HX_ROUTER_VCS})
    foreach(d ${hx_router_slots})
      math(EXPR ports "4 + ${nl}")
      if(d EQUAL HX_BUFFER_SLOTS)
        set(prefix Vhx_board_router_l${nl}_v${v}_w${HX_FLIT_BITS})
      else()
        set(prefix Vhx_board_router_l${nl}_v${v}_d${d}_w${HX_FLIT_BITS})
      endif()
      hx_add_model(${prefix} TOP hx_board_router
                   PARAMS NL=${nl} V=${v} D=${d} W=${HX_FLIT_BITS})
      hx_register_variant(HX_BOARD_ROUTER_ENTRIES board_router ${ports} ${v} ${d} ${prefix}
                          BoardRouterBlock BoardRouterModel "${nl}, ${v}, ${HX_FLIT_BITS}, ${d}")
    endforeach()
  endforeach()
endforeach()

# DOR-only board routers (hx_board_router DOR_ONLY=1): deterministic HammingMesh / mesh routing with
# no torus, adaptive or failed-link logic, about 10% fewer instructions per cycle. A system with that
# routing and no --fail-link takes one (System::add_router, make_board_router) when its shape is
# built: local ports and VCs per port as NL:V pairs, at every slot count of HX_ROUTER_SLOTS.
set(HX_DOR_ROUTERS "1:2;1:6;4:6" CACHE STRING
    "local ports:VCs of the DOR-only board-router variants (empty: none; systems then use the general ones)")
set(HX_DOR_BOARD_ROUTER_ENTRIES "")
foreach(shape ${HX_DOR_ROUTERS})
  if(NOT shape MATCHES "^([1-4]):([0-9]+)$")
    message(FATAL_ERROR "HX_DOR_ROUTERS: '${shape}' is not NL:V (local ports 1..4, VCs per port)")
  endif()
  set(nl ${CMAKE_MATCH_1})
  set(v ${CMAKE_MATCH_2})
  math(EXPR ports "4 + ${nl}")
  foreach(d ${hx_router_slots})
    set(prefix Vhx_board_router_dor_l${nl}_v${v}_d${d}_w${HX_FLIT_BITS})
    hx_add_model(${prefix} TOP hx_board_router
                 PARAMS NL=${nl} V=${v} D=${d} W=${HX_FLIT_BITS} DOR_ONLY=1)
    hx_register_variant(HX_DOR_BOARD_ROUTER_ENTRIES board_router_dor ${ports} ${v} ${d} ${prefix}
                        BoardRouterBlock BoardRouterModel
                        "${nl}, ${v}, ${HX_FLIT_BITS}, ${d}, \"TOP\", true")
  endforeach()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/HxVariantsSwitch.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/HxVariantsNic.cmake)

hx_check_trace_variants()

configure_file(${PROJECT_SOURCE_DIR}/sysc/blocks/model_registry.cpp.in
               ${PROJECT_BINARY_DIR}/generated/model_registry.cpp @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/sysc/trace/traced_registry.cpp.in
               ${PROJECT_BINARY_DIR}/generated/traced_registry.cpp @ONLY)
