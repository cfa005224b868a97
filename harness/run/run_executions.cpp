// Version 4, step 1: a case with symbols as its executions, each a static case
// judged by every check (runner.h, run_executions).
#include "harness/run/runner.h"
#include "oracles/dynamic_analysis.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

// The actual sizes of input `in` at `values` (a symbol's value in its dims, even
// outside its range: that is what the check is given).
std::vector<int64_t> actual_sizes(const InputDecl& in, const std::vector<int64_t>& values) {
  std::vector<int64_t> sizes = in.sizes;
  for (size_t d = 0; d < in.sym_sizes.size() && d < sizes.size(); ++d)
    if (in.sym_sizes[d] >= 0) sizes[d] = values[in.sym_sizes[d]];
  return sizes;
}

// ERROR_MISMATCH when the backend's input check accepts an input past its bound
// (or refuses one within it); a finding with an empty message when it answers
// as the judge expects.
Finding input_check_finding(const Case& c, const ExecutionInfo& e, const Backend& backend) {
  Finding f;
  f.kind = FindingKind::ERROR_MISMATCH;
  f.path = "inputs";
  f.check = "input-check";
  std::string refused, past;
  for (const InputDecl& in : c.inputs) {
    if (!in.is_dynamic()) continue;
    const std::vector<int64_t> actual = actual_sizes(in, e.values);
    const std::string why = backend.input_check(actual, in.sizes);
    if (!why.empty() && refused.empty()) refused = "input '" + in.name + "': " + why;
    for (size_t d = 0; d < actual.size() && past.empty(); ++d)
      if (actual[d] < 0 || actual[d] > in.sizes[d])
        past = "input '" + in.name + "' has size " + std::to_string(actual[d]) + " in dim " +
               std::to_string(d) + ", past its bound " + std::to_string(in.sizes[d]);
  }
  if (!e.in_range && refused.empty()) {
    f.rule = "dim-past-bound";
    f.message = past + " (program.fbs: each dim at runtime at most its upper bound's), but the "
                "backend's input check accepted it";
    f.sut_accepted = true;
  } else if (e.in_range && !refused.empty()) {
    f.message = "the backend refused an input within its bounds: " + refused;
    f.sut_refused = true;
  }
  return f;
}

}  // namespace

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
  // An out-of-process backend sets no inputs of its own: an execution outside
  // the ranges is not its test.
  if (backend.out_of_process())
    for (size_t k = 0; k < dynamic.runs.size(); ++k)
      if (!dynamic.runs[k].in_range) {
        report.unsupported = "execution " + std::to_string(k + 1) + " (" +
                             describe_execution(c, dynamic.runs[k].values) +
                             ") lies outside its symbols' ranges: an out-of-process backend sets "
                             "no inputs of its own";
        return report;
      }
  for (size_t k = 0; k < dynamic.runs.size(); ++k) {
    const ExecutionInfo& e = dynamic.runs[k];
    // Setting the inputs: the judge says refuse exactly when a value lies outside
    // its range (program.fbs's per-dim rule); the backend's input check answers.
    if (!backend.out_of_process()) {
      Finding f = input_check_finding(c, e, backend);
      if (!f.message.empty()) {
        f.execution = static_cast<int>(k);
        f.message = "execution " + std::to_string(k + 1) + " (" + describe_execution(c, e.values) +
                    "): " + f.message;
        report.findings.push_back(std::move(f));
        ++report.executions;
        return report;
      }
      if (!e.in_range) {  // refused where the inputs are set, as it must be; nothing runs
        ++report.executions;
        continue;
      }
    }
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
