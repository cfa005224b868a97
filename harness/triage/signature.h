// Root-cause signatures of findings (DESIGN section 3): the kind, the op that
// misbehaved (its kind and the path it ran on), and for sanitizer reports and
// crashes the top stack frame inside the system under test -- never features of
// the whole program (rank, dim order, step class), which split one bug into
// many labels.
//   VALUE_MISMATCH:slice_copy:copy
//   UNSOUND_REWRITE:slice_copy:rewrite:program-output
//   PLAN_VIOLATION:program:rewrite:root-dies-early
//   SANITIZER:rewrite:strided_copy@kernels/util/strided_copy.cpp
// A wrong value of a whole-program (out-of-process) backend whose worker
// diagnosed it names the change of the worker's pass to blame instead of an op
// (Finding::cause, the worker's `diagnose` answer; README "Reading a finding"):
//   VALUE_MISMATCH:worker:reinplace-inverse-scatter:other-value
//   VALUE_MISMATCH:worker:reinplace-inverse-scatter:other-view
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "harness/run/case_job.h"
#include "vocab/case.h"

namespace slicefuzz {

// The signature from the finding alone (no re-runs): the op the finding names.
std::string finding_signature(const Case& c, const CaseSummary& finding);

// Runs a case and summarises it (in a worker, or in-process in the fuzz target).
using CaseRunner = std::function<std::vector<CaseSummary>(const std::vector<Case>&)>;

// The signature after locating the op that misbehaved: a VALUE_MISMATCH names the
// op that defined the wrong output, which is often a clone of the real culprit;
// this re-runs the program cut after each op (that op's value as the output) and
// blames the first op whose value is already wrong. Other kinds already name
// their op: this equals finding_signature for them, and so does a finding with a
// worker's diagnosis (Finding::cause), which no probe can improve on.
std::string root_cause_signature(const Case& c, const CaseSummary& finding, const CaseRunner& run);

// The signature as a file-name-safe word (letters, digits, '-', '_').
std::string signature_slug(const std::string& signature);

// Sanitizer stack frames inside the system under test (kernels/, program/,
// backends/ and an ExecuTorch tree), top first, as "function file:line", parsed
// from a worker's log. Empty when the log has no symbolised frames there.
std::vector<std::string> sut_frames(const std::string& log);

}  // namespace slicefuzz
