# The structural variants the build provides. Everything else (buffer depth up to the slots below,
# link latencies, positions, routing mode, VC classes) is a run-time input of the same model.
# A configuration asking for a variant that is not built gets an error listing the ones that are.
set(HX_FLIT_BITS 256 CACHE STRING "payload bits per flit of the verilated models")
set(HX_ROUTER_VCS "2;4;8" CACHE STRING "VCs per port of the board-router variants")
set(HX_BUFFER_SLOTS 32 CACHE STRING "buffer slots per VC in every verilated block")

set(HX_REGISTRY_INCLUDES "")
set(HX_BOARD_ROUTER_ENTRIES "")
set(HX_SWITCH_ENTRIES "")
set(HX_NIC_ENTRIES "")

# Board routers with one local port (synthetic traffic: one endpoint per node) and with four (one
# NIC per network port: the rails).
foreach(nl 1 4)
  foreach(v ${HX_ROUTER_VCS})
    math(EXPR ports "4 + ${nl}")
    set(prefix Vhx_board_router_l${nl}_v${v}_w${HX_FLIT_BITS})
    hx_add_model(${prefix} TOP hx_board_router
                 PARAMS NL=${nl} V=${v} D=${HX_BUFFER_SLOTS} W=${HX_FLIT_BITS})
    string(APPEND HX_REGISTRY_INCLUDES "#include \"${prefix}.h\"\n#include \"${prefix}___024root.h\"\n")
    string(APPEND HX_BOARD_ROUTER_ENTRIES
      "  {{\"board_router\", ${ports}, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}}, [] {\n"
      "     return std::unique_ptr<BoardRouterBlock>(new BoardRouterModel<${prefix}>(\n"
      "         ${nl}, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS})); }},\n")
  endforeach()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/HxVariantsSwitch.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/HxVariantsNic.cmake)

configure_file(${PROJECT_SOURCE_DIR}/sysc/blocks/model_registry.cpp.in
               ${PROJECT_BINARY_DIR}/generated/model_registry.cpp @ONLY)
