#include "harness/run/checks.h"

#include <optional>
#include <utility>

#include "harness/run/alias_contract.h"
#include "oracles/eligibility.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

std::string op_label(const Case& c, int op) {
  if (op < 0 || op >= static_cast<int>(c.ops.size())) return "the input";
  return "op " + std::to_string(op) + " `" + print_op(c.ops[op]) + "`";
}

Finding finding(FindingKind kind, FindingPath path, int op, std::string message) {
  return Finding{kind, path, op, std::move(message), false};
}

// Compares `actual` against `expected` (the oracle). Error behaviour first (the same
// op must fail), then every output element. `mismatch_kind` is VALUE_MISMATCH for a
// path under test and ORACLE_DISAGREEMENT between the two oracles. The messages
// call `actual` by its path's word, or by `actual_name` when given.
// `bounds`: the naive reference's per-element bounds of the outputs (empty: exact).
std::optional<Finding> compare_paths(const Case& c, const ProgramInfo& info,
                                     const std::vector<std::vector<double>>& bounds,
                                     const PathResult& expected, std::string_view expected_name,
                                     const PathResult& actual, FindingPath path,
                                     FindingKind mismatch_kind, std::string_view note,
                                     std::string_view actual_name = {}) {
  const bool oracles = mismatch_kind == FindingKind::ORACLE_DISAGREEMENT;
  const FindingKind error_kind = oracles ? mismatch_kind : FindingKind::ERROR_MISMATCH;
  const std::string who =
      std::string(actual_name.empty() ? std::string_view(finding_path_word(path)) : actual_name) + " path";
  if (expected.error_op >= 0 && actual.error_op != expected.error_op) {
    const int op = expected.error_op;
    std::string what = actual.error_op >= 0
                           ? "raised at " + op_label(c, actual.error_op) + " instead: " +
                                 actual.error_message
                           : "accepted it";
    // Raising earlier than the oracle is a refusal too, and the op it refused
    // (which the oracle ran) is the one at fault: the finding names it.
    const bool earlier = actual.error_op >= 0 && actual.error_op < op;
    Finding f = finding(error_kind, path, earlier ? actual.error_op : op,
                        std::string(expected_name) + " raised at " + op_label(c, op) + " (" +
                            expected.error_message + ") but the " + who + " " + what);
    f.sut_refused = !oracles && earlier;
    f.sut_accepted = !oracles && actual.error_op < 0;
    return f;
  }
  if (oracles && expected.ran_past_failure && actual.ran_past_failure)
    return finding(error_kind, path, info.failing_op,
                   op_label(c, info.failing_op) + ": torch and the naive reference both accepted "
                   "it, but the judge's analysis says it must fail (" + info.failing_reason + ")");
  if (expected.error_op < 0 && (actual.error_op >= 0 || actual.ran_past_failure)) {
    const int op = actual.error_op >= 0 ? actual.error_op : info.failing_op;
    std::string what = actual.error_op >= 0
                           ? "the " + who + " raised: " + actual.error_message
                           : "the " + who + " accepted it (expected: " + info.failing_reason + ")";
    Finding f = finding(error_kind, path, op,
                        op_label(c, op) + ": " + std::string(expected_name) +
                            (expected.ran_past_failure ? " accepted it" : " ran it") + " but " + what);
    f.sut_refused = !oracles && actual.error_op >= 0;
    return f;
  }
  if (actual.partial_write)
    return finding(FindingKind::VALUE_MISMATCH, path, actual.error_op,
                   op_label(c, actual.error_op) +
                       " failed as expected but wrote into its out tensor first");
  if (!expected.complete() || !actual.complete()) return std::nullopt;
  for (size_t i = 0; i < expected.outputs.size() && i < actual.outputs.size(); ++i) {
    std::string why;
    if (compare_values(expected.outputs[i], actual.outputs[i], why, nullptr,
                       i < bounds.size() ? &bounds[i] : nullptr))
      continue;
    const int def = info.values[info.outputs[i]].def_op;
    return finding(mismatch_kind, path, def,
                   "output '" + c.outputs[i] + "' (defined by " + op_label(c, def) + "): " +
                       why + " (" + std::string(expected_name) + " vs " + who + ")" +
                       std::string(note));
  }
  return std::nullopt;
}

// The naive reference's output bounds where it ran (every case check runs it
// first; the provenance shadow holds no inexact op: exact).
const std::vector<std::vector<double>>& output_bounds(const ExecutionRecord& r) {
  static const std::vector<std::vector<double>> kExact;
  return r.naive ? r.naive->output_bounds : kExact;
}

void push(CaseReport& report, std::optional<Finding> f) {
  if (f) report.findings.push_back(std::move(*f));
}

// Whether the documented fill gives every element of fill indices [0, numel) a
// distinct value in dtype t.
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

// ---- The checks -------------------------------------------------------------

void oracles_agree(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  push(report, compare_paths(r.c, r.info, output_bounds(r), r.torch->path, "torch", *r.naive, FindingPath::Oracle,
                             FindingKind::ORACLE_DISAGREEMENT, "", "reference"));
}

void backend_admits(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  const Backend& backend = r.backend;
  if (backend.out_of_process()) {
    // The protocol carries one input (README "Out-of-process backends").
    if (r.c.inputs.size() > 1) {
      report.unsupported = "several inputs (the out-of-process protocol carries one input)";
      return;
    }
    // Nor constants: a worker would have to know the fill of a value it is not
    // sent (a lone constant is the case's one input, but no input of the protocol's).
    if (r.c.has_constants()) {
      report.unsupported = "constants (the out-of-process protocol carries one input and no constant)";
      return;
    }
    // A worker cannot refuse in the protocol's terms what it cannot parse: ops
    // outside its declared limits are UNSUPPORTED before it is asked.
    if (backend.outside_limits) report.unsupported = backend.outside_limits(r.c, r.info);
    return;
  }
  // The in-process kernels and pass run copy semantics only (DESIGN 2).
  if (r.c.has_eager_ops() && !backend.eager_ops)
    report.unsupported = "eager ops (slice, select, add, mul, relu, sigmoid, gelu, index_copy, index_put: eager programs, version 2 on)";
}

void copy_path(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  push(report, compare_paths(r.c, r.info, output_bounds(r), r.torch->path, "torch", *r.copy, FindingPath::Copy,
                             FindingKind::VALUE_MISMATCH, r.note));
}

// UNSOUND_REWRITE / MISSED_REWRITE: the pass against the independent judgement.
void rewrite_decisions(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  const Case& c = r.c;
  std::vector<EligibilityVerdict> verdicts;
  std::vector<int> breaks_at;  // version 4: per verdict, the running execution where its rule breaks
  std::vector<const std::vector<int64_t>*> off_schedule;  // version 4: or the assignment no execution runs
  if (r.schedule) {  // version 4: judged over every execution (dynamic_eligibility.h)
    for (const ScheduledVerdict& s : *r.schedule->verdicts) {
      verdicts.push_back(s.verdict);
      breaks_at.push_back(s.execution);
      off_schedule.push_back(&s.off_schedule);
    }
  } else {
    std::vector<int> aliased_ops;
    for (const RewriteDecision& d : r.rewrite->decisions)
      if (d.alias) aliased_ops.push_back(d.op);
    verdicts = judge_eligibility(c, r.info, r.torch->op_views, aliased_ops);
  }
  for (size_t i = 0; i < verdicts.size(); ++i) {
    const EligibilityVerdict& v = verdicts[i];
    const RewriteDecision* d = r.rewrite->decision_for_op(v.op);
    const bool aliased = d && d->alias;
    if (aliased && !v.eligible) {
      Finding f = finding(FindingKind::UNSOUND_REWRITE, FindingPath::Rewrite, v.op,
                          op_label(c, v.op) + " was rewritten to " + op_alias_prim(c.ops[v.op].kind) +
                              " (pass: " + d->reason + ") but it must stay a copy: " + v.reason);
      // The judge's rule, as data: the pass's own words above can never set it.
      f.rule = v.broken;
      // The execution where the judge's rule breaks, not the one being checked
      // (run_executions maps it to the case's run order).
      if (i < breaks_at.size()) f.execution = breaks_at[i];
      if (i < off_schedule.size()) f.off_schedule = *off_schedule[i];
      report.findings.push_back(std::move(f));
    } else if (!aliased && v.eligible) {
      Finding f = finding(FindingKind::MISSED_REWRITE, FindingPath::Rewrite, v.op,
                          op_label(c, v.op) + " could be an " + op_alias_prim(c.ops[v.op].kind) +
                              " (dense, no output, no mutation hazard) but the pass kept the copy: " +
                              (d ? d->reason : std::string("no decision")));
      f.tolerated = r.backend.tolerates_missed_rewrite;
      report.findings.push_back(f);
    }
  }
}

void plan_invariants(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  // Version 4: the plan holds every value at its bound (then this execution's
  // sizes, and torch's alias offsets at them).
  // A runtime-op backend's alias prim ops place its aliases at each execution.
  PlanVerdict verdict;
  const bool placed = !r.schedule || r.backend.alias_mode != AliasMode::RuntimeOp;
  if (r.schedule)
    verdict = judge_plan(r.c, *r.schedule->bound_info, *r.rewrite, *r.plan, {}, r.backend.arena_alignment, false);
  if (verdict.ok())
    verdict = judge_plan(r.c, r.info, *r.rewrite, *r.plan, r.torch_delta, r.backend.arena_alignment, placed);
  if (verdict.ok()) return;
  Finding f = finding(FindingKind::PLAN_VIOLATION, FindingPath::Rewrite, -1, std::move(verdict.message));
  f.rule = verdict.broken;
  report.findings.push_back(std::move(f));
}

void arena_growth(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  if (!r.backend.never_grows_arena || r.plan->arena_bytes <= r.copy_plan->arena_bytes) return;
  report.findings.push_back(finding(
      FindingKind::MEMORY_REGRESSION, FindingPath::Rewrite, -1,
      "the rewrite grew the arena from " + std::to_string(r.copy_plan->arena_bytes) + " to " +
          std::to_string(r.plan->arena_bytes) + " bytes (aliases keep their roots alive longer)"));
}

// ALIAS_VIOLATION: each executed alias (et_slice, et_select, et_view, or placed by
// the plan) against torch's view of the same chain.
void compare_aliases(const ExecutionRecord& r, const std::vector<AliasRecord>& aliases, AliasMode mode,
                     std::string_view note, CaseReport& report) {
  const Case& c = r.c;
  const ProgramInfo& info = r.info;
  for (const AliasRecord& a : aliases) {
    const int64_t es = static_cast<int64_t>(element_size(info.values[a.value].dtype));
    const std::string& y = info.values[a.value].name;
    const std::string& root = info.values[a.root].name;
    std::string why;
    // The op that must fail has no view in torch: the error checks judge it.
    if (a.op == info.failing_op) continue;
    // (A planned empty alias reads nothing, wherever the plan put it; the alias
    // prim ops promise more: their aliases always lie inside the input.)
    if (mode == AliasMode::Planned && a.nbytes == 0) continue;
    if (a.delta_bytes < 0 || a.delta_bytes + a.nbytes > a.root_nbytes)
      why = "its bytes [" + std::to_string(a.delta_bytes) + ", " +
            std::to_string(a.delta_bytes + a.nbytes) + ") leave root '" + root + "' (" +
            std::to_string(a.root_nbytes) + " bytes)";
    else if (a.nbytes > 0 && a.delta_bytes != r.torch_delta[a.value])
      why = "it starts " + std::to_string(a.delta_bytes) + " bytes into root '" + root +
            "' but torch's view starts at " + std::to_string(r.torch_delta[a.value]) +
            " bytes (storage offset " + std::to_string(r.torch_delta[a.value] / es) + " elements)";
    if (!why.empty())
      report.findings.push_back(finding(
          FindingKind::ALIAS_VIOLATION, rewrite_path(r, mode), a.op,
          op_label(c, a.op) +
              (mode == AliasMode::Planned ? std::string(": the plan placed '")
                                          : ": " + std::string(op_alias_prim(c.ops[a.op].kind)) + " made '") +
              y + "' as an alias, but " + why + std::string(note)));
  }
}

constexpr const char* kAgain =
    " (on the second execution of the same plan, in a fresh arena, with the values' tensors "
    "kept from the first execution, which was right)";

// Alias facts first: an alias outside its root reads someone else's bytes, and
// the precise report beats the value mismatch that follows from it.
void alias_facts(const ExecutionRecord& r, AliasMode mode, CaseReport& report) {
  if (const RewritePathResult* run = r.run(mode)) compare_aliases(r, run->first_execution.aliases, mode, "", report);
}

void rewrite_values(const ExecutionRecord& r, AliasMode mode, CaseReport& report) {
  if (const RewritePathResult* run = r.run(mode))
    push(report, compare_paths(r.c, r.info, output_bounds(r), r.torch->path, "torch", run->first_execution.path,
                               rewrite_path(r, mode), FindingKind::VALUE_MISMATCH, r.note));
}

// The second execution (same plan, fresh arena, the values' tensors kept): a bug
// seen only when the method runs again says so.
void alias_facts_again(const ExecutionRecord& r, AliasMode mode, CaseReport& report) {
  if (const RewritePathResult* run = r.run(mode)) compare_aliases(r, run->aliases, mode, kAgain, report);
}

void rewrite_values_again(const ExecutionRecord& r, AliasMode mode, CaseReport& report) {
  if (const RewritePathResult* run = r.run(mode))
    push(report, compare_paths(r.c, r.info, output_bounds(r), run->first_execution.path, "the first execution", run->path,
                               rewrite_path(r, mode), FindingKind::VALUE_MISMATCH,
                               r.note.empty() ? std::string(kAgain) : r.note));
}

void alias_contract(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  check_alias_contract(r.c, r.info, r.torch->op_views, r.backend, report.findings);
}

// An out-of-process backend runs the whole program: its answer is compared with
// the judge exactly like the copy path. It has no pass, planner or rewrite path.
// First the answer itself: the worker alive, on protocol, its outputs named and
// typed as the case's.
void worker_answer(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  const Case& c = r.c;
  const ProgramInfo& info = r.info;
  const WorkerAnswer& a = *r.worker;
  auto died = [&](FindingKind kind, const std::string& what) {
    report.findings.push_back(finding(kind, FindingPath::Worker, -1, what));
  };
  switch (a.status) {
    case WorkerAnswer::Status::Timeout: return died(FindingKind::TIMEOUT, a.detail);
    case WorkerAnswer::Status::Crash:
      return died(FindingKind::CRASH, a.detail + (a.log.empty() ? "" : "; its stderr ends: " +
                                                  a.log.substr(a.log.size() > 600 ? a.log.size() - 600 : 0)));
    case WorkerAnswer::Status::Protocol: return died(FindingKind::PROTOCOL_ERROR, a.detail);
    case WorkerAnswer::Status::Ok: break;
  }
  if (!a.detail.empty()) return died(FindingKind::CRASH, a.detail);
  if (a.path.error_op >= static_cast<int>(c.ops.size()))
    return died(FindingKind::PROTOCOL_ERROR, "error at op " + std::to_string(a.path.error_op) +
                                                 ", but the case has " + std::to_string(c.ops.size()) + " ops");
  if (!a.path.complete()) return;
  if (a.path.outputs.size() != c.outputs.size())
    return died(FindingKind::PROTOCOL_ERROR, std::to_string(a.path.outputs.size()) +
                                                 " outputs in the answer, the case has " +
                                                 std::to_string(c.outputs.size()));
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    if (a.names[i] != c.outputs[i])
      return died(FindingKind::PROTOCOL_ERROR, "output " + std::to_string(i) + " is named '" +
                                                   a.names[i] + "', the case says '" + c.outputs[i] + "'");
    const ScalarType want = info.values[info.outputs[i]].dtype;
    if (a.path.outputs[i].dtype != want) {
      const int def = info.values[info.outputs[i]].def_op;
      report.findings.push_back(finding(
          FindingKind::VALUE_MISMATCH, FindingPath::Worker, def,
          "output '" + c.outputs[i] + "' has dtype " + std::string(scalar_type_name(a.path.outputs[i].dtype)) +
              ", torch's has " + std::string(scalar_type_name(want))));
      return;
    }
  }
}

// Then its errors and values against torch.
void worker_values(const ExecutionRecord& r, AliasMode, CaseReport& report) {
  push(report, compare_paths(r.c, r.info, output_bounds(r), r.torch->path, "torch", r.worker->path, FindingPath::Worker,
                             FindingKind::VALUE_MISMATCH, " [out-of-process backend " + r.backend.name + "]"));
}

}  // namespace

FindingPath rewrite_path(const ExecutionRecord& r, AliasMode mode) {
  return mode == AliasMode::Planned && !r.shadow ? FindingPath::Planned : FindingPath::Rewrite;
}

std::vector<Check> case_checks(const Backend& backend) {
  std::vector<Check> checks = {{RunnerCheck::OraclesAgree, Stage::Naive, AliasMode::RuntimeOp, oracles_agree},
                               {RunnerCheck::BackendAdmits, Stage::None, AliasMode::RuntimeOp, backend_admits}};
  if (backend.out_of_process()) {
    checks.insert(checks.end(), {{RunnerCheck::WorkerAnswer, Stage::WorkerRun, AliasMode::RuntimeOp, worker_answer},
                                 {RunnerCheck::WorkerValues, Stage::WorkerRun, AliasMode::RuntimeOp, worker_values}});
    return checks;
  }
  checks.insert(checks.end(), {{RunnerCheck::CopyPath, Stage::CopyPath, AliasMode::RuntimeOp, copy_path},
                               {RunnerCheck::RewriteDecisions, Stage::Pass, AliasMode::RuntimeOp, rewrite_decisions},
                               {RunnerCheck::PlanInvariants, Stage::Plan, AliasMode::RuntimeOp, plan_invariants},
                               {RunnerCheck::ArenaGrowth, Stage::Plan, AliasMode::RuntimeOp, arena_growth}});
  // Each alias mode the backend uses: the runtime prim op, and/or aliases placed
  // by the plan with no op (path "planned").
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
    if (backend.alias_mode != AliasMode::Both && backend.alias_mode != mode) continue;
    checks.insert(checks.end(), {{RunnerCheck::AliasFacts, Stage::RewriteRun, mode, alias_facts},
                                 {RunnerCheck::RewriteValues, Stage::RewriteRun, mode, rewrite_values},
                                 {RunnerCheck::AliasFactsAgain, Stage::RewriteRun, mode, alias_facts_again},
                                 {RunnerCheck::RewriteValuesAgain, Stage::RewriteRun, mode, rewrite_values_again}});
  }
  if (backend.alias_mode != AliasMode::Planned)
    checks.push_back({RunnerCheck::AliasContract, Stage::None, AliasMode::RuntimeOp, alias_contract});
  return checks;
}

std::vector<Check> shadow_checks(AliasMode mode) {
  return {{RunnerCheck::CopyPath, Stage::CopyPath, mode, copy_path},
          {RunnerCheck::RewriteValues, Stage::RewriteRun, mode, rewrite_values},
          {RunnerCheck::RewriteValuesAgain, Stage::RewriteRun, mode, rewrite_values_again}};
}

std::vector<int64_t> torch_alias_deltas(const ExecutionRecord& r) {
  const ProgramInfo& info = r.info;
  std::vector<int64_t> torch_delta(info.values.size(), 0);
  for (const TorchOpView& view : r.torch->op_views) {
    const OpInfo& oi = info.ops[view.op];
    const int64_t es = static_cast<int64_t>(element_size(info.values[oi.result].dtype));
    // Wrapping: an empty view of sizes past int32 beside a 0 has a storage offset
    // that, summed along a chain, passes int64; it reads nothing and is never
    // compared (compare_aliases and the plan check skip empty aliases).
    if (oi.result < static_cast<int>(r.rewrite->root.size()) && r.rewrite->is_alias(oi.result))
      torch_delta[oi.result] = static_cast<int64_t>(static_cast<uint64_t>(torch_delta[oi.src]) +
                                                    static_cast<uint64_t>(view.storage_offset) *
                                                        static_cast<uint64_t>(es));
  }
  return torch_delta;
}

bool inputs_fill_distinct(const ProgramInfo& info, const std::vector<TensorValue>& inputs) {
  // Input k holds fill indices [start_k, start_k + numel_k) (values.h), so this
  // is also distinct between inputs of one dtype.
  const std::vector<int64_t> starts = input_fill_starts(info);
  for (size_t k = 0; k < inputs.size(); ++k)
    if (!fill_is_distinct(inputs[k].dtype, starts[k] + inputs[k].numel())) return false;
  return true;
}

}  // namespace slicefuzz
