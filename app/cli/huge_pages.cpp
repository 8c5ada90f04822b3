// A system's state -- a thousand verilated routers and switches, their links and the host's
// buffers -- is 100-200 MB that every emulated cycle touches all over. With 4 KiB pages that is
// tens of thousands of page faults while the system is built and a TLB miss on most accesses
// while it runs; with 2 MiB pages neither. glibc puts its heap on transparent huge pages when the
// tunable glibc.malloc.hugetlb=1 is set (it madvises each heap extension; the kernel's default
// THP mode here is "madvise"), but reads tunables only when a process starts: so hxemu sets it and
// executes itself once more. Measured on hx4mesh-1024 traffic (1 thread) and mesh-8x8, the same
// binary with and without the tunable, alternating: 3-5% less wall time, and 45,000 page faults
// become 5,000.
#include "app/cli/huge_pages.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace hxemu::cli {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// The kernel's THP mode: "always" or "madvise" make the tunable worth setting, "never" does not.
bool kernel_offers_huge_pages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  if (!std::getline(in, modes)) return false;
  return modes.find("[never]") == std::string::npos;
}

std::string tunables() {
  const char* now = std::getenv("GLIBC_TUNABLES");
  return now != nullptr ? now : "";
}

}  // namespace

void use_huge_pages(char** argv) {
  if (const char* opt = std::getenv("HXEMU_HUGE_PAGES"); opt != nullptr && std::string(opt) == "0") return;
  std::string set = tunables();
  // Set already: by the user (whose value stands) or by this function before the exec.
  if (set.find(kTunable) != std::string::npos) return;
  if (!kernel_offers_huge_pages()) return;
  // Under valgrind /proc/self/exe is valgrind's tool, not hxemu, and the run must stay under it.
  if (const char* pre = std::getenv("LD_PRELOAD"); pre != nullptr && std::strstr(pre, "vgpreload") != nullptr) {
    return;
  }
  set += (set.empty() ? "" : ":") + std::string(kTunable) + "=1";
  if (setenv("GLIBC_TUNABLES", set.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed (no /proc): small pages, and the tunable is left set so that children do not
  // try again for nothing.
}

void keep_freed_memory() {
  // Blocks up to 32 MiB (glibc's largest threshold) come from the heap, where a freed one is reused,
  // instead of each from a fresh mapping that the kernel zeroes and faults in again. By default
  // glibc starts at 128 KiB and raises the threshold only as such blocks are freed. Measured on
  // hx4mesh-1024 traffic under mpirun -np 2: page faults 19,500-19,800 -> 9,800-10,600 (both
  // ranks). The heap's top still goes back to the kernel as before: keeping that too (a 1 GiB trim
  // threshold) cost hx4mesh-16k's ranks 22 MiB each more at their peak and saved no more faults;
  // this costs them 4 MiB (1,085 / 1,087 MiB against 1,081 / 1,085).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

std::string heap_pages() {
  if (tunables().find(std::string(kTunable) + "=1") != std::string::npos && kernel_offers_huge_pages()) {
    return "transparent huge pages (" + std::string(kTunable) + "=1)";
  }
  return "4 KiB pages";
}

}  // namespace hxemu::cli
