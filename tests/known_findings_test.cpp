// Known findings: a finding whose root-cause signature is listed for the active
// backend is KNOWN (reported, counted, exit 0); the same finding without the
// list is a FAIL (exit 1). Fixture: tests/fixtures/known/faulty-output-rule/.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "harness/triage/known.h"
#include "vocab/case.h"

namespace slicefuzz {
namespace {

const std::string kKnownDir = std::string(SLICEFUZZ_SOURCE_DIR) + "/tests/fixtures/known/faulty-output-rule";
const std::string kCase = kKnownDir + "/output_slice_aliased.case";

std::string run(const std::string& args, int& status) {
  std::string out;
  FILE* p = popen((std::string(SLICEFUZZ_CLI) + " " + args + " 2>/dev/null").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = p ? pclose(p) : -1;
  status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

TEST(KnownFindings, TheFixtureHeaderIsRead) {
  std::vector<KnownFinding> known;
  std::string error;
  ASSERT_TRUE(load_known_findings(kKnownDir, known, error)) << error;
  // One per view-copy op kind: the planted output-rule bug is one cause, but a
  // signature names the op that was wrongly rewritten.
  size_t view_copy_kinds = 0;
  for (const OpKindInfo& row : kOpKinds) {
    if (!op_is_view_copy(row.kind)) continue;
    ++view_copy_kinds;
    EXPECT_NE(find_known(known, std::string("UNSOUND_REWRITE:") + row.name + ":rewrite:program-output"),
              nullptr) << "no fixture for " << row.name;
  }
  ASSERT_EQ(known.size(), view_copy_kinds);
  const KnownFinding* slice = find_known(known, "UNSOUND_REWRITE:slice_copy:rewrite:program-output");
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(slice->first_seen, "2026-11-30");
  EXPECT_FALSE(slice->upstream.empty());
  EXPECT_EQ(find_known(known, "VALUE_MISMATCH:slice_copy:copy"), nullptr);
}

TEST(KnownFindings, CheckReportsKnownInsteadOfFail) {
  int status = 0;
  // Without the list (an empty --known), the planted bug is an ordinary FAIL.
  std::string out = run("check --backend faulty-output-rule --known /nonexistent " + kCase, status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(out.find("FAIL " + kCase + " UNSOUND_REWRITE"), std::string::npos) << out;
  // With it, the same finding is KNOWN, counted, and the run is green.
  out = run("check --backend faulty-output-rule --known " + kKnownDir + " " + kCase, status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("KNOWN " + kCase + " UNSOUND_REWRITE"), std::string::npos) << out;
  EXPECT_NE(out.find("0 passed, 0 failed, 1 known\n"), std::string::npos) << out;
}

TEST(KnownFindings, TriageMarksTheStatusAndRunCountsKnownFindings) {
  int status = 0;
  std::string out = run("triage --backend faulty-output-rule --known " + kKnownDir + " " + kCase, status);
  EXPECT_EQ(status, 0) << out;
  // STATUS, then the slug (the signature as a file name) as the last column.
  EXPECT_NE(out.find("\tKNOWN\tUNSOUND_REWRITE-"), std::string::npos) << out;
  out = run("triage --backend faulty-output-rule --known /nonexistent " + kCase, status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(out.find("\tNEW\tUNSOUND_REWRITE-"), std::string::npos) << out;
  // A campaign on the faulty backend: every finding is this one root cause, so
  // with the list it ends green and says how many were known.
  out = run("run --count 40 --seed 1 --backend faulty-output-rule --known " + kKnownDir, status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("known UNSOUND_REWRITE:slice_copy:rewrite:program-output:"), std::string::npos) << out;
  EXPECT_NE(out.find(" known\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace slicefuzz
