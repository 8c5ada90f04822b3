# Verilated RTL models. Each block type is verilated once per structural variant and instantiated as
# many times as the system needs. All models go into one static library so the Verilator runtime is
# compiled once.
#
# hx_add_model(<prefix> TOP <module> PARAMS <name=value>...)
#   verilates <module> with the given parameter overrides into class <prefix>.

find_package(verilator REQUIRED HINTS /usr/share/verilator)

set(HX_RTL_DIR ${PROJECT_SOURCE_DIR}/rtl)
file(GLOB_RECURSE HX_RTL_SOURCES CONFIGURE_DEPENDS ${HX_RTL_DIR}/*.sv)
file(GLOB_RECURSE HX_RTL_HEADERS CONFIGURE_DEPENDS ${HX_RTL_DIR}/*.svh)

add_library(hx_models STATIC)
set_target_properties(hx_models PROPERTIES POSITION_INDEPENDENT_CODE ON)

function(hx_add_model prefix)
  cmake_parse_arguments(M "" "TOP" "PARAMS" ${ARGN})
  set(gflags)
  foreach(p ${M_PARAMS})
    list(APPEND gflags "-G${p}")
  endforeach()
  verilate(hx_models
    PREFIX ${prefix}
    TOP_MODULE ${M_TOP}
    SOURCES ${HX_RTL_SOURCES}
    INCLUDE_DIRS ${HX_RTL_DIR}/common
    VERILATOR_ARGS -Wall -O3 --x-assign fast --x-initial fast ${gflags})
  set_property(GLOBAL APPEND PROPERTY HX_MODEL_PREFIXES ${prefix})
endfunction()
