// The differential runner's checks: each one a name, the stage of the execution
// record it reads, and a function that judges the record and appends findings.
// The runner (harness/run/runner.cpp) fills the record as the checks ask, runs
// them in table order and stops at the first failing one; the provenance shadow
// runs its own short list over a record of its own. A finding carries the name
// of the check that made it (Finding::check), as data, to the report.
//   oracles-agree         torch vs the naive reference     ORACLE_DISAGREEMENT
//   backend-admits        the backend's declared limits    UNSUPPORTED
//   copy-path             torch vs the copy path           ERROR_MISMATCH, VALUE_MISMATCH
//   rewrite-decisions     the pass vs the judge's eligibility  UNSOUND_REWRITE, MISSED_REWRITE
//   plan-invariants       the memory plan                  PLAN_VIOLATION
//   arena-growth          a backend promising never to grow the arena  MEMORY_REGRESSION
//   alias-facts           each alias vs torch's view, first execution   ALIAS_VIOLATION
//   rewrite-values        torch vs the rewrite path's first execution   ERROR_MISMATCH, VALUE_MISMATCH
//   alias-facts-again     the same, second execution (fresh arena, values kept)
//   rewrite-values-again  the second execution vs the first
//   alias-contract        the alias prim ops' contract on every view-copy op
//   worker-answer         a whole-program (out-of-process) backend's answer: alive, on protocol, typed
//   worker-values         torch vs that answer (a wrong value here is what the worker is asked to diagnose)
#pragma once
#include <string>
#include <vector>

#include "harness/run/execution_record.h"
#include "harness/run/runner.h"

namespace slicefuzz {

struct Check {
  RunnerCheck id;  // findings.h's table: its word is the report's
  Stage needs;
  AliasMode mode = AliasMode::RuntimeOp;  // the run a RewriteRun check reads
  // Appends findings to the report; sets report.unsupported to decide the case
  // without a finding (the runner stops after either).
  void (*run)(const ExecutionRecord&, AliasMode, CaseReport&);
};

// Every check a case goes through on `backend`, in order.
std::vector<Check> case_checks(const Backend& backend);

// The int64 provenance shadow's checks: the copy path and the rewrite path (in
// `mode`) against torch, on a program whose every element says where it came from.
std::vector<Check> shadow_checks(AliasMode mode);

// The path a rewrite run reports under: Planned for aliases placed by the plan,
// Rewrite for the runtime alias ops (and for the shadow's one run).
FindingPath rewrite_path(const ExecutionRecord& r, AliasMode mode);

// Per value: where torch's view chain puts an alias's first byte relative to its
// root, for the aliases the pass decided (0 for everything else).
std::vector<int64_t> torch_alias_deltas(const ExecutionRecord& r);

// Whether every input's fill gives distinct values (else misplaced elements can
// hide, and the int64 provenance shadow runs).
bool inputs_fill_distinct(const ProgramInfo& info, const std::vector<TensorValue>& inputs);

}  // namespace slicefuzz
