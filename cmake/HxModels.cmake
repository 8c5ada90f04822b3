# Verilated RTL models. Each block type is verilated once per structural variant and instantiated as
# many times as the system needs. All models go into one static library so the Verilator runtime is
# compiled once.
#
# hx_add_model(<prefix> TOP <module> PARAMS <name=value>...)
#   verilates <module> with the given parameter overrides into class <prefix>.

#
# HX_RTL_ASSERT (default ON) verilates every model with the RTL's assertions (rtl/common/hx_assert.svh:
# --assert and HX_ASSERT defined). HX_VERILATOR_ARGS are the arguments every model of the build is
# verilated with; a test that verilates a model of its own uses them too.

find_package(verilator REQUIRED HINTS /usr/share/verilator)

# The optimisation level of code off the per-cycle path (a model's construction code, the tests'
# own code, the command line's option parsing and reports): -O1 compiles in about 70% of -O3's time
# and these run once, not per cycle. A Debug build keeps its -O0.
set(HX_OFF_PATH_OPT $<$<NOT:$<CONFIG:Debug>>:-O1>)

option(HX_RTL_ASSERT "verilate the models with the RTL assertions (rtl/common/hx_assert.svh)" ON)

set(HX_RTL_DIR ${PROJECT_SOURCE_DIR}/rtl)
file(GLOB_RECURSE HX_RTL_SOURCES CONFIGURE_DEPENDS ${HX_RTL_DIR}/*.sv)
file(GLOB_RECURSE HX_RTL_HEADERS CONFIGURE_DEPENDS ${HX_RTL_DIR}/*.svh)

set(HX_VERILATOR_ARGS -Wall -O3 --x-assign fast --x-initial fast)
if(HX_RTL_ASSERT)
  list(APPEND HX_VERILATOR_ARGS --assert -DHX_ASSERT)
endif()

# verilate() learns the files a model is generated into when CMake configures. An RTL edit that
# changes how many files Verilator writes (it splits large models) would leave the build that
# re-verilates with a stale list (compile errors: duplicate definitions) until the next build
# reconfigures. So an RTL edit reconfigures first, and the sources' digest in the Verilator
# command (an unused define) makes verilate() run Verilator then, reading the fresh list.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HX_RTL_SOURCES} ${HX_RTL_HEADERS})
set(hx_rtl_digests "")
foreach(f ${HX_RTL_SOURCES} ${HX_RTL_HEADERS})
  file(MD5 ${f} digest)
  string(APPEND hx_rtl_digests ${digest})
endforeach()
string(MD5 hx_rtl_digest "${hx_rtl_digests}")
list(APPEND HX_VERILATOR_ARGS -DHX_RTL_DIGEST=${hx_rtl_digest})

add_library(hx_models STATIC)
set_target_properties(hx_models PROPERTIES POSITION_INDEPENDENT_CODE ON)
# The one VerilatedContext and the C++ end of the assertions (hx_rtl_assert_failed, which every
# model with assertions calls): it belongs wherever a model is linked.
target_sources(hx_models PRIVATE ${PROJECT_SOURCE_DIR}/sysc/blocks/verilated_context.cpp)
set_source_files_properties(${PROJECT_SOURCE_DIR}/sysc/blocks/verilated_context.cpp
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
target_include_directories(hx_models PRIVATE ${PROJECT_SOURCE_DIR})
if(HX_RTL_ASSERT)
  target_compile_definitions(hx_models PRIVATE HX_RTL_ASSERT=1)
endif()

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
    VERILATOR_ARGS ${HX_VERILATOR_ARGS} ${gflags})
  set_property(GLOBAL APPEND PROPERTY HX_MODEL_PREFIXES ${prefix})
  # What a traced copy of this model is verilated from (cmake/HxTraceVariants.cmake).
  set_property(GLOBAL PROPERTY HX_MODEL_TOP_${prefix} ${M_TOP})
  set_property(GLOBAL PROPERTY HX_MODEL_GFLAGS_${prefix} ${gflags})
endfunction()

# hx_compile_slow_model_code(<target>), after the target's last verilate(): the code Verilator marks
# as off the per-cycle path -- constructors, initial blocks, the symbol table and the constant pool
# (its *__Slow.cpp, *__Syms.cpp and *__ConstPool_N.cpp files, about a third of the generated C++) --
# is compiled at -O1 in an object library of its own, still as a unity build; the per-cycle code
# stays at the build type's level. verilate()'s own OPT_SLOW would set per-file flags, which takes
# those files out of the unity build and costs more than it saves.
function(hx_compile_slow_model_code target)
  get_target_property(srcs ${target} SOURCES)
  set(fast)
  set(slow)
  foreach(s ${srcs})
    if(s MATCHES "(__Slow|__Syms|__ConstPool_[0-9]+)\\.cpp$")
      list(APPEND slow ${s})
    else()
      list(APPEND fast ${s})
    endif()
  endforeach()
  # No slow half (a build with no traced variants, HX_TRACE_VARIANTS empty): nothing to split.
  if(NOT slow)
    return()
  endif()
  # A static library of its own that the target's users link after it (INTERFACE), not objects
  # of the target: a target that takes another's objects depends on it, and with Ninja that
  # dependency orders every build statement of the target after the other's compiles -- the
  # verilate() commands too, which build.ninja depends on. An RTL edit then compiled the files of
  # the previous verilation before the reconfigure could list the new ones (duplicate definitions
  # when Verilator splits a model into fewer files).
  add_library(${target}_slow STATIC ${slow})
  get_target_property(pic ${target} POSITION_INDEPENDENT_CODE)
  set_target_properties(${target}_slow PROPERTIES UNITY_BUILD ON POSITION_INDEPENDENT_CODE "${pic}")
  target_include_directories(${target}_slow PRIVATE
                             $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${target}_slow PRIVATE
                             $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
  # After the build type's -O3 on the command line, so it wins (a Debug build keeps its -O0).
  target_compile_options(${target}_slow PRIVATE ${HX_OFF_PATH_OPT})
  set_property(TARGET ${target} PROPERTY SOURCES ${fast})
  # Each half calls the other (constructors the per-cycle code, evaluation the constructors'
  # code): both link interfaces name the other, so a link line repeats them as needed.
  target_link_libraries(${target} INTERFACE ${target}_slow)
  target_link_libraries(${target}_slow INTERFACE ${target})
  # Other generators than Ninja give each target that uses a command's outputs a rule of its own:
  # the slow half waits for the target, whose rules run the verilate() commands first.
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")
    add_dependencies(${target}_slow ${target})
  endif()
endfunction()

# hx_verilator_code(<target>), after hx_compile_slow_model_code: a library of verilated models is
# Verilator's code, not hxemu's. It compiles without warnings (-w: none of the -Wall -Wextra the
# top CMakeLists.txt turns on for hxemu's own code) and without a sanitizer (HX_SANITIZE: UBSan
# reports shifts of negative values in generated code and a misaligned store in Verilator's FST
# writer), and its headers (Verilator's run time, the generated model classes) reach its users as
# system headers, so their warnings stay out too.
function(hx_verilator_code target)
  set(opts -w)
  if(HX_SANITIZE)
    list(APPEND opts -fno-sanitize=all)
  endif()
  target_compile_options(${target} PRIVATE ${opts})
  if(TARGET ${target}_slow)
    target_compile_options(${target}_slow PRIVATE ${opts})
  endif()
  get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET ${target} APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${includes})
endfunction()
