// One case's execution record: what each path produced, filled stage by stage
// as the runner's checks ask for it. The checks (harness/run/checks.h) read it
// and judge; only the runner (harness/run/runner.cpp) runs the system under test
// to fill it, so the order in which paths run is the order of the checks that
// need them, and a case stops at its first failing check: a plan the judge found
// unsound is never executed.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "harness/run/worker_client.h"
#include "oracles/dynamic_eligibility.h"
#include "oracles/oracle.h"
#include "program/arena_executor.h"
#include "vocab/case.h"
#include "vocab/plan_types.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// What a check reads besides the libtorch oracle's result (values and torch's
// views), which every check reads and the runner produces first. The runner
// produces each stage once, when the first check that needs it runs
// (RewriteRun: once per alias mode).
enum class Stage {
  None,        // the case, the backend and torch's result alone
  Naive,       // the naive reference
  CopyPath,    // the inputs and the copy path
  Pass,        // the backend's rewrite decisions
  Plan,        // the memory plans (with and without the rewrite) and torch's alias deltas
  RewriteRun,  // the rewrite path in one alias mode, executed twice
  WorkerRun,   // a whole-program (out-of-process) backend's answer
};

// Version 4 (run_executions): what was decided once for every execution of a
// case with symbols, handed to each execution's record. The rewrite was decided
// over the executions and planned at the bounds; eligibility was judged over the
// executions; one method per alias mode runs them all in order, its values kept.
struct ScheduleState {
  const ProgramInfo* bound_info = nullptr;  // every value at its bound's sizes
  const RewritePlan* rewrite = nullptr;
  const MemoryPlan* plan = nullptr;
  const MemoryPlan* copy_plan = nullptr;
  const std::vector<ScheduledVerdict>* verdicts = nullptr;
  const TorchOracleResult* torch = nullptr;  // this execution's, computed up front
  std::array<MethodUnderTest*, 2> methods{nullptr, nullptr};  // by ExecutionRecord::mode_index
  const std::vector<int64_t>* symbols = nullptr;  // this execution's value of each symbol
  // What the backend's pass was told in the round that settled the rewrite (the
  // ops kept copies, the program with its symbols): at one execution's sizes it
  // decides what the schedule decided, so the provenance shadow (int64, sizes of
  // its own) asks the pass with it.
  PassContext pass_context;
};

struct ExecutionRecord {
  ExecutionRecord(const Case& c_, const ProgramInfo& info_, const Backend& backend_)
      : c(c_), info(info_), backend(backend_) {}
  const Case& c;
  const ProgramInfo& info;
  const Backend& backend;
  // The int64 provenance shadow of a case (a record of its own): its value
  // findings carry `note`, and its rewrite path runs only where its plan is valid
  // (the case's own plan was; the shadow's sizes differ).
  bool shadow = false;
  std::string note;
  // Version 4: every value's bound sizes (RunOptions::value_bounds), or nullptr.
  const std::vector<std::vector<int64_t>>* bounds = nullptr;
  // Version 4: the schedule's decisions, plan and methods, or nullptr.
  const ScheduleState* schedule = nullptr;
  // What the pass is told when this record asks it (Stage::Pass): empty for a
  // static case; the schedule's for the shadow of an execution.
  PassContext pass_context;

  std::optional<TorchOracleResult> torch;
  std::optional<PathResult> naive;
  std::vector<TensorValue> inputs;
  std::optional<PathResult> copy;
  std::optional<RewritePlan> rewrite;
  std::optional<MemoryPlan> plan, copy_plan;
  std::vector<int64_t> torch_delta;  // per value: torch's byte offset of an alias in its root
  // Per alias mode (RuntimeOp, Planned): the rewrite path's two executions; empty
  // in a shadow whose plan is not valid.
  std::array<std::optional<RewritePathResult>, 2> runs;
  std::array<bool, 2> ran{false, false};
  // A whole-program backend: the case as sent (one input, as the protocol
  // carries it) and the worker's answer to `run`.
  std::string worker_text;
  std::optional<WorkerAnswer> worker;

  static size_t mode_index(AliasMode m) { return m == AliasMode::Planned ? 1 : 0; }
  const RewritePathResult* run(AliasMode m) const {
    const auto& r = runs[mode_index(m)];
    return r ? &*r : nullptr;
  }
};

}  // namespace slicefuzz
