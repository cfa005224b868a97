// Version 4 (docs/design.md section 8): the judge's eligibility of a rewrite
// decided once for every execution of a program with symbols. Per execution, the
// static judgement (eligibility.h) on torch's views at that execution's sizes;
// an op is eligible only if it is eligible at every execution that runs it.
// Where the backend places aliases by the plan (one byte offset per alias, an
// allocation_info offset), also: torch's view of the op starts at the same byte
// of its root at every execution where it is not empty, else OffsetMoves (a
// dim-0 slice below a dynamic inner dim, a slice at a runtime start). An alias
// prim op recomputes its pointer, so a runtime-op backend is not held to that.
#pragma once
#include <vector>

#include "oracles/eligibility.h"
#include "oracles/oracle.h"
#include "vocab/program_info.h"

namespace slicefuzz {

struct ScheduledVerdict {
  EligibilityVerdict verdict;  // `reason` names the execution where a rule breaks
  int execution = -1;          // that execution (0-based), or -1 when eligible
  // Where the rule breaks at sizes the ranges allow but no execution runs: the
  // symbols' values there (judge_eligibility_off_schedule), else empty.
  std::vector<int64_t> off_schedule;
};

// `runs[i]` and `torch[i]`: the executions of `symbolic` that run (in order) and
// torch's result at each. One verdict per view-copy op that runs at some
// execution, in op order.
std::vector<ScheduledVerdict> judge_eligibility_over_executions(
    const Case& symbolic, const std::vector<const ExecutionInfo*>& runs, const std::vector<const TorchOracleResult*>& torch,
    const std::vector<int>& aliased_ops, bool planned);

// The same decision held to every other assignment the ranges allow (`every`,
// the analysis's enumeration), which a pass decides for as much as for the
// scheduled ones (torch.export gives it SymInts with ranges): for each op still
// eligible in `verdicts`, torch's view at each assignment must keep the rules,
// and (planned) start at the same byte of its root as on the schedule. An op
// that must fail at such an assignment: a planned alias of it runs nothing there
// to raise the error (MustRaise); otherwise its verdict is dropped (nothing runs
// there to judge it, and keeping a copy is then no missed rewrite). The first
// assignment that breaks an op's verdict is named in `off_schedule`. Returns the
// assignments judged. Runs torch at each, so only while some verdict is eligible.
int64_t judge_eligibility_off_schedule(const Case& symbolic, const std::vector<const ExecutionInfo*>& runs,
                                       const std::vector<const TorchOracleResult*>& torch,
                                       const std::vector<ExecutionInfo>& every, const std::vector<int>& aliased_ops,
                                       bool planned, std::vector<ScheduledVerdict>& verdicts);

}  // namespace slicefuzz
