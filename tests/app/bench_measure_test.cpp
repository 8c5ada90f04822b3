// hxemu-bench's process control (app/bench/bench_measure.h): a pinned child runs on the CPU it was
// pinned to, a CPU it may not use is refused, and an unpinned child keeps the parent's CPUs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "app/bench/bench_measure.h"

namespace {

using hxemu::bench::allowed_cpus;
using hxemu::bench::run_process;

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The child's own "Cpus_allowed_list" line of /proc/self/status.
std::string child_cpus(int cpu) {
  const std::string log = ::testing::TempDir() + "bench_measure_" + std::to_string(::getpid()) + ".log";
  std::remove(log.c_str());
  const auto r = run_process({"grep", "Cpus_allowed_list", "/proc/self/status"}, log, cpu);
  EXPECT_TRUE(r.ok()) << read_all(log);
  std::string s = read_all(log);
  std::remove(log.c_str());
  const auto tab = s.find_first_of(" \t", s.find(':'));
  s = tab == std::string::npos ? s : s.substr(s.find_first_not_of(" \t", tab));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

TEST(BenchMeasure, PinnedChildRunsOnItsCpu) {
  const auto cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  for (int c : cpus) EXPECT_EQ(child_cpus(c), std::to_string(c));
}

TEST(BenchMeasure, UnpinnedChildKeepsTheParentsCpus) {
  const auto cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const std::string list = child_cpus(-1);
  // One CPU prints as "0", consecutive ones as a range "0-1".
  const std::string expect = cpus.size() == 1 ? std::to_string(cpus[0])
                                              : std::to_string(cpus.front()) + "-" + std::to_string(cpus.back());
  if (cpus.back() - cpus.front() + 1 == static_cast<int>(cpus.size())) {
    EXPECT_EQ(list, expect);
  } else {
    EXPECT_FALSE(list.empty());
  }
}

TEST(BenchMeasure, ACpuOutsideTheSetIsNotStarted) {
  const std::string log = ::testing::TempDir() + "bench_measure_bad_" + std::to_string(::getpid()) + ".log";
  std::remove(log.c_str());
  const auto r = run_process({"true"}, log, 1000);   // beyond any CPU of this machine
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.exit_status, 126);
  EXPECT_NE(read_all(log).find("cannot pin to CPU 1000"), std::string::npos) << read_all(log);
  std::remove(log.c_str());
}

}  // namespace
