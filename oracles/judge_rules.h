// The judge's rules, each table the enum and the word a root-cause signature
// carries: the eligibility rules, the plan invariants and the input-check rules.
// A finding holds the one that broke as a BrokenRule (which table, which row)
// from where the judge decides to the report; no message is read for it.
// Light on purpose: the finding (harness/run/findings.h) includes it.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "vocab/word_table.h"

namespace slicefuzz {

// The eligibility rules (DESIGN 2; oracles/eligibility.h decides them), one table: the enum and the word a
// root-cause signature carries (UNSOUND_REWRITE:OP:rewrite:WORD). The verdict is
// this value from here to the report; `reason` is for people, never parsed.
#define SLICEFUZZ_ELIGIBILITY_RULES(X)                              \
  X(None, "")                                                       \
  X(NotDense, "not-dense")                        /* rule 1 */      \
  X(ProgramOutput, "program-output")              /* rule 2 */      \
  X(AliasMutated, "alias-mutated")                /* rule 3 */      \
  X(RootWrittenWhileRead, "root-written-while-read") /* rule 4 */   \
  X(Layout, "layout")                             /* rule 5 */      \
  X(OffsetMoves, "offset-moves")  /* version 4, a planned alias: one offset at every execution */ \
  X(MustRaise, "must-raise")  /* version 4, a planned alias of an op that must fail at some size */

SLICEFUZZ_DEFINE_WORDS(EligibilityRule, eligibility_rule_word, SLICEFUZZ_ELIGIBILITY_RULES)

// The plan invariants the judge checks (oracles/plan_check.h), one table: the enum and the word a
// root-cause signature carries (PLAN_VIOLATION:program:rewrite:WORD). The
// verdict is this value from where the check makes it to the report; the
// message is for people and is never parsed.
#define SLICEFUZZ_PLAN_INVARIANTS(X)                                             \
  X(None, "")                                                                    \
  X(TensorCount, "tensor-count")             /* a tensor per value that runs */ \
  X(BadRoot, "bad-root")                     /* an alias's root is a root defined before it */ \
  X(AliasOutsideRoot, "alias-outside-root")  /* a non-empty alias lies inside its root */ \
  X(AliasOffset, "alias-offset")             /* ... at torch's view delta */     \
  X(TooFewBytes, "too-few-bytes")            /* a root has the bytes its sizes need */ \
  X(OutsideArena, "outside-arena")           /* every tensor, empty aliases too, in the arena */ \
  X(Misaligned, "misaligned")                /* every root's offset aligned */   \
  X(LifetimeEndsEarly, "lifetime-ends-early")  /* live as long as the program uses it */ \
  X(Overlap, "overlap")                      /* co-live roots share no byte */ \
  X(ConstantPlacement, "constant-placement") /* constants and their aliases: the program's bytes, not the arena's */

SLICEFUZZ_DEFINE_WORDS(PlanInvariant, plan_invariant_word, SLICEFUZZ_PLAN_INVARIANTS)

// What an execution's input check must refuse (harness/run/run_executions.cpp):
// a dim past its bound (program.fbs: a dim at run time never exceeds its upper
// bound).
#define SLICEFUZZ_INPUT_RULES(X) \
  X(None, "")                    \
  X(DimPastBound, "dim-past-bound")

SLICEFUZZ_DEFINE_WORDS(InputRule, input_rule_word, SLICEFUZZ_INPUT_RULES)

// The rule or invariant a finding broke: one row of one of the tables above (the
// tables' words are distinct, so a word names its row; judge_rules_test holds it).
struct BrokenRule {
  enum class Table : uint8_t { None, Eligibility, Plan, Input };
  Table table = Table::None;
  uint8_t row = 0;

  BrokenRule() = default;
  BrokenRule(EligibilityRule r) : table(Table::Eligibility), row(static_cast<uint8_t>(r)) {}
  BrokenRule(PlanInvariant r) : table(Table::Plan), row(static_cast<uint8_t>(r)) {}
  BrokenRule(InputRule r) : table(Table::Input), row(static_cast<uint8_t>(r)) {}

  bool empty() const { return table == Table::None || row == 0; }  // row 0 is each table's None
  bool operator==(const BrokenRule& o) const { return empty() ? o.empty() : table == o.table && row == o.row; }
  bool operator!=(const BrokenRule& o) const { return !(*this == o); }

  // The row's word ("" when empty).
  std::string_view word() const {
    switch (table) {
      case Table::None: return "";
      case Table::Eligibility: return eligibility_rule_word(static_cast<EligibilityRule>(row));
      case Table::Plan: return plan_invariant_word(static_cast<PlanInvariant>(row));
      case Table::Input: return input_rule_word(static_cast<InputRule>(row));
    }
    return "?";
  }
  // The row a word names; "" is the empty rule; nullopt for a word of no table.
  static std::optional<BrokenRule> parse(std::string_view w) {
    if (w.empty()) return BrokenRule{};
    EligibilityRule e;
    if (parse_word(w, e)) return BrokenRule(e);
    PlanInvariant p;
    if (parse_word(w, p)) return BrokenRule(p);
    InputRule i;
    if (parse_word(w, i)) return BrokenRule(i);
    return std::nullopt;
  }
};

}  // namespace slicefuzz
