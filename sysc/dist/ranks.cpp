#include "sysc/dist/ranks.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#if defined(HX_WITH_MPI)
#include <mpi.h>
#endif

namespace hxemu::sysc {

namespace {
int g_rank = 0;
int g_size = 1;
bool g_mpi = false;
}  // namespace

#if defined(HX_WITH_MPI)

namespace {
// Started by mpirun (Open MPI sets these), or by another MPI launcher (PMI_RANK / PMIX_RANK).
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_RANK") || std::getenv("PMIX_RANK");
}

// Every rank on this machine (Open MPI's local size equals the world size): the ranks talk through
// shared memory, and Open MPI's ob1 messaging layer (with its shared-memory transport) starts in
// 0.25 s where its default, which first probes for UCX network devices, takes 0.47 s (mpirun
// -np 2 hxemu --version on the 2-vCPU machine). A choice of the user's (mpirun --mca pml ...,
// or OMPI_MCA_pml in the environment) stands; jobs across machines keep Open MPI's default.
void prefer_shared_memory_messaging() {
  const char* world = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (world == nullptr || local == nullptr || std::string(world) != std::string(local)) return;
  setenv("OMPI_MCA_pml", "ob1", 0);
}
}  // namespace

void Ranks::init(int* argc, char*** argv) {
  if (g_mpi || !launched_by_mpirun()) return;
  prefer_shared_memory_messaging();
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  g_mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::atexit(&Ranks::finalize);
}

void Ranks::finalize() {
  if (!g_mpi) return;
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

std::string Ranks::library() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::string v(version, static_cast<std::size_t>(len));
  const auto comma = v.find(',');
  if (comma != std::string::npos) v.resize(comma);
  return "MPI (" + v + ")";
}

void Ranks::barrier() {
  if (g_size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

void Ranks::sum(std::vector<std::uint64_t>& v) {
  if (g_size == 1 || v.empty()) return;
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

std::uint64_t Ranks::sum(std::uint64_t v) {
  if (g_size > 1) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return v;
}

std::uint64_t Ranks::max(std::uint64_t v) {
  if (g_size > 1) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return v;
}

bool Ranks::all(bool v) {
  if (g_size == 1) return v;
  int x = v ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return x != 0;
}

void Ranks::all_gather(const std::string& mine, std::string& all, std::vector<std::size_t>& at) {
  at.assign(static_cast<std::size_t>(g_size) + 1, 0);
  if (g_size == 1) {
    all.assign(mine);
    at[1] = mine.size();
    return;
  }
  const int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(g_size)), offs(static_cast<std::size_t>(g_size));
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < g_size; ++r) {
    offs[r] = total;
    total += lens[r];
    at[static_cast<std::size_t>(r) + 1] = static_cast<std::size_t>(total);
  }
  all.resize(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), len, MPI_BYTE, all.data(), lens.data(), offs.data(), MPI_BYTE,
                 MPI_COMM_WORLD);
}

std::vector<std::string> Ranks::all_gather(const std::string& mine) {
  if (g_size == 1) return {mine};
  std::string all;
  std::vector<std::size_t> at;
  all_gather(mine, all, at);
  std::vector<std::string> out;
  for (int r = 0; r < g_size; ++r) out.push_back(all.substr(at[r], at[r + 1] - at[r]));
  return out;
}

void Ranks::exchange(const std::vector<int>& peers, const std::vector<std::string>& out,
                     std::vector<std::string>& in) {
  constexpr int kTag = 7001;
  const std::size_t n = peers.size();
  in.resize(n);
  std::vector<MPI_Request> sends(n);
  for (std::size_t i = 0; i < n; ++i) {
    MPI_Isend(out[i].data(), static_cast<int>(out[i].size()), MPI_BYTE, peers[i], kTag,
              MPI_COMM_WORLD, &sends[i]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    MPI_Status st;
    MPI_Probe(peers[i], kTag, MPI_COMM_WORLD, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    in[i].resize(static_cast<std::size_t>(count));
    MPI_Recv(in[i].data(), count, MPI_BYTE, peers[i], kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(n), sends.data(), MPI_STATUSES_IGNORE);
}

#else   // one process

void Ranks::init(int*, char***) {}
void Ranks::finalize() {}
std::string Ranks::library() { return "no MPI"; }
void Ranks::barrier() {}
void Ranks::sum(std::vector<std::uint64_t>&) {}
std::uint64_t Ranks::sum(std::uint64_t v) { return v; }
std::uint64_t Ranks::max(std::uint64_t v) { return v; }
bool Ranks::all(bool v) { return v; }
std::vector<std::string> Ranks::all_gather(const std::string& mine) { return {mine}; }
void Ranks::all_gather(const std::string& mine, std::string& all, std::vector<std::size_t>& at) {
  all.assign(mine);
  at = {0, mine.size()};
}
void Ranks::exchange(const std::vector<int>& peers, const std::vector<std::string>&,
                     std::vector<std::string>& in) {
  if (!peers.empty()) throw std::logic_error("Ranks::exchange without MPI");
  in.clear();
}

#endif

int Ranks::rank() { return g_rank; }
int Ranks::size() { return g_size; }

}  // namespace hxemu::sysc
