// Known ExecuTorch defects that kill the process running them: a signal, not a
// recoverable sanitizer report. fuzz_program runs the system under test in its
// own process, so a case that reaches one would end the campaign on a finding
// everyone already knows; it asks this predicate first and counts such a case
// as KNOWN without running it (isolated `check` and `run` still execute it, so
// the known finding keeps being reproduced and the nightly notices a fix).
#pragma once
#include <string>

#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz::et_limits {

// The root-cause signature of the known process-killing defect `c` reaches, or
// "". Over-approximates where the defect depends on what the harness passes (an
// op after a failing one never runs; view_copy's out rank), never under.
std::string process_killing_known_finding(const Case& c, const ProgramInfo& info);

// The same for executorch-runtime, whose programs also call squeeze_copy.dims_out
// for a one-entry list written `dims=[D]`.
std::string process_killing_known_finding_in_programs(const Case& c, const ProgramInfo& info);
// ... and for executorch-runtime-planned, whose programs run on the planned path.
std::string process_killing_known_finding_in_planned_programs(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz::et_limits
