// Output files: every path is checked before the run starts (exit 2 naming the option, nothing
// printed, nothing written), the outputs of one command are written all or none, and a failed
// write to standard output is an error, not exit status 0.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "run_hxemu.h"
#include "tb/report_io.h"

namespace hxemu::test {
namespace {

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Every command that writes files, set up to run quickly if its checks let it.
std::vector<std::vector<std::string>> every_writing_command() {
  const std::string cfg = config("hx2mesh-16");
  return {
      {"collective", "--config", cfg, "--sizes", "4K", "--harness", "plain", "--algo", "ring"},
      {"traffic", "--config", cfg, "--harness", "plain", "--warmup", "0", "--measure", "10"},
      {"sweep", "--config", cfg, "--harness", "plain", "--warmup", "0", "--measure", "10", "--loads", "0.1"},
      {"jobs", "--config", config("hx2mesh-64"), "--jobs", config("jobs-two-halves"), "--harness", "plain"},
      {"run", "--config", cfg, "--sizes", "4K", "--alltoall-sizes", "4K", "--harness", "plain"},
      {"describe", "--config", cfg},
      {"pairs", "--config", cfg, "--sample", "4"},
      {"compare", "--configs", cfg, "--experiment", "alltoall:4K", "--harness", "plain"},
  };
}

void expect_refused_fast(const std::vector<std::string>& args, const std::vector<std::string>& must_contain) {
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = run_hxemu(args, {}, 60);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r.timed_out) << cmd;
  EXPECT_EQ(r.status, 2) << "hxemu" << cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "") << "hxemu" << cmd << ": printed before the path check";
  EXPECT_LT(secs, 30) << "hxemu" << cmd << ": the path was not checked before the run";
  for (const auto& want : must_contain) {
    EXPECT_NE(r.err.find(want), std::string::npos) << "hxemu" << cmd << ": stderr lacks \"" << want << "\":\n" << r.err;
  }
}

TEST(OutputPaths, UnwritablePathIsRefusedBeforeTheRunOnEveryCommand) {
  for (const auto& args : every_writing_command()) {
    expect_refused_fast(with(args, {"--json", "/proc/x.json"}), {"--json '/proc/x.json'", "cannot create"});
  }
}

TEST(OutputPaths, FolderDeviceMissingFolderAndDuplicatePathAreRefused) {
  TempDir d;
  const auto base = every_writing_command().front();
  expect_refused_fast(with(base, {"--csv", d.path()}), {"--csv", "is a folder"});
  expect_refused_fast(with(base, {"--plot", d.path() + "/"}), {"--plot", "is a folder"});
  expect_refused_fast(with(base, {"--json", d.file("no/such/folder.json")}), {"--json", "does not exist"});
  expect_refused_fast(with(base, {"--json", "/dev/null"}), {"--json", "not a regular file"});
  expect_refused_fast(with(base, {"--json", d.file("a"), "--csv", d.file("a")}), {"--csv", "also given to --json"});
  EXPECT_TRUE(d.entries().empty()) << "a refused command left files behind";
}

TEST(OutputPaths, OneBadOutputMeansNoneIsWritten) {
  TempDir d;
  for (const auto& args : every_writing_command()) {
    if (args[0] != "collective" && args[0] != "traffic" && args[0] != "sweep") continue;   // one output only
    expect_refused_fast(with(args, {"--json", d.file("r.json"), "--csv", d.file("r.csv"), "--plot", "/proc/x.svg"}),
                        {"--plot"});
  }
  EXPECT_TRUE(d.entries().empty());
}

TEST(OutputPaths, AllOutputsAreWrittenAndNoTemporaryIsLeft) {
  TempDir d;
  const auto args = with(every_writing_command().front(),
                         {"--json", d.file("r.json"), "--csv", d.file("r.csv"), "--plot", d.file("r.svg")});
  const RunResult r = run_hxemu(args, {}, 120);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"r.csv", "r.json", "r.svg"}));
}

TEST(OutputPaths, AllOrNoneWhenAWriteFailsAtTheEnd) {
  // The library level: the second file's folder disappears during the "run"; the first file must
  // not be written either, and no temporary may be left.
  TempDir d;
  const std::string sub = d.file("sub");
  ASSERT_EQ(::mkdir(sub.c_str(), 0755), 0);
  tb::OutputFiles files;
  files.add("--json", d.file("a.json"));
  files.add("--csv", sub + "/b.csv");
  files.put(d.file("a.json"), "{}\n");
  files.put(sub + "/b.csv", "x\n");
  ASSERT_EQ(::rmdir(sub.c_str()), 0);
  try {
    files.commit();
    FAIL() << "commit succeeded without the folder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("b.csv"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(d.entries().empty()) << d.entries().front();
}

TEST(OutputPaths, StdoutWriteErrorIsNotSuccess) {
  const RunResult r = run_hxemu({"describe", "--config", config("hx2mesh-16")}, {}, 60, "/dev/full");
  EXPECT_EQ(r.status, 1) << r.err;
  // "cannot write to standard output (No space left on device)", or the same from the printing
  // library when the output is larger than the stdio buffer.
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  // The same command to a working stdout succeeds (the check itself does not fail).
  EXPECT_EQ(run_hxemu({"describe", "--config", config("hx2mesh-16")}).status, 0);
}

}  // namespace
}  // namespace hxemu::test
