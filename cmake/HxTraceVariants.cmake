# FST-traced copies of model variants, for `hxemu ... --trace` (docs/waveforms.md). Included by
# HxVariants.cmake before it registers the variants.
#
# A traced copy is the same RTL with the same parameters, verilated with --trace-fst into a library
# of its own (hx_models_traced, sysc/trace/CMakeLists.txt) compiled with VM_TRACE=1. The models every
# run steps stay in hx_models, verilated and compiled exactly as without this file (VM_TRACE=0): a
# run without --trace never touches a traced model, so it runs at the same speed. A run with
# --trace builds only the blocks --trace-blocks selects from their variant's traced copy.
#
# HX_TRACE_VARIANTS: the variants to copy, by the names this build gives them (the error of a
# --trace that needs another one names it), ALL for every variant, or empty for none. Each copy
# costs about as much build time as its variant. The default covers the configurations the tests
# and docs trace: hx2mesh-16 (and hx4mesh-64, torus-64: 2 VCs per class, 32-slot routers facing
# cables) with synthetic endpoints (board router with one local port) or with NICs (four local
# ports, NICs with 8-slot RX buffers), and its radix-4 tree switches.
set(HX_TRACE_VARIANTS
    "Vhx_board_router_l1_v6_w256;Vhx_board_router_l4_v6_w256;Vhx_nic_v6_d8_w256;Vhx_switch_k4_v6_w256"
    CACHE STRING "model variants also built with FST tracing for hxemu --trace (names as built, ALL, or empty)")

set(HX_TRACED_REGISTRY_INCLUDES "")
set(HX_TRACED_HX_BOARD_ROUTER_ENTRIES "")
set(HX_TRACED_HX_SWITCH_ENTRIES "")
set(HX_TRACED_HX_NIC_ENTRIES "")
set_property(GLOBAL PROPERTY HX_TRACED_PREFIXES "")

# Called by hx_register_variant for every variant: when HX_TRACE_VARIANTS selects `prefix`, adds an
# entry to HX_TRACED_<table> (sysc/trace/traced_registry.cpp.in) whose factory builds the traced
# copy <prefix>_fst wrapped for tracing (sysc/trace/traced_block.h), and records the prefix for
# sysc/trace/CMakeLists.txt to verilate.
function(hx_register_traced_variant table kind ports vcs slots prefix base model args)
  if(NOT (HX_TRACE_VARIANTS STREQUAL "ALL" OR prefix IN_LIST HX_TRACE_VARIANTS))
    return()
  endif()
  set(traced ${prefix}_fst)
  set(HX_TRACED_REGISTRY_INCLUDES
      "${HX_TRACED_REGISTRY_INCLUDES}#include \"${traced}.h\"\n#include \"${traced}___024root.h\"\n"
      PARENT_SCOPE)
  string(CONCAT entry
         "  {{\"${kind}\", ${ports}, ${vcs}, ${HX_FLIT_BITS}, ${slots}, \"${prefix}\"},\n"
         "   [](const char* scope) {\n"
         "     return made<${base}>(new Traced<${model}<${traced}>>(scope, ${args})); }},\n")
  set(HX_TRACED_${table} "${HX_TRACED_${table}}${entry}" PARENT_SCOPE)
  set_property(GLOBAL APPEND PROPERTY HX_TRACED_PREFIXES ${prefix})
endfunction()

# After every variant is registered: a name in HX_TRACE_VARIANTS that is no variant of this build
# is an error listing the names there are.
function(hx_check_trace_variants)
  if(HX_TRACE_VARIANTS STREQUAL "ALL")
    return()
  endif()
  get_property(built GLOBAL PROPERTY HX_MODEL_PREFIXES)
  foreach(v ${HX_TRACE_VARIANTS})
    if(NOT v IN_LIST built)
      string(REPLACE ";" ", " names "${built}")
      message(FATAL_ERROR "HX_TRACE_VARIANTS: '${v}' is not a model variant of this build; "
                          "the variants are: ${names} (or ALL, or empty for none)")
    endif()
  endforeach()
endfunction()
