// Ranks: the processes one emulation runs on (MPI ranks under mpirun; one process otherwise) and
// the few collective operations the harness and the testbench need to keep every rank's control
// flow identical (SPMD): every rank builds the same System, steps only the partitions it owns,
// and agrees with the others on anything that decides what to do next (is the network quiet, has
// every packet arrived, did the watchdog fire).
//
// Built without MPI (HX_WITH_MPI undefined) or started without mpirun, there is one rank and every
// operation is the identity. Only the thread that called init() may call the others.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hxemu::sysc {

class Ranks {
 public:
  // Starts MPI when built with it and launched under mpirun (safe to call when not); idempotent.
  static void init(int* argc, char*** argv);
  // Ends MPI (at process exit; registered by init).
  static void finalize();
  static int rank();
  static int size();
  static bool distributed() { return size() > 1; }
  // "MPI (Open MPI 4.1.4)" or "no MPI" for --version and report stamps.
  static std::string library();

  static void barrier();
  // Element-wise over every rank, in place; every rank gets the result.
  static void sum(std::vector<std::uint64_t>& v);
  static std::uint64_t sum(std::uint64_t v);
  static std::uint64_t max(std::uint64_t v);
  static bool all(bool v);
  static bool any(bool v) { return !all(!v); }
  // Every rank's bytes, in rank order, on every rank.
  static std::vector<std::string> all_gather(const std::string& mine);
  // The same into buffers the caller keeps (a per-window or per-chunk exchange allocates nothing
  // once they have grown): rank r's bytes are all[at[r], at[r + 1]); `at` gets size() + 1 entries.
  static void all_gather(const std::string& mine, std::string& all, std::vector<std::size_t>& at);

  // Point to point, for the link exchange: sends to each peer its bytes and receives each peer's
  // (peers[i] <-> out[i] / in[i]); sizes need not be known in advance.
  static void exchange(const std::vector<int>& peers, const std::vector<std::string>& out,
                       std::vector<std::string>& in);
};

}  // namespace hxemu::sysc
