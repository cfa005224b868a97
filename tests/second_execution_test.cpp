// The rewrite path executes the method twice (program/arena_executor.h): the
// values' tensors persist, the second execution runs in a fresh arena while the
// first is poisoned. An alias prim op that sets out's data pointer only once
// (faulty-alias-pointer-once, pytorch/executorch issue 2843) is caught on the
// second execution; the reference, and planned aliases, are not.
#include <gtest/gtest.h>

#include "backends/backend.h"
#include "harness/run/runner.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/poison.h"

namespace slicefuzz {
namespace {

// One alias of each prim op, each read by a later clone.
constexpr const char* kReadAliases[] = {
    "slicefuzz-case 2\ndtype float32\ninput x [2, 4]\n"
    "y = view_copy(x, sizes=[8])\nz = clone(y)\noutput z\n",
    "slicefuzz-case 2\ndtype float32\ninput x [4, 3]\nb = clone(x)\n"
    "y = slice_copy(b, dim=0, start=1, end=3, step=1)\nz = clone(y)\noutput z\n",
    "slicefuzz-case 2\ndtype int16\ninput x [3, 4]\n"
    "y = select_copy(x, dim=0, index=-1)\nz = clone(y)\noutput z\n",
};

// An alias nobody reads: only its recorded pointer can give it away.
constexpr const char* kDeadAlias =
    "slicefuzz-case 1\ndtype float32\ninput x [4, 3]\n"
    "y = slice_copy(x, dim=0, start=1, end=3, step=1)\nz = clone(x)\noutput z\n";

ParseResult parse(const char* text) {
  ParseResult p = parse_case(text);
  EXPECT_TRUE(p.ok) << p.error;
  return p;
}

const Backend& backend(const char* name) {
  const Backend* b = find_backend(name);
  EXPECT_NE(b, nullptr) << name;
  return b ? *b : *find_backend("reference");
}

TEST(RewriteSecondExecution, ReferenceAgreesWithItselfInBothModes) {
  const Backend& ref = backend("reference");
  for (const char* text : kReadAliases) {
    const ParseResult p = parse(text);
    const RewritePlan rw = ref.pass(p.c, p.info, {});
    const MemoryPlan plan = ref.planner(p.c, p.info, rw);
    for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
      const RewritePathResult r =
          run_rewrite_path(p.c, p.info, make_input_values(p.info), rw, plan, ref.kernels, mode);
      ASSERT_TRUE(r.path.complete()) << text << r.path.error_message;
      ASSERT_TRUE(r.first_execution.path.complete()) << text;
      ASSERT_EQ(r.aliases.size(), 1u) << text;
      ASSERT_EQ(r.first_execution.aliases.size(), 1u) << text;
      EXPECT_EQ(r.aliases[0].delta_bytes, r.first_execution.aliases[0].delta_bytes) << text;
      std::string why;
      ASSERT_EQ(r.path.outputs.size(), 1u);
      EXPECT_TRUE(compare_values(r.first_execution.path.outputs[0], r.path.outputs[0], why))
          << text << why;
    }
    EXPECT_FALSE(run_case(p.c, p.info, ref, RunOptions{}).failed()) << text;
  }
}

TEST(FaultyAliasPointerOnce, PlannedAliasesAreRecomputedEachExecution) {
  // No prim op runs in planned mode: the same faulty kernels pass.
  Backend planned = backend("faulty-alias-pointer-once");
  planned.alias_mode = AliasMode::Planned;
  for (const char* text : kReadAliases) {
    const ParseResult p = parse(text);
    const CaseReport report = run_case(p.c, p.info, planned, RunOptions{});
    EXPECT_FALSE(report.failed()) << text << report.first_failure()->message;
    EXPECT_EQ(report.rewritten, 1) << text;
  }
}

TEST(FaultyAliasPointerOnce, DeadAliasKeepsTheFirstArenasPointer) {
  const ParseResult p = parse(kDeadAlias);
  ASSERT_EQ(backend("reference").pass(p.c, p.info, {}).decisions.size(), 1u);
  ASSERT_TRUE(backend("reference").pass(p.c, p.info, {}).decisions[0].alias);
  EXPECT_FALSE(run_case(p.c, p.info, backend("reference"), RunOptions{}).failed());
  const CaseReport report = run_case(p.c, p.info, backend("faulty-alias-pointer-once"), RunOptions{});
  const Finding* f = report.first_failure();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, FindingKind::ALIAS_VIOLATION);
  EXPECT_NE(f->message.find("second execution"), std::string::npos) << f->message;
}

// Only asked under ASan (kArenaIsPoisoned), where the interface exists.
bool poisoned(const uint8_t* p) {
#ifdef SLICEFUZZ_HAS_ASAN
  return __asan_address_is_poisoned(p) != 0;
#else
  (void)p;
  return false;
#endif
}

// Two arenas take turns (program/arena_executor.h): the third execution runs in
// the first's bytes, the fourth in the second's; each runs in other bytes than
// the execution before, which stay poisoned meanwhile; the values do not change.
TEST(RewriteMethodArenas, TwoArenasTakeTurnsAndTheLastStaysPoisoned) {
  const Backend& ref = backend("reference");
  const ParseResult p = parse(kReadAliases[1]);
  const RewritePlan rw = ref.pass(p.c, p.info, {});
  const MemoryPlan plan = ref.planner(p.c, p.info, rw);
  ASSERT_GT(plan.arena_bytes, 0);
  const std::vector<TensorValue> inputs = make_input_values(p.info);
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
    RewriteMethod method(p.info, rw, plan, ref.kernels, mode);
    EXPECT_EQ(method.last_arena(), nullptr);
    std::vector<const uint8_t*> ran_in;
    std::vector<RewriteExecution> runs;
    for (int k = 0; k < 4; ++k) {
      runs.push_back(method.execute(p.c, p.info, inputs));
      ASSERT_TRUE(runs.back().path.complete()) << k << runs.back().path.error_message;
      ran_in.push_back(method.last_arena());
      if (kArenaIsPoisoned && k > 0)  // the one before, retired while this one ran
        EXPECT_TRUE(poisoned(ran_in[k - 1])) << k;
      if (kArenaIsPoisoned) EXPECT_TRUE(poisoned(ran_in[k])) << k;  // retired too
    }
    EXPECT_NE(ran_in[0], ran_in[1]);
    EXPECT_EQ(ran_in[2], ran_in[0]);
    EXPECT_EQ(ran_in[3], ran_in[1]);
    for (int k = 1; k < 4; ++k) {
      std::string why;
      ASSERT_EQ(runs[k].path.outputs.size(), 1u);
      EXPECT_TRUE(compare_values(runs[0].path.outputs[0], runs[k].path.outputs[0], why)) << k << why;
      ASSERT_EQ(runs[k].aliases.size(), 1u);
      EXPECT_EQ(runs[k].aliases[0].delta_bytes, runs[0].aliases[0].delta_bytes) << k;
    }
  }
}

class FaultyAliasPointerOnceDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { ::testing::FLAGS_gtest_death_test_style = "threadsafe"; }
};

TEST_F(FaultyAliasPointerOnceDeathTest, ReadAliasIsCaughtOnTheSecondExecution) {
  const Backend& bad = backend("faulty-alias-pointer-once");
  for (const char* text : kReadAliases) {
    const ParseResult p = parse(text);
    if (kArenaIsPoisoned) {
      // The clone reads the alias through the first arena's pointer: poisoned.
      EXPECT_DEATH(run_case(p.c, p.info, bad, RunOptions{}), "AddressSanitizer: use-after-poison")
          << text;
    } else {
      // Without ASan the recorded pointer gives it away first (and the first
      // arena was overwritten, so the values would be wrong too).
      const CaseReport report = run_case(p.c, p.info, bad, RunOptions{});
      ASSERT_NE(report.first_failure(), nullptr) << text;
      EXPECT_EQ(report.first_failure()->kind, FindingKind::ALIAS_VIOLATION) << text;
    }
  }
}

}  // namespace
}  // namespace slicefuzz
