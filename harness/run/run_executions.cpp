// Version 4, step 1: a case with symbols as its executions, each a static case
// judged by every check (runner.h, run_executions).
#include "harness/run/runner.h"
#include "oracles/dynamic_analysis.h"
#include "vocab/concretise.h"

namespace slicefuzz {

CaseReport run_executions(const Case& c, const Backend& backend, const RunOptions& options) {
  CaseReport report;
  DynamicInfo dynamic;
  ProgramInfo first;
  DynamicError err;
  if (!analyze_dynamic(c, options.byte_budget, dynamic, first, err)) {
    Finding f;
    f.kind = FindingKind::PARSE_ERROR;
    f.path = "parser";
    f.message = err.message;
    report.findings.push_back(std::move(f));
    return report;
  }
  for (size_t k = 0; k < dynamic.runs.size(); ++k) {
    if (!dynamic.runs[k].in_range) {
      report.unsupported = "execution " + std::to_string(k + 1) + " (" +
                           describe_execution(c, dynamic.runs[k].values) +
                           ") lies outside its symbols' ranges: the input check is not under "
                           "test yet (issue 23)";
      continue;
    }
  }
  if (!report.unsupported.empty()) return report;
  for (size_t k = 0; k < dynamic.runs.size(); ++k) {
    const ExecutionInfo& e = dynamic.runs[k];
    RunOptions at_bounds = options;
    at_bounds.value_bounds = &dynamic.bound_sizes;
    CaseReport one = run_case(e.c, e.info, backend, at_bounds);
    ++report.executions;
    report.slices += one.slices;
    report.rewritten += one.rewritten;
    report.arena_bytes = std::max(report.arena_bytes, one.arena_bytes);
    report.copy_arena_bytes = std::max(report.copy_arena_bytes, one.copy_arena_bytes);
    report.rules.insert(report.rules.end(), one.rules.begin(), one.rules.end());
    report.decided.insert(report.decided.end(), one.decided.begin(), one.decided.end());
    for (Finding& f : one.findings) {
      f.execution = static_cast<int>(k);
      f.message = "execution " + std::to_string(k + 1) + " (" + describe_execution(c, e.values) +
                  "): " + f.message;
      report.findings.push_back(std::move(f));
    }
    if (!one.unsupported.empty()) {
      report.unsupported = "execution " + std::to_string(k + 1) + ": " + one.unsupported;
      return report;
    }
    if (one.failed()) return report;  // the first failing execution ends the case
  }
  return report;
}

}  // namespace slicefuzz
