// One case as a job for an isolated worker: run it, and carry the report back
// across the process boundary as text.
#pragma once
#include <string>

#include "harness/run/isolation.h"
#include "harness/run/runner.h"

namespace slicefuzz {

// What the parent needs of a CaseReport.
struct CaseSummary {
  bool failed = false;
  FindingKind kind = FindingKind::VALUE_MISMATCH;
  std::string message;  // "<path> path: <message>", for people
  FindingPath path = FindingPath::None;  // the path that failed, as data
  int op = -1;          // the op the finding is about (-1: none or unknown)
  int slices = 0, rewritten = 0, tolerated = 0;
  int64_t arena_bytes = 0, copy_arena_bytes = 0;
  std::vector<std::string> rules;  // decision rule tags
  std::vector<OpDecision> decided;  // each decision's op kind and outcome
  std::string worker_log;  // a dead worker's report (SANITIZER, CRASH): frames for the signature
  std::string unsupported;  // UNSUPPORTED: the declared limit the case lies outside
  std::string cause;        // the finding's Finding::cause (a worker's diagnosis)
  BrokenRule rule;          // the finding's Finding::rule (the judge's broken rule or invariant)
  CheckId check;            // the finding's Finding::check (the runner's check that made it)
  int execution = -1;       // the finding's Finding::execution (version 4; -1: a static case)
  int executions = 0;       // CaseReport::executions (version 4; 0: a static case)
  std::vector<int64_t> off_schedule;  // the finding's Finding::off_schedule
};

CaseSummary summarize(const CaseReport& report);
std::string encode_summary(const CaseSummary& s);
// Decodes a worker's text, or turns a dead worker into SANITIZER / CRASH / TIMEOUT.
CaseSummary decode_outcome(const JobOutcome& outcome);

// Runs one case (as text) in this process and encodes its summary: the job a
// worker runs for `minimize` and `run`. Text that does not parse is a PARSE_ERROR.
std::string run_case_text_job(const std::string& text, const Backend& backend,
                              const RunOptions& options);

}  // namespace slicefuzz
