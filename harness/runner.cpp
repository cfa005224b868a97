#include "harness/runner.h"

#include "kernels/util/element_ops.h"
#include "oracles/oracle.h"
#include "program/case_format.h"
#include "program/copy_executor.h"

namespace slicefuzz {

namespace {

std::string op_label(const Case& c, int op) {
  if (op < 0 || op >= static_cast<int>(c.ops.size())) return "the input";
  return "op " + std::to_string(op) + " `" + print_op(c.ops[op]) + "`";
}

Finding finding(FindingKind kind, std::string path, int op, std::string message) {
  return Finding{kind, std::move(path), op, std::move(message), false};
}

// Compares `actual` against `expected` (the oracle). Error behaviour first (the same
// op must fail), then every output element. `mismatch_kind` is VALUE_MISMATCH for a
// path under test and ORACLE_DISAGREEMENT between the two oracles.
std::optional<Finding> compare_paths(const Case& c, const ProgramInfo& info,
                                     const PathResult& expected, std::string_view expected_name,
                                     const PathResult& actual, const std::string& path,
                                     FindingKind mismatch_kind, std::string_view note) {
  const bool oracles = mismatch_kind == FindingKind::ORACLE_DISAGREEMENT;
  const FindingKind error_kind = oracles ? mismatch_kind : FindingKind::ERROR_MISMATCH;
  const std::string who = path + " path";
  if (expected.error_op >= 0 && actual.error_op != expected.error_op) {
    const int op = expected.error_op;
    std::string what = actual.error_op >= 0
                           ? "raised at " + op_label(c, actual.error_op) + " instead: " +
                                 actual.error_message
                           : "accepted it";
    return finding(error_kind, path, op,
                   std::string(expected_name) + " raised at " + op_label(c, op) + " (" +
                       expected.error_message + ") but the " + who + " " + what);
  }
  if (expected.error_op < 0 && (actual.error_op >= 0 || actual.ran_past_failure)) {
    const int op = actual.error_op >= 0 ? actual.error_op : info.failing_op;
    std::string what = actual.error_op >= 0
                           ? "the " + who + " raised: " + actual.error_message
                           : "the " + who + " accepted it (expected: " + info.failing_reason + ")";
    return finding(error_kind, path, op,
                   op_label(c, op) + ": " + std::string(expected_name) +
                       (expected.ran_past_failure ? " accepted it" : " ran it") + " but " + what);
  }
  if (actual.partial_write)
    return finding(FindingKind::VALUE_MISMATCH, path, actual.error_op,
                   op_label(c, actual.error_op) +
                       " failed as expected but wrote into its out tensor first");
  if (!expected.complete() || !actual.complete()) return std::nullopt;
  for (size_t i = 0; i < expected.outputs.size() && i < actual.outputs.size(); ++i) {
    std::string why;
    if (compare_values(expected.outputs[i], actual.outputs[i], why)) continue;
    const int def = info.values[info.outputs[i]].def_op;
    return finding(mismatch_kind, path, def,
                   "output '" + c.outputs[i] + "' (defined by " + op_label(c, def) + "): " +
                       why + " (" + std::string(expected_name) + " vs " + who + ")" +
                       std::string(note));
  }
  return std::nullopt;
}

// Whether the documented fill gives every input element a distinct value; where
// it does not, misplaced elements can hide, and the int64 shadow runs.
bool fill_is_distinct(ScalarType t, int64_t numel) {
  switch (t) {
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::Double: return true;
    case ScalarType::Float: return numel <= (int64_t{1} << 22);
    case ScalarType::Half: return numel <= 2039;
    case ScalarType::Short: return numel <= 32749;
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::BFloat16: return numel <= 251;
    case ScalarType::Bool: return numel <= 1;
  }
  return false;
}

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

}  // namespace

bool CaseReport::failed() const { return first_failure() != nullptr; }

const Finding* CaseReport::first_failure() const {
  for (const Finding& f : findings)
    if (!f.tolerated) return &f;
  return nullptr;
}

CaseReport run_case(const Case& c, const ProgramInfo& info, const Backend& backend,
                    const RunOptions& options) {
  CaseReport report;
  for (const Op& op : c.ops) report.slices += op.kind == OpKind::SliceCopy;

  TorchOracleResult torch = run_torch_oracle(c, info);
  PathResult naive = run_naive_reference(c, info);
  if (auto f = compare_paths(c, info, torch.path, "torch", naive, "reference",
                             FindingKind::ORACLE_DISAGREEMENT, "")) {
    f->path = "oracle";
    report.findings.push_back(*f);
    return report;
  }

  PathResult copy = run_copy_path(c, info, backend.kernels);
  if (auto f = compare_paths(c, info, torch.path, "torch", copy, "copy",
                             FindingKind::VALUE_MISMATCH, "")) {
    report.findings.push_back(*f);
    return report;
  }

  if (options.provenance_shadow && !fill_is_distinct(c.dtype, numel_of(c.sizes))) {
    Case shadow = c;
    shadow.dtype = ScalarType::Long;
    ProgramInfo shadow_info;
    AnalysisError err;
    // The shadow holds 8-byte elements; give it the budget that implies.
    if (analyze(shadow, options.byte_budget * 8, shadow_info, err)) {
      TorchOracleResult st = run_torch_oracle(shadow, shadow_info);
      PathResult sc = run_copy_path(shadow, shadow_info, backend.kernels);
      if (auto f = compare_paths(shadow, shadow_info, st.path, "torch", sc, "copy",
                                 FindingKind::VALUE_MISMATCH,
                                 " in the int64 provenance shadow, where each input element "
                                 "holds its own row-major index (plus any add_): the element "
                                 "came from the wrong place")) {
        report.findings.push_back(*f);
        return report;
      }
    }
  }
  return report;
}

}  // namespace slicefuzz
