// The runner as a list of named checks over one execution record
// (harness/run/checks.h): the table per backend, each finding stamped with the
// check that made it, the first failing check ends the case, and the provenance
// shadow runs the same checks over a record of its own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/backend.h"
#include "harness/run/checks.h"
#include "harness/run/runner.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

std::vector<std::string> names(const std::vector<Check>& checks) {
  std::vector<std::string> out;
  for (const Check& c : checks)
    out.push_back(std::string(runner_check_word(c.id)) + (c.needs == Stage::RewriteRun ? std::string(":") + alias_mode_name(c.mode) : ""));
  return out;
}

CaseReport run(const std::string& text, const char* backend) {
  ParseResult p = parse_case(text, "checks.case");
  EXPECT_TRUE(p.ok) << p.error;
  const Backend* b = find_backend(backend);
  EXPECT_NE(b, nullptr) << backend;
  return run_case(p.c, p.info, *b, RunOptions{});
}

TEST(RunnerChecks, TheTableFollowsTheBackendsAliasModes) {
  const std::vector<std::string> both = {
      "oracles-agree", "backend-admits", "copy-path", "rewrite-decisions", "plan-invariants", "arena-growth",
      "alias-facts:runtime-op", "rewrite-values:runtime-op", "alias-facts-again:runtime-op",
      "rewrite-values-again:runtime-op", "alias-facts:planned", "rewrite-values:planned",
      "alias-facts-again:planned", "rewrite-values-again:planned", "alias-contract"};
  EXPECT_EQ(names(case_checks(*find_backend("reference"))), both);
  // PR 21552's rule places aliases by the plan only: no runtime op, no contract.
  const std::vector<std::string> planned = {
      "oracles-agree", "backend-admits", "copy-path", "rewrite-decisions", "plan-invariants", "arena-growth",
      "alias-facts:planned", "rewrite-values:planned", "alias-facts-again:planned", "rewrite-values-again:planned"};
  EXPECT_EQ(names(case_checks(*find_backend("pr21552-rule"))), planned);
  const std::vector<std::string> worker = {"oracles-agree", "backend-admits", "worker-answer", "worker-values"};
  EXPECT_EQ(names(case_checks(*find_backend("torch-fx-reinplace"))), worker);
}

TEST(RunnerChecks, EachFindingNamesTheCheckThatMadeIt) {
  const std::string output_alias =
      "slicefuzz-case 1\ndtype float32\ninput x [4, 2]\ny = slice_copy(x, dim=0, start=1, end=3, step=1)\noutput y\n";
  CaseReport unsound = run(output_alias, "faulty-output-rule");
  ASSERT_NE(unsound.first_failure(), nullptr);
  EXPECT_EQ(unsound.first_failure()->kind, FindingKind::UNSOUND_REWRITE);
  EXPECT_EQ(unsound.first_failure()->check.word(), "rewrite-decisions");

  const std::string strided =
      "slicefuzz-case 1\ndtype float32\ninput x [2, 2] dim_order=[1, 0]\n"
      "a = slice_copy(x, dim=0, start=None, end=None, step=2)\noutput a\n";
  CaseReport copy = run(strided, "faulty-blockcopy");
  ASSERT_NE(copy.first_failure(), nullptr);
  EXPECT_EQ(copy.first_failure()->check.word(), "copy-path");
  EXPECT_EQ(run(strided, "reference").first_failure(), nullptr);
}

// DESIGN section 2's example: the alias keeps t alive beside z.
TEST(RunnerChecks, TheFirstFailingCheckEndsTheCase) {
  const std::string grows =
      "slicefuzz-case 1\ndtype float32\ninput x [8, 4]\nt = clone(x)\n"
      "y = slice_copy(t, dim=0, start=0, end=1, step=1)\nz = clone(x)\nw = clone(y)\noutput w, z\n";
  ParseResult p = parse_case(grows, "grows.case");
  ASSERT_TRUE(p.ok) << p.error;
  Backend promising = *find_backend("reference");
  promising.never_grows_arena = true;
  CaseReport r = run_case(p.c, p.info, promising, RunOptions{});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::MEMORY_REGRESSION);
  EXPECT_EQ(r.findings[0].check.word(), "arena-growth");

  // The same program with a backend whose rewrite path also breaks later (its
  // second execution reads through a stale alias pointer: an ASan report, which
  // would end this very process, `slicefuzz check --backend faulty-alias-pointer-once`
  // shows it): promising never to grow the arena, the case ends at arena-growth
  // and the rewrite path never runs.
  const std::string grows_later =
      "slicefuzz-case 1\ndtype float32\ninput x [8, 4]\nt = clone(x)\n"
      "y = slice_copy(t, dim=0, start=1, end=2, step=1)\nz = clone(x)\nw = clone(y)\noutput w, z\n";
  p = parse_case(grows_later, "grows_later.case");
  ASSERT_TRUE(p.ok) << p.error;
  Backend stale = *find_backend("faulty-alias-pointer-once");
  stale.never_grows_arena = true;
  r = run_case(p.c, p.info, stale, RunOptions{});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::MEMORY_REGRESSION);
  EXPECT_EQ(r.findings[0].check.word(), "arena-growth");
}

// bool repeats its two values: the case's own copy path looks right, and only the
// int64 shadow (each element its own index) shows the element came from the
// wrong place; its findings say so in their check's name.
TEST(RunnerChecks, TheProvenanceShadowRunsTheSameChecksOnItsOwnRecord) {
  const std::string hidden =
      "slicefuzz-case 1\ndtype bool\ninput x [4, 2] dim_order=[1, 0]\n"
      "a = slice_copy(x, dim=0, start=0, end=2, step=1)\noutput a\n";
  CaseReport r = run(hidden, "faulty-blockcopy");
  ASSERT_NE(r.first_failure(), nullptr);
  EXPECT_EQ(r.first_failure()->check.word(), "provenance-shadow/copy-path");
  EXPECT_NE(r.first_failure()->message.find("int64 provenance shadow"), std::string::npos)
      << r.first_failure()->message;
  EXPECT_EQ(shadow_checks(AliasMode::RuntimeOp).size(), 3u);
  EXPECT_EQ(run(hidden, "reference").first_failure(), nullptr);
}

}  // namespace
}  // namespace slicefuzz
