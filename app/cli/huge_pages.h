// Transparent huge pages for hxemu's heap (see huge_pages.cpp).
#pragma once

#include <string>

namespace hxemu::cli {

// Called first thing in main(): unless the heap already uses huge pages (or HXEMU_HUGE_PAGES=0, or
// the kernel has them off), sets glibc's tunable and executes this program again with the same
// arguments. Returns only when nothing needs doing or the exec failed (the run goes on either way).
void use_huge_pages(char** argv);

// Called next: large blocks the program frees stay in its heap for the next allocation instead of
// going back to the kernel (glibc's mmap threshold fixed at 32 MiB). A run allocates and frees the
// same large buffers every few cycles (testbench events, the messages between MPI ranks), and memory
// the kernel hands out afresh is zeroed and faulted in again each time.
void keep_freed_memory();

// What this process's heap is on, for --version: "transparent huge pages (glibc.malloc.hugetlb=1)"
// when the tunable is set and the kernel offers them, "4 KiB pages" otherwise.
std::string heap_pages();

}  // namespace hxemu::cli
