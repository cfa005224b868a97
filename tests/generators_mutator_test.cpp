// The fuzzer's mutator (generators/mutator.h): every named mutator applies to
// some cases, leaves a case untouched when it does not apply, and (after repair)
// keeps cases well formed and printable; the view-op operators do what their
// names say; chains of mutate_case and crossovers stay well formed; refitting
// repairs the arguments a shape change broke.
#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <random>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "oracles/judge_layouts.h"
#include "tests/generators_contract.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

// Cases to mutate: generate_case's mix (version 1 and the view-op programs),
// repaired into the fuzzer's byte budget as the fuzzer sees them.
std::vector<Case> starting_cases(size_t n) {
  std::vector<Case> out;
  for (uint64_t i = 0; i < n; ++i) {
    Case c = generate_case(31, i * 7 + 3);
    repair_case(c, kFuzzByteBudget, kFuzzMaxOps);
    out.push_back(std::move(c));
  }
  return out;
}

const CaseMutator& mutator(const std::string& name) {
  for (const CaseMutator& m : case_mutators())
    if (name == m.name) return m;
  ADD_FAILURE() << "no mutator " << name;
  return case_mutators()[0];
}

// Applies `m` to each case (a few tries each); calls check(before, after) for
// each application. Returns how many applied.
template <typename Check>
int apply_all(const CaseMutator& m, const std::vector<Case>& cases, Check check) {
  int applied = 0;
  std::mt19937_64 rng(1234);
  for (const Case& start : cases)
    for (int t = 0; t < 3; ++t) {
      Case c = start;
      if (!apply_mutator(m, c, rng)) {
        EXPECT_EQ(c, start) << m.name << " did not apply but changed the case";
        continue;
      }
      ++applied;
      const std::string why = well_formed_violation(c, kFuzzByteBudget);
      EXPECT_EQ(why, "") << m.name << "\n" << print_case(c);
      check(start, c);
    }
  return applied;
}

TEST(Mutator, EveryMutatorAppliesAndKeepsCasesWellFormed) {
  const std::vector<Case> cases = starting_cases(150);
  for (const CaseMutator& m : case_mutators()) {
    // Version 4's execution and range mutators apply to cases with symbols only
    // (tests/dynamic_rewrite_test.cpp, DynamicMutatorsKeepCasesWellFormed).
    if (std::string(m.name).find("Execution") != std::string::npos || std::string(m.name) == "MoveRangeBottom")
      continue;
    // The eager mutators apply to eager programs only (EagerMutatorsApplyToEagerProgramsOnly).
    if (std::string(m.name).find("Relu") != std::string::npos ||
        std::string(m.name).find("IndexWrite") != std::string::npos || std::string(m.name) == "SwapAddAndMul" ||
        std::string(m.name) == "SwapActivation" || std::string(m.name) == "SwapScalarAndTensorOperand")
      continue;
    const int applied = apply_all(m, cases, [](const Case&, const Case&) {});
    std::printf("%-22s applied %3d of %zu\n", m.name, applied, cases.size() * 3);
    EXPECT_GT(applied, 10) << m.name;
  }
}

// relu's mutators (generators/mutators_eager.cpp): never on a copy-semantics case
// (relu would make it an eager program the in-process backends refuse); on eager
// programs they apply and keep them well formed, and ReluOfViewedBase puts a relu
// of a view's source after the view and a read of the view after the relu.
TEST(Mutator, EagerMutatorsApplyToEagerProgramsOnly) {
  const std::vector<Case> copies = starting_cases(60);
  std::vector<Case> eager;
  for (uint64_t i = 0; i < 150; ++i) {
    Case c = generate_case(31, i, /*eager=*/true);
    repair_case(c, kFuzzByteBudget, kFuzzMaxOps);
    eager.push_back(std::move(c));
  }
  for (const char* name : {"ReluOfViewedBase", "InsertRelu", "IndexWriteOfViewedBase"}) {
    int on_copies = 0;
    for (const Case& c : copies) on_copies += c.has_eager_ops() ? 0 : 1;
    ASSERT_GT(on_copies, 0);
    std::vector<Case> plain;
    for (const Case& c : copies)
      if (!c.has_eager_ops()) plain.push_back(c);
    EXPECT_EQ(apply_all(mutator(name), plain, [](const Case&, const Case&) {}), 0) << name;
    const int applied = apply_all(mutator(name), eager, [&](const Case&, const Case& after) {
      if (std::string(name) == "InsertRelu") return;
      // relu(base) or index_copy(base, ...) after the view of base, then a read
      // of the view after it; index_copy's source is defined before it.
      const bool relu = std::string(name) == "ReluOfViewedBase";
      bool ok = false;
      for (size_t r = 0; r < after.ops.size() && !ok; ++r) {
        const OpKind kind = after.ops[r].kind;
        const bool write = kind == OpKind::IndexCopy || kind == OpKind::IndexPut;
        if ((relu ? kind != OpKind::Relu : !write) || r + 1 >= after.ops.size()) continue;
        if (write && (r < 2 || after.ops[r - 1].result != after.ops[r].other)) continue;
        const Op& read = after.ops[r + 1];
        for (size_t v = 0; v < r && !ok; ++v)
          ok = after.ops[v].result == read.src && after.ops[v].src == after.ops[r].src;
      }
      EXPECT_TRUE(ok) << print_case(after);
    });
    std::printf("%-22s applied %3d of %zu eager programs x3\n", name, applied, eager.size());
    EXPECT_GT(applied, 10) << name;
  }
}

// Copy-semantics starting cases (no eager op), and generated eager programs: the
// two sides of an eager mutator's test.
std::vector<Case> copy_semantics_cases() {
  std::vector<Case> plain;
  for (const Case& c : starting_cases(60))
    if (!c.has_eager_ops()) plain.push_back(c);
  return plain;
}
std::vector<Case> eager_cases(uint64_t n) {
  std::vector<Case> eager;
  for (uint64_t i = 0; i < n; ++i) {
    Case c = generate_case(31, i, /*eager=*/true);
    repair_case(c, kFuzzByteBudget, kFuzzMaxOps);
    eager.push_back(std::move(c));
  }
  return eager;
}

// SwapAddAndMul (version 4's mul): an eager program's out-of-place add becomes a
// mul by the same integer, or back; nothing else changes; a copy-semantics case
// has neither and is left alone.
TEST(Mutator, SwapAddAndMulTurnsOneArithmeticOpIntoTheOther) {
  const std::vector<Case> plain = copy_semantics_cases();
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(apply_all(mutator("SwapAddAndMul"), plain, [](const Case&, const Case&) {}), 0);
  const std::vector<Case> eager = eager_cases(100);
  const int applied = apply_all(mutator("SwapAddAndMul"), eager, [](const Case& before, const Case& after) {
    ASSERT_EQ(before.ops.size(), after.ops.size());
    int changed = 0;
    for (size_t k = 0; k < after.ops.size(); ++k) {
      if (before.ops[k] == after.ops[k]) continue;
      ++changed;
      Op back = after.ops[k];
      EXPECT_TRUE((before.ops[k].kind == OpKind::AddOut && back.kind == OpKind::MulOut) ||
                  (before.ops[k].kind == OpKind::MulOut && back.kind == OpKind::AddOut))
          << print_case(after);
      back.kind = before.ops[k].kind;
      EXPECT_EQ(back, before.ops[k]) << "only the kind changes";
    }
    EXPECT_EQ(changed, 1) << print_case(after);
  });
  EXPECT_GT(applied, 10);
}

// SwapActivation (version 4's sigmoid and gelu): one of relu, sigmoid, gelu
// becomes another of them; nothing else changes; a case with none is left alone.
TEST(Mutator, SwapActivationTurnsOneActivationIntoAnother) {
  const std::vector<Case> plain = copy_semantics_cases();
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(apply_all(mutator("SwapActivation"), plain, [](const Case&, const Case&) {}), 0);
  const std::vector<Case> eager = eager_cases(100);
  const auto activation = [](OpKind k) { return k == OpKind::Relu || k == OpKind::Sigmoid || k == OpKind::Gelu; };
  std::set<OpKind> made;
  const int applied = apply_all(mutator("SwapActivation"), eager, [&](const Case& before, const Case& after) {
    ASSERT_EQ(before.ops.size(), after.ops.size());
    int changed = 0;
    for (size_t k = 0; k < after.ops.size(); ++k) {
      if (before.ops[k] == after.ops[k]) continue;
      ++changed;
      Op back = after.ops[k];
      EXPECT_TRUE(activation(before.ops[k].kind) && activation(back.kind) && before.ops[k].kind != back.kind)
          << print_case(after);
      made.insert(back.kind);
      back.kind = before.ops[k].kind;
      EXPECT_EQ(back, before.ops[k]) << "only the kind changes";
    }
    EXPECT_EQ(changed, 1) << print_case(after);
  });
  EXPECT_GT(applied, 10);
  // The starting programs hold relu only (the generator's default version).
  EXPECT_TRUE(made.count(OpKind::Sigmoid) && made.count(OpKind::Gelu)) << "sigmoid and gelu are each made";
}

// The op of `after` without which it has `before`'s ops, or -1.
int inserted_op(const Case& before, const Case& after) {
  for (size_t k = 0; k < after.ops.size(); ++k) {
    std::vector<Op> rest = after.ops;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
    if (rest == before.ops) return static_cast<int>(k);
  }
  return -1;
}

// The first op of `after` that `before` lacks (by position and content).
int first_changed_op(const Case& before, const Case& after) {
  for (size_t k = 0; k < after.ops.size(); ++k)
    if (k >= before.ops.size() || !(before.ops[k] == after.ops[k])) return static_cast<int>(k);
  return -1;
}

ProgramInfo info_of(const Case& c) {
  ProgramInfo info;
  AnalysisError err;
  EXPECT_TRUE(analyze(c, kFuzzByteBudget, info, err)) << err.message;
  return info;
}

int count_kind(const Case& c, OpKind kind) {
  return static_cast<int>(
      std::count_if(c.ops.begin(), c.ops.end(), [&](const Op& op) { return op.kind == kind; }));
}

TEST(Mutator, InsertOperatorsAddAValidOpOfTheirKind) {
  const std::vector<Case> cases = starting_cases(60);
  const std::map<std::string, OpKind> inserts = {{"InsertSelectCopy", OpKind::SelectCopy},
                                                 {"InsertSqueezeCopy", OpKind::SqueezeCopy},
                                                 {"InsertUnsqueezeCopy", OpKind::UnsqueezeCopy},
                                                 {"InsertViewCopy", OpKind::ViewCopy},
                                                 {"InsertCloneDimOrder", OpKind::Clone}};
  for (const auto& [name, kind] : inserts) {
    int grew = 0;
    const int applied = apply_all(mutator(name), cases, [&, kind = kind](const Case& a, const Case& b) {
      grew += count_kind(b, kind) == count_kind(a, kind) + 1;
    });
    EXPECT_GE(grew, applied * 9 / 10) << name;  // repair may drop an op past kFuzzMaxOps
  }
}

TEST(Mutator, ViewSizesKeepOrBreakTheCount) {
  const std::vector<Case> cases = starting_cases(200);
  int kept = 0, broken = 0;
  apply_all(mutator("ViewSizesKeepCount"), cases, [&](const Case& a, const Case& b) {
    const ProgramInfo before = info_of(a), after = info_of(b);
    kept += before.failing_op < 0 && after.failing_op < 0;
  });
  apply_all(mutator("ViewSizesBreakCount"), cases, [&](const Case&, const Case& b) {
    const ProgramInfo after = info_of(b);
    broken += after.failing_op >= 0 && b.ops[after.failing_op].kind == OpKind::ViewCopy;
  });
  EXPECT_GT(kept, 20);
  EXPECT_GT(broken, 20);
}

TEST(Mutator, FlipSqueezeFormKeepsTheResult) {
  const std::vector<Case> cases = starting_cases(200);
  int flipped = 0;
  apply_all(mutator("FlipSqueezeForm"), cases, [&](const Case& a, const Case& b) {
    const ProgramInfo before = info_of(a), after = info_of(b);
    ASSERT_EQ(before.values.size(), after.values.size());
    for (size_t v = 0; v < before.values.size(); ++v) {
      if (!before.values[v].known) continue;
      EXPECT_EQ(before.values[v].sizes, after.values[v].sizes) << print_case(b);
      EXPECT_EQ(before.values[v].dim_order, after.values[v].dim_order);
    }
    ++flipped;
  });
  EXPECT_GT(flipped, 20);
}

TEST(Mutator, MutateThroughAliasWritesAnAliasCandidateOrItsRoot) {
  const std::vector<Case> cases = starting_cases(150);
  int alias = 0, root = 0;
  apply_all(mutator("MutateThroughAlias"), cases, [&](const Case& a, const Case& b) {
    const int k = inserted_op(a, b);
    if (k < 0) return;  // repair dropped an op past kFuzzMaxOps
    const Op& w = b.ops[k];
    ASSERT_TRUE(w.kind == OpKind::Add || w.kind == OpKind::Copy) << print_case(b);
    bool is_alias = false, is_root = false;
    for (const Op& op : b.ops) {
      if (!op_is_view_copy(op.kind)) continue;
      is_alias |= op.result == w.target;
      is_root |= op.src == w.target;
    }
    alias += is_alias;
    root += is_root && !is_alias;
    EXPECT_TRUE(is_alias || is_root) << print_case(b);
  });
  EXPECT_GT(alias, 10);
  EXPECT_GT(root, 5);
}

TEST(Mutator, HugeBesideZeroSurvivesRepair) {
  const std::vector<Case> cases = starting_cases(40);
  int huge = 0;
  apply_all(mutator("HugeBesideZero"), cases, [&](const Case&, const Case& b) {
    bool any = false;  // the mutator picks one input
    for (const InputDecl& in : b.inputs) {
      const bool zero = std::count(in.sizes.begin(), in.sizes.end(), 0) > 0;
      any = any || (zero && *std::max_element(in.sizes.begin(), in.sizes.end()) > INT32_MAX);
    }
    huge += any;
  });
  EXPECT_GE(huge, 100);
}

TEST(Mutator, BreakOpMakesAnOpFail) {
  const std::vector<Case> cases = starting_cases(100);
  int failing = 0, applied = 0;
  apply_all(mutator("BreakOp"), cases, [&](const Case&, const Case& b) {
    ++applied;
    failing += info_of(b).failing_op >= 0;
  });
  EXPECT_EQ(failing, applied);
}

TEST(Mutator, ChangeCloneDimOrderChangesAClone) {
  const std::vector<Case> cases = starting_cases(200);
  int changed = 0;
  apply_all(mutator("ChangeCloneDimOrder"), cases, [&](const Case& a, const Case& b) {
    bool clone_changed = a.ops.size() == b.ops.size() && first_changed_op(a, b) >= 0;
    for (size_t k = 0; clone_changed && k < a.ops.size(); ++k)
      if (!(a.ops[k] == b.ops[k]))  // a clone's order, or a refit of an op that failed
        clone_changed = b.ops[k].kind == OpKind::Clone ||
                        (info_of(a).failing_op >= 0 && info_of(a).failing_op <= static_cast<int>(k));
    EXPECT_TRUE(clone_changed) << print_case(a) << "->\n" << print_case(b);
    changed += clone_changed;
  });
  EXPECT_GT(changed, 20);
}

// From a program that runs to the end, one mutate_case step mostly gives
// another: the mutators that break an op on purpose are a few of the table, and
// shape changes refit what they broke.
TEST(Mutator, OneMutationOfAValidProgramMostlyStaysValid) {
  std::mt19937_64 rng(7);
  int valid = 0, failing = 0;
  for (const Case& start : starting_cases(300)) {
    if (info_of(start).failing_op >= 0) continue;
    ++valid;
    for (int t = 0; t < 5; ++t) {
      Case c = start;
      mutate_case(c, rng);
      failing += info_of(c).failing_op >= 0;
    }
  }
  std::printf("one mutate_case step: %d of %d mutants of valid programs have a failing op\n",
              failing, valid * 5);
  EXPECT_LE(failing, valid * 5 * 35 / 100);
}

TEST(Mutator, MutateCaseChainsStayWellFormed) {
  std::mt19937_64 rng(99);
  int version2 = 0, failing = 0, steps = 0;
  for (Case c : starting_cases(60)) {
    for (int step = 0; step < 40; ++step, ++steps) {
      mutate_case(c, rng);
      ASSERT_EQ(well_formed_violation(c, kFuzzByteBudget), "") << print_case(c);
      ASSERT_LE(c.ops.size(), kFuzzMaxOps);
      version2 += c.version >= 2;
      failing += info_of(c).failing_op >= 0;
    }
  }
  std::printf("mutate_case: %d steps, %d version 2, %d with a failing op\n", steps, version2, failing);
  // A chain never refits an op that already failed, so failing ops accumulate
  // along it: no bound on `failing` here (see the one-step test above).
  EXPECT_GE(version2, steps / 2);
}

// mutate_case skips its final repair when the last mutation repaired the case:
// that relies on repair leaving a repaired case as it is.
TEST(Mutator, RepairIsIdempotentOnMutants) {
  std::mt19937_64 rng(5);
  int steps = 0;
  for (Case c : starting_cases(40)) {
    for (int step = 0; step < 20; ++step, ++steps) {
      mutate_case(c, rng);
      Case again = c;
      repair_case(again, kFuzzByteBudget, kFuzzMaxOps);
      ASSERT_TRUE(again == c) << print_case(c) << "\nrepaired again:\n" << print_case(again);
    }
  }
  EXPECT_EQ(steps, 800);
}

TEST(Mutator, CrossoverStaysWellFormed) {
  std::mt19937_64 rng(5);
  const std::vector<Case> cases = starting_cases(80);
  for (size_t i = 0; i + 1 < cases.size(); ++i) {
    const Case c = crossover_cases(cases[i], cases[i + 1], rng);
    ASSERT_EQ(well_formed_violation(c, kFuzzByteBudget), "") << print_case(c);
  }
}

TEST(Mutator, RefitRepairsArgumentsAfterTheInputChanges) {
  const ParseResult p = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
      "v = view_copy(x, sizes=[3, -1])\n"
      "w = view_copy(x, sizes=[6, 1])\n"
      "s = select_copy(v, dim=1, index=1)\n"
      "q = squeeze_copy(w, dims=[1])\n"
      "u = unsqueeze_copy(s, dim=1)\n"
      "c = clone(u, dim_order=[1, 0])\n"
      "output c, q\n");
  ASSERT_TRUE(p.ok) << p.error;
  for (const std::vector<int64_t>& sizes :
       std::vector<std::vector<int64_t>>{{4, 5}, {7}, {0, 3}, {2, 3, 5}, {1}, {}}) {
    Case c = p.c;
    c.inputs[0].sizes = sizes;
    refit_to_layouts(c);
    const ProgramInfo info = info_of(c);
    EXPECT_LT(info.failing_op, 0) << info.failing_reason << "\n" << print_case(c);
  }
}

}  // namespace
}  // namespace slicefuzz
