// Finding kinds (DESIGN section 3): stable names used in output lines, reports and
// dedup signatures.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "oracles/judge_rules.h"
#include "vocab/word_table.h"

namespace slicefuzz {

// One table for the finding kinds: the enum and its stable name (the same word;
// written twice so that a grep for either finds the row). Everything that prints
// or parses a kind reads this table. Append new kinds at the end: workers encode
// a kind by its index.
#define SLICEFUZZ_FINDING_KINDS(X)                                                        \
  X(VALUE_MISMATCH, "VALUE_MISMATCH")                                                     \
  X(ERROR_MISMATCH, "ERROR_MISMATCH")                                                     \
  X(UNSOUND_REWRITE, "UNSOUND_REWRITE")                                                   \
  X(MISSED_REWRITE, "MISSED_REWRITE")                                                     \
  X(ALIAS_VIOLATION, "ALIAS_VIOLATION")                                                   \
  X(PLAN_VIOLATION, "PLAN_VIOLATION")                                                     \
  X(SANITIZER, "SANITIZER")                                                               \
  X(CRASH, "CRASH")                                                                       \
  X(TIMEOUT, "TIMEOUT")                                                                   \
  X(PARSE_ERROR, "PARSE_ERROR")                                                           \
  X(ORACLE_DISAGREEMENT, "ORACLE_DISAGREEMENT")                                           \
  X(MEMORY_REGRESSION, "MEMORY_REGRESSION")                                               \
  /* an out-of-process worker answered something that is not the protocol */             \
  X(PROTOCOL_ERROR, "PROTOCOL_ERROR")

enum class FindingKind {
#define SLICEFUZZ_FINDING_ENUM(e, name) e,
  SLICEFUZZ_FINDING_KINDS(SLICEFUZZ_FINDING_ENUM)
#undef SLICEFUZZ_FINDING_ENUM
};

inline constexpr std::string_view kFindingKindNames[] = {
#define SLICEFUZZ_FINDING_NAME(e, name) name,
    SLICEFUZZ_FINDING_KINDS(SLICEFUZZ_FINDING_NAME)
#undef SLICEFUZZ_FINDING_NAME
};
inline constexpr int kNumFindingKinds =
    static_cast<int>(sizeof kFindingKindNames / sizeof kFindingKindNames[0]);

// The kind's name; "UNKNOWN_FINDING" for a value outside the table (a corrupt
// worker answer), never an out-of-bounds read.
std::string_view finding_kind_name(FindingKind k);
std::optional<FindingKind> parse_finding_kind(std::string_view name);

// Where a finding went wrong, one table: the path of the run (DESIGN 1) or the
// stage before any path. The word is what messages ("copy path: ..."), reports
// and signatures say.
#define SLICEFUZZ_FINDING_PATHS(X)                                                  \
  X(None, "")                                                                       \
  X(Oracle, "oracle")     /* torch against the naive reference */                  \
  X(Copy, "copy")         /* the copy path */                                       \
  X(Rewrite, "rewrite")   /* the rewrite path, aliases by their runtime prim ops */ \
  X(Planned, "planned")   /* the rewrite path, aliases placed by the plan */        \
  X(Worker, "worker")     /* an out-of-process backend's answer */                  \
  X(Parser, "parser")     /* the case did not parse or analyse */                   \
  X(Inputs, "inputs")     /* an execution's input check (version 4) */              \
  X(Unknown, "unknown-path") /* a dead worker that noted no path, with no executor on its stack */ \
  /* The alias prim ops, called directly by the alias-contract check: their words  */ \
  /* are vocab/op_schema.h's alias_prim column (findings_words_test holds it).     */ \
  X(EtSlice, "et_slice")                                                            \
  X(EtSelect, "et_select")                                                          \
  X(EtView, "et_view")

SLICEFUZZ_DEFINE_WORDS(FindingPath, finding_path_word, SLICEFUZZ_FINDING_PATHS)

// The runner's checks (harness/run/checks.h says what each compares), one table.
#define SLICEFUZZ_RUNNER_CHECKS(X)                  \
  X(None, "")                                       \
  X(OraclesAgree, "oracles-agree")                  \
  X(BackendAdmits, "backend-admits")                \
  X(CopyPath, "copy-path")                          \
  X(RewriteDecisions, "rewrite-decisions")          \
  X(PlanInvariants, "plan-invariants")              \
  X(ArenaGrowth, "arena-growth")                    \
  X(AliasFacts, "alias-facts")                      \
  X(RewriteValues, "rewrite-values")                \
  X(AliasFactsAgain, "alias-facts-again")           \
  X(RewriteValuesAgain, "rewrite-values-again")     \
  X(AliasContract, "alias-contract")                \
  X(WorkerAnswer, "worker-answer")                  \
  X(WorkerValues, "worker-values")                  \
  X(InputCheck, "input-check") /* version 4: an execution's inputs (run_executions) */

SLICEFUZZ_DEFINE_WORDS(RunnerCheck, runner_check_word, SLICEFUZZ_RUNNER_CHECKS)

// The check that made a finding, and whether it ran on the int64 provenance
// shadow (the same check over a program whose every element says where it came
// from). Its word, "copy-path" or "provenance-shadow/copy-path", is the report's.
struct CheckId {
  RunnerCheck check = RunnerCheck::None;
  bool shadow = false;
  bool operator==(const CheckId& o) const { return check == o.check && shadow == o.shadow; }
  std::string word() const;
  static std::optional<CheckId> parse(std::string_view word);
};

struct Finding {
  FindingKind kind = FindingKind::VALUE_MISMATCH;
  FindingPath path = FindingPath::None;
  int op = -1;          // index into Case::ops, -1 when not about one op
  std::string message;  // expected vs actual, in a kernel author's words
  // A finding the backend declared it tolerates (counted, not failed).
  bool tolerated = false;
  // The system under test refused (raised an error) where the oracle ran: if the
  // case lies outside the backend's declared limits, this is UNSUPPORTED.
  bool sut_refused = false;
  // The system under test ran the op the judge says must fail (e.g. ExecuTorch's
  // copy_ casts between dtypes, the case language's copy_ refuses): if that op
  // alone lies outside the backend's declared limits, this is UNSUPPORTED too.
  bool sut_accepted = false;
  // A wrong value the system under test itself could explain: an out-of-process
  // worker's answer to `diagnose` (the check its pass is missing, or the change
  // of its pass to blame, one word, e.g. "reinplace-inverse-scatter:other-value").
  // The root-cause signature uses it.
  std::string cause;
  // The judge's rule or invariant that broke, set where the judge makes the
  // verdict; the root-cause signature takes its word. Empty: a verdict no rule
  // of the judge's tables names (a wrong value, for one).
  BrokenRule rule;
  // Version 4: the execution (0-based, in the case's `run` order) the finding
  // belongs to; -1 for a static case.
  int execution = -1;
  // Version 4: the symbols' values, within the ranges, at which the judge's rule
  // breaks when no execution of the case runs them (an UNSOUND_REWRITE decided
  // for sizes the schedule never shows); empty otherwise. `minimize` adds them
  // to the case as an execution.
  std::vector<int64_t> off_schedule;
  // The runner's check that made the finding (harness/run/checks.h), for the report.
  CheckId check;
};

}  // namespace slicefuzz
