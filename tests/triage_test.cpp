// Minimisation and reproducer export, on a deliberately faulty backend as the
// fixture: a planted 12-op program whose only bug trigger is one strided slice.
#include <gtest/gtest.h>

#include "test_temp_dir.h"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness/export/export.h"
#include "harness/triage/minimizer.h"
#include "harness/triage/signature.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

// faulty-density-step accepts step > 1 as dense: the pass then aliases `s`, which
// is UNSOUND_REWRITE. Everything else is noise the minimiser must remove.
constexpr const char* kPlanted = R"(slicefuzz-case 1
dtype int16
input x [6, 5, 4] dim_order=[0, 2, 1]
a = clone(x)
add_(a, 3)
b = slice_copy(a, dim=0, start=1, end=5, step=1)
c = slice_copy(b, dim=-1, start=None, end=None, step=1)
d = clone(c)
copy_(d, c)
s = slice_copy(d, dim=0, start=0, end=None, step=2)
e = clone(s)
add_(e, -1)
f = slice_copy(e, dim=2, start=1, end=3, step=1)
g = clone(f)
add_(g, 2)
output g, a
)";

Case planted() {
  ParseResult p = parse_case(kPlanted);
  EXPECT_TRUE(p.ok) << p.error;
  return p.c;
}

TEST(Minimizer, ShrinksAPlantedTwelveOpProgramToAtMostThreeOps) {
  const Case c = planted();
  ASSERT_GE(c.ops.size(), 10u);
  const Backend* faulty = find_backend("faulty-density-step");
  ASSERT_NE(faulty, nullptr);
  MinimizeResult r = minimize_case(c, *faulty, RunOptions{}, IsolationOptions{}, 120);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::UNSOUND_REWRITE) << r.finding.message;
  EXPECT_LE(r.minimized.ops.size(), 3u) << print_case(r.minimized);
  EXPECT_GT(r.accepted, 0);
  // The minimised case still fails on the faulty backend, and passes on reference.
  ParseResult p = parse_case(print_case(r.minimized));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_TRUE(run_case(p.c, p.info, *faulty, RunOptions{}).failed());
  EXPECT_FALSE(run_case(p.c, p.info, *find_backend("reference"), RunOptions{}).failed());
  // Deterministic: the same input minimises to the same case.
  MinimizeResult again = minimize_case(c, *faulty, RunOptions{}, IsolationOptions{}, 120);
  EXPECT_EQ(print_case(again.minimized), print_case(r.minimized));
}

// An output made an alias reproduces on an empty tensor too, where the message
// says "0 of 0 elements"; the minimiser keeps the data non-empty (sizes shrink
// toward 1) and the finding kind.
TEST(Minimizer, PrefersTheSmallestNonEmptySizes) {
  ParseResult p = parse_case(R"(slicefuzz-case 1
dtype float32
input x [6, 4]
y = slice_copy(x, dim=0, start=2, end=4, step=1)
c = clone(y)
output y, c
)");
  ASSERT_TRUE(p.ok) << p.error;
  MinimizeResult r = minimize_case(p.c, *find_backend("faulty-output-rule"), RunOptions{},
                                   IsolationOptions{}, 60);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::UNSOUND_REWRITE) << r.finding.message;
  for (int64_t size : r.minimized.inputs[0].sizes) EXPECT_EQ(size, 1) << print_case(r.minimized);
  EXPECT_EQ(r.finding.message.find("0 of 0"), std::string::npos) << r.finding.message;
}

// A finding first seen on an empty input may need the emptiness: there size 0
// stays allowed (tried after every other candidate).
TEST(Minimizer, KeepsEmptySizesWhenTheOriginalWasEmpty) {
  ParseResult p = parse_case(R"(slicefuzz-case 1
dtype float32
input x [0, 5]
y = slice_copy(x, dim=1, start=3, end=None, step=1)
c = clone(y)
output c
)");
  ASSERT_TRUE(p.ok) << p.error;
  MinimizeResult r = minimize_case(p.c, *find_backend("faulty-empty-alias"), RunOptions{},
                                   IsolationOptions{}, 60);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::ALIAS_VIOLATION) << r.finding.message;
  bool empty = false;
  for (int64_t size : r.minimized.inputs[0].sizes) empty = empty || size == 0;
  EXPECT_TRUE(empty) << print_case(r.minimized);
}

TEST(Minimizer, ReportsAPassingCaseAsNotReproduced) {
  MinimizeResult r =
      minimize_case(planted(), *find_backend("reference"), RunOptions{}, IsolationOptions{}, 30);
  EXPECT_FALSE(r.reproduced);
}

// The minimiser keeps the root-cause signature, not only the kind: on
// pr21552-rule a base written while its slice is read must not shrink into a
// slice written in place (both UNSOUND_REWRITE of the same slice_copy).
TEST(Minimizer, KeepsTheRootCauseSignature) {
  ParseResult p = parse_case(
      "slicefuzz-case 1\ndtype float32\ninput x [4]\nt = clone(x)\n"
      "a = slice_copy(t, dim=0, start=1, end=3, step=1)\nadd_(t, 10)\nb = clone(a)\noutput b, t\n");
  ASSERT_TRUE(p.ok) << p.error;
  MinimizeResult r = minimize_case(p.c, *find_backend("pr21552-rule"), RunOptions{},
                                   IsolationOptions{}, 60);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(finding_signature(r.minimized, r.finding),
            "UNSOUND_REWRITE:slice_copy:rewrite:root-written-while-read")
      << print_case(r.minimized);
  EXPECT_LT(r.accepted, r.candidates);
}

// A crashing backend during minimisation costs candidates, not the minimiser.
TEST(Minimizer, SurvivesASanitizerAbortInEveryCandidate) {
  ParseResult p = parse_case(
      "slicefuzz-case 1\ndtype float32\ninput x [4, 3]\ny = clone(x)\nadd_(y, 1)\n"
      "z = slice_copy(y, dim=1, start=1, end=None, step=9223372036854775807)\noutput z\n");
  ASSERT_TRUE(p.ok) << p.error;
  MinimizeResult r = minimize_case(p.c, *find_backend("faulty-length-overflow"), RunOptions{},
                                   IsolationOptions{}, 60);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::SANITIZER) << r.finding.message;
  EXPECT_LE(r.minimized.ops.size(), 1u) << print_case(r.minimized);
}

std::string run_command(const std::string& cmd, int& status) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  status = pclose(f);
  return out;
}

TEST(Export, PythonReproducerRunsWithDebiansTorchAndPrintsTheExpectedValues) {
  ParseResult p = parse_case(
      "slicefuzz-case 1\ndtype bool\ninput x [3, 4] dim_order=[1, 0]\n"
      "y = slice_copy(x, dim=1, start=-3, end=None, step=2)\nadd_(y, 1)\noutput y\n");
  ASSERT_TRUE(p.ok) << p.error;
  CaseSummary finding;
  finding.failed = true;
  finding.kind = FindingKind::VALUE_MISMATCH;
  finding.message = "copy path: element [0, 1]: expected true, got false";
  finding.path = FindingPath::Copy;
  const std::string script = export_python(p.c, finding, "faulty-blockcopy");
  const std::string path = slicefuzz::testing::process_temp_dir() / "slicefuzz_export_test.py";
  std::ofstream(path) << script;
  int status = 0;
  const std::string out = run_command("/usr/bin/python3 " + path + " 2>&1", status);
  ASSERT_EQ(status, 0) << out;
  // x[:, 1::2] of the fill (i % 3 == 1), negated by add_(y, 1) for bool:
  // row-major x = [F T F F / T F F T / F F T F]; columns 1, 3 -> [T F / F T / F F] -> negated.
  EXPECT_NE(out.find("expected y: [3, 2] [False, True, True, False, True, True]"), std::string::npos)
      << out;
  EXPECT_NE(out.find("slicefuzz finding: VALUE_MISMATCH"), std::string::npos) << out;
  EXPECT_EQ(script.rfind("#!/usr/bin/python3\n", 0), 0u) << "Debian's interpreter, by path";
  std::remove(path.c_str());
}

TEST(Export, GtestReproducerNamesTheBackendAndEmbedsTheCase) {
  const Case c = planted();
  CaseSummary finding;
  finding.failed = true;
  finding.kind = FindingKind::UNSOUND_REWRITE;
  finding.message = "rewrite path: ...";
  finding.path = FindingPath::Rewrite;
  const std::string test = export_gtest(c, finding, "faulty-density-step", "planted-12");
  EXPECT_NE(test.find("TEST(SlicefuzzReproducer, planted_12)"), std::string::npos);
  EXPECT_NE(test.find("find_backend(\"faulty-density-step\")"), std::string::npos);
  EXPECT_NE(test.find(print_case(c)), std::string::npos);
}

// Two exported reproducers must compile into one test binary: the CLI names each
// test after the file and a hash of its case, so two minimized.case files differ.
TEST(Export, GtestNamesFromTheCliDifferBetweenCasesWithTheSameFileName) {
  const auto dir = slicefuzz::testing::fresh_temp_subdir("slicefuzz_export_names");
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  std::ofstream(dir / "a" / "minimized.case") << "slicefuzz-case 1\ndtype float32\ninput x [3]\n"
                                                 "y = clone(x)\noutput y\n";
  std::ofstream(dir / "b" / "minimized.case") << "slicefuzz-case 1\ndtype int8\ninput x [3]\n"
                                                 "y = clone(x)\noutput y\n";
  auto test_line = [](const std::string& text) {
    const size_t at = text.find("TEST(SlicefuzzReproducer, ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  int status = 0;
  const std::string a = run_command(std::string(SLICEFUZZ_CLI) + " export --gtest " +
                                        (dir / "a" / "minimized.case").string() + " 2>/dev/null", status);
  ASSERT_EQ(WEXITSTATUS(status), 0) << a;
  const std::string b = run_command(std::string(SLICEFUZZ_CLI) + " export --gtest " +
                                        (dir / "b" / "minimized.case").string() + " 2>/dev/null", status);
  ASSERT_EQ(WEXITSTATUS(status), 0) << b;
  EXPECT_NE(test_line(a).find("minimized_"), std::string::npos) << test_line(a);
  EXPECT_NE(test_line(a), test_line(b));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slicefuzz
