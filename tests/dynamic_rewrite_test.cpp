// Version 4 (docs/design.md section 8), the rewrite path: decided once over the
// executions (program/dynamic_pass.h), planned once at the bounds, judged over
// the executions (oracles/dynamic_eligibility.h), run by one method whose values
// persist from execution to execution.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <random>
#include <string>
#include <tuple>

#include "backends/backend.h"
#include "harness/run/plan_codec.h"
#include "harness/run/runner.h"
#include "generators/mutator.h"
#include "harness/triage/minimizer.h"
#include "oracles/dynamic_eligibility.h"
#include "program/dynamic_pass.h"
#include "program/rewrite_pass.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

// A dim-0 slice of [4, S]: dense at every S, its offset 2 * S elements.
const char* const kDim0BelowInner =
    "slicefuzz-case 4\ndtype float32\nsym S in [1, 5]\ninput x [4, S]\n"
    "a = slice_copy(x, dim=0, start=2, end=4, step=1)\nc = clone(a)\noutput c\nrun S=5\nrun S=2\n";

ParseResult parsed(const std::string& text) {
  ParseResult p = parse_case(text, "t.case");
  EXPECT_TRUE(p.ok) << p.error;
  return p;
}

std::vector<const ExecutionInfo*> runs_of(const ParseResult& p) {
  std::vector<const ExecutionInfo*> out;
  for (const ExecutionInfo& e : p.dynamic.runs)
    if (e.in_range) out.push_back(&e);
  return out;
}

std::vector<RewritePlan> pass_at_each(const ParseResult& p) {
  std::vector<RewritePlan> plans;
  for (const ExecutionInfo* e : runs_of(p)) plans.push_back(replace_slice_copy_with_slice(e->c, e->info));
  return plans;
}

std::vector<const ProgramInfo*> infos_of(const ParseResult& p) {
  std::vector<const ProgramInfo*> out;
  for (const ExecutionInfo* e : runs_of(p)) out.push_back(&e->info);
  return out;
}

// The system under test's combination: an alias whose offset moves stays a copy
// where the plan places aliases, and stays an alias where a prim op places it.
TEST(DynamicRewrite, AMovingOffsetIsACopyOnlyWhereThePlanPlacesAliases) {
  const ParseResult p = parsed(kDim0BelowInner);
  const std::vector<RewritePlan> plans = pass_at_each(p);
  ASSERT_EQ(plans.size(), 2u);
  ASSERT_TRUE(plans[0].decision_for_op(0)->alias);
  ASSERT_TRUE(plans[1].decision_for_op(0)->alias);
  EXPECT_NE(plans[0].delta_bytes[1], plans[1].delta_bytes[1]);  // 40 and 16 bytes
  const RewritePlan planned = rewrite_for_every_execution(infos_of(p), plans, true);
  EXPECT_FALSE(planned.decision_for_op(0)->alias);
  EXPECT_EQ(planned.decision_for_op(0)->rule, "offset-moves");
  EXPECT_FALSE(planned.is_alias(1));
  const RewritePlan runtime = rewrite_for_every_execution(infos_of(p), plans, false);
  EXPECT_TRUE(runtime.decision_for_op(0)->alias);
  EXPECT_TRUE(runtime.is_alias(1));
  // With the rule off (faulty-planned-offset-at-bound): the first offset, kept.
  DynamicPassRules off;
  off.planned_offset_must_stay = false;
  const RewritePlan kept = rewrite_for_every_execution_with(infos_of(p), plans, true, off);
  EXPECT_TRUE(kept.is_alias(1));
  EXPECT_EQ(kept.delta_bytes[1], plans[0].delta_bytes[1]);
}

// The judge's side, from torch's views at each execution: eligible for a
// runtime-op backend, OffsetMoves for one whose plan places aliases.
TEST(DynamicRewrite, TheJudgeHoldsAPlannedAliasToOneOffset) {
  const ParseResult p = parsed(kDim0BelowInner);
  std::vector<TorchOracleResult> torch;
  for (const ExecutionInfo* e : runs_of(p)) torch.push_back(run_torch_oracle(e->c, e->info));
  std::vector<const TorchOracleResult*> t{&torch[0], &torch[1]};
  const auto runtime = judge_eligibility_over_executions(p.c, runs_of(p), t, {0}, false);
  ASSERT_EQ(runtime.size(), 1u);
  EXPECT_TRUE(runtime[0].verdict.eligible);
  const auto planned = judge_eligibility_over_executions(p.c, runs_of(p), t, {0}, true);
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_FALSE(planned[0].verdict.eligible);
  EXPECT_EQ(planned[0].verdict.broken, EligibilityRule::OffsetMoves);
  EXPECT_EQ(planned[0].execution, 1);
  EXPECT_NE(planned[0].verdict.reason.find("40 bytes into its root at execution 1 (S=5) but 16 bytes"),
            std::string::npos)
      << planned[0].verdict.reason;
}

// The verdict names executions as the case numbers its `run` lines: one refused
// at its inputs (S past its range) before them keeps its number.
TEST(DynamicRewrite, TheJudgeNumbersExecutionsAsTheCaseDoes) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype float32\nsym S in [1, 5]\ninput x [4, S]\n"
      "a = slice_copy(x, dim=0, start=2, end=4, step=1)\nc = clone(a)\noutput c\nrun S=6\nrun S=5\nrun S=2\n");
  ASSERT_EQ(runs_of(p).size(), 2u);
  std::vector<TorchOracleResult> torch;
  for (const ExecutionInfo* e : runs_of(p)) torch.push_back(run_torch_oracle(e->c, e->info));
  const auto planned = judge_eligibility_over_executions(p.c, runs_of(p), {&torch[0], &torch[1]}, {0}, true);
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_NE(planned[0].verdict.reason.find("at execution 2 (S=5) but 16 bytes at execution 3 (S=2)"),
            std::string::npos)
      << planned[0].verdict.reason;
}

// Whole cases: the reference (both alias modes) passes; each faulty backend of
// the class is caught at the execution below the bound, by the finding its class
// calls for.
TEST(DynamicRewrite, EachFaultyBackendIsCaughtBelowTheBound) {
  const ParseResult p = parsed(kDim0BelowInner);
  EXPECT_EQ(run_case(p.c, p.info, *find_backend("reference"), RunOptions{}).first_failure(), nullptr);
  const CaseReport planned = run_case(p.c, p.info, *find_backend("faulty-planned-offset-at-bound"), RunOptions{});
  ASSERT_NE(planned.first_failure(), nullptr);
  EXPECT_EQ(planned.first_failure()->kind, FindingKind::UNSOUND_REWRITE);
  EXPECT_EQ(planned.first_failure()->rule, BrokenRule(EligibilityRule::OffsetMoves));
  // Found while checking execution 1, but its rule breaks at execution 2 (S=2):
  // the finding says so, as data and in its message.
  EXPECT_EQ(planned.first_failure()->execution, 1);
  EXPECT_EQ(planned.first_failure()->message.rfind("execution 2 (S=2): ", 0), 0u) << planned.first_failure()->message;
  const CaseReport strides = run_case(p.c, p.info, *find_backend("faulty-slice-bound-strides"), RunOptions{});
  ASSERT_NE(strides.first_failure(), nullptr);
  EXPECT_EQ(strides.first_failure()->kind, FindingKind::ALIAS_VIOLATION);
  EXPECT_EQ(strides.first_failure()->execution, 1);
  // At the bound alone, the strides are right: no execution reads them wrong.
  // The offset is one offset for every size the ranges allow, so the judge finds
  // it moving at a size no execution runs, and says so as data.
  const ParseResult at_bound = parsed(std::string(kDim0BelowInner).substr(0, std::string(kDim0BelowInner).find("run S=2")));
  EXPECT_EQ(run_case(at_bound.c, at_bound.info, *find_backend("faulty-slice-bound-strides"), RunOptions{})
                .first_failure(),
            nullptr);
  const CaseReport off = run_case(at_bound.c, at_bound.info, *find_backend("faulty-planned-offset-at-bound"), RunOptions{});
  ASSERT_NE(off.first_failure(), nullptr);
  EXPECT_EQ(off.first_failure()->kind, FindingKind::UNSOUND_REWRITE);
  EXPECT_EQ(off.first_failure()->rule, BrokenRule(EligibilityRule::OffsetMoves));
  EXPECT_FALSE(off.first_failure()->off_schedule.empty());
  EXPECT_NE(off.first_failure()->message.find("no execution of the case runs it"), std::string::npos)
      << off.first_failure()->message;
  const ParseResult view = parsed(
      "slicefuzz-case 4\ndtype float32\nsym S in [1, 4]\ninput x [S, 6]\n"
      "v = view_copy(x, sizes=[-1, 3])\nc = clone(v)\noutput c\nrun S=4\nrun S=2\n");
  EXPECT_EQ(run_case(view.c, view.info, *find_backend("reference"), RunOptions{}).first_failure(), nullptr);
  const CaseReport bound_sizes = run_case(view.c, view.info, *find_backend("faulty-view-bound-sizes"), RunOptions{});
  ASSERT_NE(bound_sizes.first_failure(), nullptr);
  EXPECT_EQ(bound_sizes.first_failure()->execution, 1);
}

// A slice that is a copy at one size (step 2 over 4 rows) and would be an alias
// at another (1 row) stays a copy; the unsqueeze of it, which the pass at the
// 1-row sizes kept a copy only because of that alias (its root then mutated), is
// an alias at every size once the pass is told: no MISSED_REWRITE (found by
// `run --seed 6 --format-version 4` before PassContext::keep_copies).
TEST(DynamicRewrite, APassToldWhichOpsStayCopiesDecidesTheRestAgain) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype int8\nsym P in [0, 6]\ninput x [7, 3, 3]\n"
      "a = view_copy(x, sizes=[7, 9])\nb = slice_copy(a, dim=0, start=None, end=P+1, step=2)\n"
      "c = unsqueeze_copy(b, dim=-1)\nadd_(a, 5)\nd = clone(c)\noutput d\nrun P=6\nrun P=1\nrun P=0\n");
  const CaseReport r = run_case(p.c, p.info, *find_backend("reference"), RunOptions{});
  EXPECT_EQ(r.first_failure(), nullptr) << r.first_failure()->message;
  ASSERT_EQ(r.decided.size(), 3u);
  EXPECT_FALSE(r.decided[1].alias);  // b: not dense at P=6
  EXPECT_TRUE(r.decided[2].alias);   // c
  EXPECT_EQ(r.rules[1], "not-dense-step");
}

// An op whose arguments are invalid at one execution's sizes stays a copy (its
// kernel raises there); the judge leaves it to the error checks.
TEST(DynamicRewrite, AnOpThatFailsAtSomeSizeStaysACopy) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype float32\nsym P in [0, 5]\ninput x [2, 3]\n"
      "t = narrow_copy(x, dim=0, start=P+1, length=1)\nu = clone(t)\noutput u\nrun P=5\nrun P=0\n");
  for (const char* name : {"reference", "conservative", "example-naive-kernels"}) {
    const CaseReport r = run_case(p.c, p.info, *find_backend(name), RunOptions{});
    EXPECT_EQ(r.first_failure(), nullptr) << name << ": " << r.first_failure()->message;
  }
  const CaseReport r = run_case(p.c, p.info, *find_backend("reference"), RunOptions{});
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_EQ(r.rules[0], "fails-at-some-size");
}

// The minimiser shrinks a version-4 finding and keeps its signature: the
// schedule's bound execution goes (it passes there), the dynamic dim stays.
TEST(DynamicRewrite, TheMinimiserShrinksExecutionsAndKeepsTheFinding) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype int16\nsym S in [1, 5]\nsym Q in [0, 3]\ninput x [4, S]\n"
      "input y [3]\nb = clone(y)\na = slice_copy(x, dim=0, start=2, end=4, step=1)\n"
      "c = clone(a)\nadd_(b, 1)\noutput c, b\nrun S=5 Q=0\nrun S=5 Q=3\nrun S=2 Q=1\n");
  const Backend& faulty = *find_backend("faulty-slice-bound-strides");
  const MinimizeResult r = minimize_case(p.c, faulty, RunOptions{}, IsolationOptions{}, 120);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::ALIAS_VIOLATION);
  EXPECT_LT(r.minimized.ops.size(), p.c.ops.size());
  EXPECT_LT(r.minimized.runs.size(), p.c.runs.size());
  EXPECT_EQ(r.minimized.syms.size(), 1u);  // Q sizes nothing and is dropped
  EXPECT_TRUE(r.minimized.is_dynamic());   // the bug needs a size below the bound
  const ParseResult again = parse_case(print_case(r.minimized), "min.case");
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_TRUE(run_case(again.c, again.info, faulty, RunOptions{}).failed());
  EXPECT_FALSE(run_case(again.c, again.info, *find_backend("reference"), RunOptions{}).failed());
}

// A pass decides once for every size the ranges allow; one that decides from the
// sizes this case runs aliases a slice that is dense at P=0 (one row) and strided
// at P>=2. No execution runs P>=2: only the judge's look at every assignment
// within the ranges catches it, and names the sizes as data. The minimiser tries
// those sizes as an execution; this pass then decides a copy there, so the case
// keeps its schedule and the finding keeps the sizes.
TEST(DynamicRewrite, APassThatDecidesOnTheScheduleIsCaughtOffIt) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype float32\nsym P in [0, 4]\ninput x [5, 3]\n"
      "b = slice_copy(x, dim=0, start=0, end=P+1, step=2)\nc = clone(b)\noutput c\nrun P=0\n");
  const CaseReport ref = run_case(p.c, p.info, *find_backend("reference"), RunOptions{});
  EXPECT_EQ(ref.first_failure(), nullptr) << ref.first_failure()->message;
  ASSERT_FALSE(ref.decided.empty());
  EXPECT_FALSE(ref.decided[0].alias);  // a copy: strided at P>=2
  const Backend& faulty = *find_backend("faulty-decides-on-schedule");
  const CaseReport r = run_case(p.c, p.info, faulty, RunOptions{});
  ASSERT_NE(r.first_failure(), nullptr);
  EXPECT_EQ(r.first_failure()->kind, FindingKind::UNSOUND_REWRITE);
  EXPECT_EQ(r.first_failure()->rule, BrokenRule(EligibilityRule::NotDense));
  ASSERT_EQ(r.first_failure()->off_schedule.size(), 1u);
  EXPECT_GE(r.first_failure()->off_schedule[0], 2);
  // Scheduled there, the faulty pass decides a copy and is right.
  Case scheduled = p.c;
  scheduled.runs.push_back(Execution{r.first_failure()->off_schedule});
  const ParseResult with_run = parsed(print_case(scheduled));
  EXPECT_EQ(run_case(with_run.c, with_run.info, faulty, RunOptions{}).first_failure(), nullptr);
  const MinimizeResult m = minimize_case(p.c, faulty, RunOptions{}, IsolationOptions{}, 60);
  ASSERT_TRUE(m.reproduced);
  EXPECT_EQ(m.finding.rule, BrokenRule(EligibilityRule::NotDense));
  EXPECT_EQ(m.minimized.runs.size(), 1u);
  EXPECT_FALSE(m.finding.off_schedule.empty());
  // The planned offset, by contrast, moves whatever the schedule: the minimiser
  // makes the sizes it moves at an execution of the reproducer.
  const ParseResult at_bound = parsed(std::string(kDim0BelowInner).substr(0, std::string(kDim0BelowInner).find("run S=2")));
  const MinimizeResult o =
      minimize_case(at_bound.c, *find_backend("faulty-planned-offset-at-bound"), RunOptions{}, IsolationOptions{}, 60);
  ASSERT_TRUE(o.reproduced);
  EXPECT_EQ(o.finding.rule, BrokenRule(EligibilityRule::OffsetMoves));
  EXPECT_EQ(o.minimized.runs.size(), 2u);
  EXPECT_TRUE(o.finding.off_schedule.empty());
}

// A symbol whose range is one value sizes nothing a static dim could not: the
// minimiser makes its dims static and drops it (the self-test's reproducer of
// faulty-decides-on-schedule kept `sym S in [11, 11]` before).
TEST(DynamicRewrite, TheMinimiserDropsASymbolOfOneValue) {
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype float32\nsym S in [11, 11]\nsym T in [1, 11]\ninput x [S, T]\n"
      "b = slice_copy(x, dim=0, start=1, end=None, step=1)\nc = clone(b)\noutput c\nrun S=11 T=11\n");
  const Backend& faulty = *find_backend("faulty-decides-on-schedule");
  ASSERT_TRUE(run_case(p.c, p.info, faulty, RunOptions{}).failed());
  const MinimizeResult m = minimize_case(p.c, faulty, RunOptions{}, IsolationOptions{}, 60);
  ASSERT_TRUE(m.reproduced);
  ASSERT_EQ(m.minimized.syms.size(), 1u) << print_case(m.minimized);
  EXPECT_EQ(m.minimized.syms[0].name, "T");
  EXPECT_TRUE(parse_case(print_case(m.minimized), "min.case").ok);
}

// The execution and range mutators: each applies to every dynamic seed, leaves
// a static case alone, and (after repair) keeps the case well formed: it
// parses, every assignment analysed, and the reference passes it.
TEST(DynamicRewrite, DynamicMutatorsKeepCasesWellFormed) {
  namespace fs = std::filesystem;
  std::vector<Case> seeds;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/seeds/dynamic")) {
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    ParseResult p = parse_case(text.str(), e.path().string());
    ASSERT_TRUE(p.ok) << p.error;
    seeds.push_back(p.c);
  }
  ASSERT_GE(seeds.size(), 5u);
  const ParseResult static_case = parsed("slicefuzz-case 3\ndtype float32\ninput x [4]\ny = clone(x)\noutput y\n");
  std::mt19937_64 rng(7);
  for (const char* name : {"AddExecution", "DropExecution", "ChangeExecutionValue", "MoveRangeBottom"}) {
    const CaseMutator* m = nullptr;
    for (const CaseMutator& k : case_mutators())
      if (std::string(k.name) == name) m = &k;
    ASSERT_NE(m, nullptr) << name;
    Case untouched = static_case.c;
    EXPECT_FALSE(apply_mutator(*m, untouched, rng)) << name;
    EXPECT_TRUE(untouched == static_case.c) << name;
    int applied = 0;
    for (const Case& seed : seeds)
      for (int t = 0; t < 4; ++t) {
        Case c = seed;
        if (!apply_mutator(*m, c, rng)) continue;
        ++applied;
        const ParseResult again = parse_case(print_case(c), "mutant.case");
        ASSERT_TRUE(again.ok) << name << ": " << again.error << "\n" << print_case(c);
        const CaseReport r = run_case(again.c, again.info, *find_backend("reference"), RunOptions{});
        EXPECT_FALSE(r.failed()) << name << ": " << r.first_failure()->message << "\n" << print_case(c);
      }
    EXPECT_GT(applied, 5) << name;
  }
}

// The plans travel from a worker to explain and export as text: a constant's
// placement must arrive a constant (its offset is in the program's bytes, not the
// arena's), or the reproducer puts it over the arena's tensors.
TEST(DynamicRewrite, PlansKeepEveryPlacementFieldThroughTheirText) {
  const Backend* reference = find_backend("reference");
  ASSERT_NE(reference, nullptr);
  const ParseResult p = parsed(
      "slicefuzz-case 4\ndtype float32\nsym S in [1, 4]\ninput x [S, 3]\nconst w [4, 3]\n"
      "a = slice_copy(w, dim=0, start=1, end=3, step=1)\nb = clone(x)\nc = clone(a)\n"
      "output b, c\nrun S=4\nrun S=1\n");
  ASSERT_TRUE(p.ok) << p.error;
  PlansForExplain made;
  made.rewrite = reference->pass(p.c, p.info, {});
  made.plan = reference->planner(p.c, p.info, made.rewrite);
  made.copy_plan = reference->planner(p.c, p.info, copy_only_plan(p.c, p.info));
  int constants = 0;
  for (const TensorPlacement& t : made.plan.tensors) constants += t.constant;
  ASSERT_GE(constants, 2) << "w and its alias a are the program's bytes";
  PlansForExplain back;
  ASSERT_TRUE(decode_plans(encode_plans(made), back));
  ASSERT_EQ(back.plan.tensors.size(), made.plan.tensors.size());
  for (size_t k = 0; k < made.plan.tensors.size(); ++k) {
    const TensorPlacement &a = made.plan.tensors[k], &b = back.plan.tensors[k];
    EXPECT_EQ(std::tie(a.value, a.root, a.offset, a.nbytes, a.first_step, a.last_step, a.own_last_step,
                       a.constant),
              std::tie(b.value, b.root, b.offset, b.nbytes, b.first_step, b.last_step, b.own_last_step,
                       b.constant))
        << "placement " << k;
  }
  EXPECT_EQ(back.plan.arena_bytes, made.plan.arena_bytes);
  EXPECT_EQ(back.rewrite.root, made.rewrite.root);
}

}  // namespace
}  // namespace slicefuzz
