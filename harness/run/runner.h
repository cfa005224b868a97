// The differential runner: one case through every path, judged by a list of
// named checks over one execution record (harness/run/checks.h has the table):
//   torch oracle  vs  naive reference   -> ORACLE_DISAGREEMENT (then nothing else)
//   torch oracle  vs  copy path         -> ERROR_MISMATCH, VALUE_MISMATCH
//   pass decisions vs independent eligibility -> UNSOUND_REWRITE, MISSED_REWRITE
//   memory plan invariants              -> PLAN_VIOLATION (MEMORY_REGRESSION opt-in)
//   torch oracle  vs  rewrite path      -> ERROR_MISMATCH, VALUE_MISMATCH
//   alias pointers vs torch views       -> ALIAS_VIOLATION (et_slice, et_select, et_view)
// plus an int64 provenance shadow of the program for dtypes whose fill repeats
// values, so a misplaced element is caught even in bool or int8: the same loop
// over a record of its own.
#pragma once
#include <cstdint>
#include <vector>

#include "backends/backend.h"
#include "harness/run/findings.h"
#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

struct ScheduleState;  // execution_record.h

struct RunOptions {
  int64_t byte_budget = kDefaultByteBudget;
  bool provenance_shadow = true;
  // Install the sanitizers' death callback that writes kWorkerPathNote (below).
  // The sanitizers keep one death callback per process: an in-process libFuzzer
  // target must leave libFuzzer's own, which writes the crashing input (without
  // it a sanitizer finding's input is lost).
  bool note_path_at_death = true;
  // Version 4: every value's bound sizes (the exported program's upper bounds,
  // DynamicInfo::bound_sizes): the copy path allocates every tensor at its bound,
  // DYNAMIC_BOUND, so each kernel must resize its out to the actual result.
  // nullptr for a static case (each tensor exactly its size).
  const std::vector<std::vector<int64_t>>* value_bounds = nullptr;
  // Version 4: the rewrite decided and planned once for every execution
  // (run_executions), or nullptr: the case's own pass and plan.
  const ScheduleState* schedule = nullptr;
};

// One view-copy op's rewrite decision, for the share rewritten per op kind
// (`slicefuzz check` and `run`): the op's kind as the op table names it, and
// whether the pass made it an alias.
struct OpDecision {
  std::string op_kind;
  bool alias = false;
};

struct CaseReport {
  std::vector<Finding> findings;  // in the order found; see first_failure()
  int slices = 0;                 // view-copy ops in the program (every *_copy op the table has)
  int rewritten = 0;              // of those, turned into aliases by the pass
  int64_t arena_bytes = 0;        // the rewrite path's arena
  int64_t copy_arena_bytes = 0;   // the same program planned without aliases
  std::vector<std::string> rules;  // each view-copy decision's rule tag, in op order
  std::vector<OpDecision> decided;  // each decision's op kind and outcome, in op order
  // UNSUPPORTED (DESIGN 3): the backend refused the case, which lies outside the
  // limits it declares; the reason it gives. The refusal is then tolerated.
  std::string unsupported;
  // Version 4: the executions run (a case with symbols); 0 for a static case.
  int executions = 0;
  bool failed() const;
  const Finding* first_failure() const;
};

// What a worker that dies while running a case writes to its log, then the path
// it was running (a FindingPath's word: "oracle", "copy", "rewrite", ...), so that the
// signature takes the path from the worker's own state, not from function names
// in the stack (sanitizer builds: a sanitizer's death callback writes it).
inline constexpr const char* kWorkerPathNote = "slicefuzz-worker-path: ";

// A case with symbols (version 4) runs each of its executions (run_executions).
// `analysed`: the case's own analysis with every assignment kept (parse_case
// with KeepAssignments::Every), so the assignments are not enumerated again;
// nullptr: run_executions analyses the case itself. (A parameter, not a field
// of RunOptions: options are passed on to other cases, an analysis is not.)
CaseReport run_case(const Case& c, const ProgramInfo& info, const Backend& backend,
                    const RunOptions& options, const DynamicInfo* analysed = nullptr);

// Version 4 (docs/design.md section 8): each execution of a case with symbols
// runs through every check, in order, until the first that fails; a finding says
// which execution (`Finding::execution`). Each execution's inputs go through the
// backend's input check first (an execution outside the ranges must be refused
// there, and then runs nothing). The copy path plans every tensor at its bound.
// The rewrite is decided once over the executions (Backend::dynamic_pass),
// planned once at the bounds, judged over the executions (eligibility at each,
// a planned alias's one offset against torch's at each), and run by one method
// per alias mode whose values persist from execution to execution.
CaseReport run_executions(const Case& c, const Backend& backend, const RunOptions& options,
                          const DynamicInfo* analysed = nullptr);

// Version 4: what the system under test decides once for every execution that
// runs (`running`, in order): its rewrite (its pass at each execution's sizes,
// combined by its dynamic pass until the copies settle) and its plans, made on
// `bound_info` (every value at its bound). run_executions judges it; the
// reproducers (harness/export) replay it.
struct ScheduledRewrite {
  ProgramInfo bound_info;
  RewritePlan rewrite;
  MemoryPlan plan, copy_plan;
  std::vector<bool> kept_copies;  // by op: the copies the settling round told the pass of
};
ScheduledRewrite decide_rewrite_for_executions(const Case& symbolic,
                                               const std::vector<const ExecutionInfo*>& running,
                                               const DynamicInfo& dynamic, const Backend& backend);

// Marks the path this process runs for its scope: what a sanitizer report's
// death callback names (its signature's path), by the path's word.
struct RunningPath {
  explicit RunningPath(FindingPath path);
  ~RunningPath();
  RunningPath(const RunningPath&) = delete;
  RunningPath& operator=(const RunningPath&) = delete;
};

}  // namespace slicefuzz
