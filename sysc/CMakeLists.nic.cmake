# NIC support in hx_sysc: the C++ host-memory model behind the NIC's DMA ports. The NIC factory
# itself is generated into model_registry.cpp by cmake/HxVariantsNic.cmake.
target_sources(hx_sysc PRIVATE ${CMAKE_CURRENT_LIST_DIR}/host_memory.cpp)
