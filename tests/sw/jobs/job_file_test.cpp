// Job files: every bad field is an error naming the job, the field and the allowed values; values
// are compared in their own type (no overflow or truncation on the way); algorithms must fit the
// job's rows and columns.
#include <gtest/gtest.h>

#include <string>

#include "sw/jobs/training_job.h"
#include "sysc/system/system_config.h"

namespace hxemu::test {
namespace {

// hx2mesh-64: 2x2 boards in a 4x4 grid.
const sysc::SystemConfig& cfg() {
  static const auto c = sysc::load_system_config(std::string(HX_CONFIG_DIR) + "/hx2mesh-64.json");
  return c;
}

std::string error_of(const std::string& jobs) {
  try {
    sw::parse_jobs(R"({"jobs": [)" + jobs + "]}", "test.json", cfg());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

struct Case {
  const char* jobs;
  std::vector<std::string> must_contain;
};

TEST(JobFile, BadFieldsNameTheJobTheFieldAndTheAllowedValues) {
  const Case cases[] = {
      {R"({"name": "A", "boards": [2147483647, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[0] (A).boards[0] (R0)", "0..3", "2147483647"}},
      {R"({"name": "A", "boards": [0, 2147483647, 1, 1], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[0] (A).boards[1] (C0)", "0..3"}},
      {R"({"name": "A", "boards": [3, 0, 2147483647, 1], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[0] (A).boards[2] (H)", "1..1", "2147483647"}},
      {R"({"name": "A", "boards": [0, 0, 1, 4294967296], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[0] (A).boards[3] (W)", "1..4", "4294967296"}},
      {R"({"name": "A", "boards": [0, 0, 1, 18446744073709551615], "tp_bytes": 4, "dp_bytes": 4})",
       {"(W)", "18446744073709551615"}},
      {R"({"name": "A", "boards": [0, 0, -1, 1], "tp_bytes": 4, "dp_bytes": 4})", {"(H)", "1..4", "-1"}},
      {R"({"name": "A", "boards": [0, 0, 1.5, 1], "tp_bytes": 4, "dp_bytes": 4})", {"(H)", "integer"}},
      {R"({"name": "A", "boards": [0, 0, 1], "tp_bytes": 4, "dp_bytes": 4})", {"jobs[0] (A).boards", "[R0, C0, H, W]", "4x4"}},
      {R"({"name": 42, "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})", {"jobs[0].name", "string", "42"}},
      {R"({"name": "", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})", {"jobs[0].name", "1 to 64"}},
      {R"({"name": "A\u001b[2J", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4})", {"jobs[0].name", "printable"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "steps": 4294967297, "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[0] (A).steps", "1..1000", "4294967297"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "steps": "2", "tp_bytes": 4, "dp_bytes": 4})", {"(A).steps", "integer"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4294967296, "dp_bytes": 4})", {"(A).tp_bytes", "0..268435456"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 6, "dp_bytes": 4})", {"(A).tp_bytes", "multiple of 4"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "dp_bytes": 4})", {"(A).tp_bytes", "required"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4, "tp_algo": ["ring"]})",
       {"(A).tp_algo", "ring, biring, halving-doubling"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4, "tp_algo": "fastest"})",
       {"(A).tp_algo", "fastest", "ring, biring, halving-doubling"}},
      // The job's columns are 1x6 accelerators (3 boards of 2): not a power of two.
      {R"({"name": "A", "boards": [0, 0, 3, 1], "tp_bytes": 4, "dp_bytes": 4, "dp_algo": "halving-doubling"})",
       {"(A).dp_algo", "power-of-two", "columns", "ring, biring"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4, "dp_algo": "rings"})",
       {"(A).dp_algo", "rings", "square"}},
      {R"({"name": "A", "boards": [0, 0, 2, 2], "tp_bytes": 4, "dp_bytes": 4},
          {"name": "B", "boards": [1, 1, 1, 1], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[1] (B).boards", "board (1, 1)", "job A"}},
      {R"({"name": "A", "boards": [0, 0, 1, 1], "tp_bytes": 4, "dp_bytes": 4},
          {"name": "A", "boards": [1, 1, 1, 1], "tp_bytes": 4, "dp_bytes": 4})",
       {"jobs[1].name", "used twice"}},
  };
  for (const auto& c : cases) {
    const std::string err = error_of(c.jobs);
    ASSERT_NE(err, "") << "accepted: " << c.jobs;
    for (const auto& want : c.must_contain) {
      EXPECT_NE(err.find(want), std::string::npos) << "error \"" << err << "\" lacks \"" << want << "\"";
    }
  }
}

TEST(JobFile, GoodFileParsesAndAliasesBecomeNames) {
  const auto jobs = sw::parse_jobs(
      R"({"jobs": [{"name": "A", "boards": [0, 0, 4, 2], "steps": 2, "tp_bytes": 1024, "dp_bytes": 4096,
                    "tp_algo": "ring", "dp_algo": "halving-doubling"},
                   {"boards": [0, 2, 4, 2], "tp_bytes": 0, "dp_bytes": 4}]})",
      "test.json", cfg());
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].board_rows, 4);
  EXPECT_EQ(jobs[0].dp_algo, "halving-doubling");
  EXPECT_EQ(jobs[1].name, "job1");
  EXPECT_EQ(jobs[1].tp_algo, "biring");
  EXPECT_NO_THROW(sw::load_jobs(std::string(HX_CONFIG_DIR) + "/jobs-two-halves.json", cfg()));
}

TEST(JobFile, DevicesAndMissingFilesAreRefused) {
  EXPECT_THROW(sw::load_jobs("/dev/zero", cfg()), std::invalid_argument);
  EXPECT_THROW(sw::load_jobs("/nonexistent.json", cfg()), std::invalid_argument);
}

}  // namespace
}  // namespace hxemu::test
