// Standalone reproducers of a finding: a Python script that rebuilds the case in
// PyTorch 1.13 and prints the expected values, and a gtest that compiles against
// slicefuzz and fails while the finding reproduces.
//
// The Python script also replays the rewrite path with torch views when it is
// given what the backend's pass and planner decided (collect_rewrite_replay):
// every tensor is an as_strided view of one arena tensor at its planned offset,
// every alias at its root's offset plus its delta, so mutations and byte reuse
// flow through shared storage as they do in the arena. The script compares that
// replay with copy semantics and exits 1 while the rewrite's bug shows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "harness/run/case_job.h"
#include "harness/run/plan_codec.h"
#include "vocab/case.h"

namespace slicefuzz {

struct RewriteReplay {
  PlansForExplain plans;
  // Per value: where et_slice put the alias, bytes from its root's data, as
  // executed (runtime-op mode can differ from the pass's delta: ALIAS_VIOLATION).
  // Empty when the rewrite path could not be executed; the pass's deltas are used.
  std::vector<int64_t> executed_delta;
  std::vector<bool> executed;
  // Per value: the bytes the alias covers as executed (its sizes as its alias prim
  // op set them; et_view keeping its planned sizes shows here), -1 where unknown.
  std::vector<int64_t> executed_nbytes;
  // The rewrite path died before its end: executed_delta comes from calling each
  // alias prim op directly (runtime-op mode), not from the run.
  bool called_directly = false;
  bool never_grows_arena = false;
};

// Runs the backend's pass and planners, then its rewrite path, in workers (the
// system under test never runs in the CLI process). False when the pass or the
// planner killed its worker; a dead rewrite path only leaves executed_delta empty.
bool collect_rewrite_replay(const Case& c, const Backend& backend, const RunOptions& options,
                            const IsolationOptions& isolation, RewriteReplay& out);

// Version 4 (a case with symbols): one replay per execution that runs (within
// its symbols' ranges), in order. Every one holds the plans the backend made once
// for them all (run_executions' ScheduledRewrite: decided over the executions,
// planned at the bounds) and where each alias went at that execution, executed
// by one method in order as run_executions does. False when the pass or the
// planner killed its worker, or no execution runs.
bool collect_dynamic_rewrite_replay(const Case& c, const Backend& backend, const RunOptions& options,
                                    const IsolationOptions& isolation, std::vector<RewriteReplay>& out);

// `replay` may be null: the script then only prints the expected values.
std::string export_python(const Case& c, const CaseSummary& finding, const std::string& backend,
                          const RewriteReplay* replay = nullptr);
// Version 4: every execution in order, each with copy semantics and (given
// `replays`, one per execution that runs) its replay of the rewrite planned at
// the bounds; exits 1 while any execution's replay differs.
std::string export_python_dynamic(const Case& c, const CaseSummary& finding, const std::string& backend,
                                  const std::vector<RewriteReplay>* replays, int64_t byte_budget);
std::string export_gtest(const Case& c, const CaseSummary& finding, const std::string& backend,
                         const std::string& test_name);

namespace export_text {
std::string finding_line(const CaseSummary& f);
std::string comment_block(const std::string& text, const char* prefix);
}  // namespace export_text

}  // namespace slicefuzz
