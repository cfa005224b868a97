#include "harness/run/runner.h"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <utility>

#if defined(SLICEFUZZ_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

#include "harness/run/alias_contract.h"
#include "oracles/analysis.h"
#include "oracles/eligibility.h"
#include "oracles/oracle.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "program/copy_executor.h"
#include "harness/run/worker_client.h"

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
    if (compare_values(expected.outputs[i], actual.outputs[i], why)) continue;
    const int def = info.values[info.outputs[i]].def_op;
    return finding(mismatch_kind, path, def,
                   "output '" + c.outputs[i] + "' (defined by " + op_label(c, def) + "): " +
                       why + " (" + std::string(expected_name) + " vs " + who + ")" +
                       std::string(note));
  }
  return std::nullopt;
}

// Whether the documented fill gives every element of fill indices [0, numel) a
// distinct value in dtype t; where it does not, misplaced elements can hide, and
// the int64 shadow runs.
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

// Every input's fill distinct (input k holds fill indices [start_k, start_k +
// numel_k): values.h), so also distinct between inputs of one dtype.
bool inputs_fill_distinct(const ProgramInfo& info, const std::vector<TensorValue>& inputs) {
  const std::vector<int64_t> starts = input_fill_starts(info);
  for (size_t k = 0; k < inputs.size(); ++k)
    if (!fill_is_distinct(inputs[k].dtype, starts[k] + inputs[k].numel())) return false;
  return true;
}

// The case with only op k (its values and their layouts kept): what a backend's
// limits say of that op alone.
std::string op_outside_limits(const Case& c, const ProgramInfo& info, const Backend& backend, int k) {
  if (!backend.outside_limits || k < 0 || k >= static_cast<int>(c.ops.size()) ||
      k >= static_cast<int>(info.ops.size()))
    return {};
  Case one = c;
  one.ops = {c.ops[k]};
  ProgramInfo one_info = info;
  one_info.ops = {info.ops[k]};
  return backend.outside_limits(one, one_info);
}

}  // namespace

bool CaseReport::failed() const { return first_failure() != nullptr; }

const Finding* CaseReport::first_failure() const {
  for (const Finding& f : findings)
    if (!f.tolerated) return &f;
  return nullptr;
}

namespace {

// UNSOUND_REWRITE / MISSED_REWRITE: the pass against the independent judgement.
void compare_decisions(const Case& c, const RewritePlan& rewrite,
                       const std::vector<EligibilityVerdict>& verdicts, const Backend& backend,
                       CaseReport& report) {
  for (const EligibilityVerdict& v : verdicts) {
    const SliceDecision* d = rewrite.decision_for_op(v.op);
    const bool aliased = d && d->alias;
    if (aliased && !v.eligible) {
      Finding f = finding(FindingKind::UNSOUND_REWRITE, "rewrite", v.op,
                          op_label(c, v.op) + " was rewritten to " + op_alias_prim(c.ops[v.op].kind) +
                              " (pass: " + d->reason + ") but it must stay a copy: " + v.reason);
      // The judge's rule, as data: the pass's own words above can never set it.
      f.rule = eligibility_rule_word(v.broken);
      report.findings.push_back(std::move(f));
    } else if (!aliased && v.eligible) {
      Finding f = finding(FindingKind::MISSED_REWRITE, "rewrite", v.op,
                          op_label(c, v.op) + " could be an " + op_alias_prim(c.ops[v.op].kind) +
                              " (dense, no output, no mutation hazard) but the pass kept the copy: " +
                              (d ? d->reason : std::string("no decision")));
      f.tolerated = backend.tolerates_missed_rewrite;
      report.findings.push_back(f);
    }
  }
}

// Per value: where torch's view chain puts an alias's first byte relative to its
// root, for the aliases the pass decided (0 for everything else).
std::vector<int64_t> torch_alias_deltas(const Case& c, const ProgramInfo& info,
                                        const TorchOracleResult& torch, const RewritePlan& rewrite) {
  std::vector<int64_t> torch_delta(info.values.size(), 0);
  for (const TorchSliceView& view : torch.slice_views) {
    const OpInfo& oi = info.ops[view.op];
    const int64_t es = static_cast<int64_t>(element_size(info.values[oi.result].dtype));
    // Wrapping: an empty view of sizes past int32 beside a 0 has a storage offset
    // that, summed along a chain, passes int64; it reads nothing and is never
    // compared (compare_aliases and the plan check skip empty aliases).
    if (oi.result < static_cast<int>(rewrite.root.size()) && rewrite.is_alias(oi.result))
      torch_delta[oi.result] = static_cast<int64_t>(static_cast<uint64_t>(torch_delta[oi.src]) +
                                                    static_cast<uint64_t>(view.storage_offset) *
                                                        static_cast<uint64_t>(es));
  }
  return torch_delta;
}

// ALIAS_VIOLATION: each executed alias (et_slice, et_select, et_view, or placed by
// the plan) against torch's view of the same chain.
void compare_aliases(const Case& c, const ProgramInfo& info,
                     const std::vector<int64_t>& torch_delta,
                     const std::vector<AliasRecord>& aliases, AliasMode mode,
                     const std::string& path, std::string_view note, CaseReport& report) {
  for (const AliasRecord& a : aliases) {
    const int64_t es = static_cast<int64_t>(element_size(info.values[a.value].dtype));
    const std::string& y = info.values[a.value].name;
    const std::string& root = info.values[a.root].name;
    std::string why;
    // (A planned empty alias reads nothing, wherever the plan put it; the alias
    // prim ops promise more: their aliases always lie inside the input.)
    if (mode == AliasMode::Planned && a.nbytes == 0) continue;
    if (a.delta_bytes < 0 || a.delta_bytes + a.nbytes > a.root_nbytes)
      why = "its bytes [" + std::to_string(a.delta_bytes) + ", " +
            std::to_string(a.delta_bytes + a.nbytes) + ") leave root '" + root + "' (" +
            std::to_string(a.root_nbytes) + " bytes)";
    else if (a.nbytes > 0 && a.delta_bytes != torch_delta[a.value])
      why = "it starts " + std::to_string(a.delta_bytes) + " bytes into root '" + root +
            "' but torch's view starts at " + std::to_string(torch_delta[a.value]) +
            " bytes (storage offset " + std::to_string(torch_delta[a.value] / es) + " elements)";
    if (!why.empty())
      report.findings.push_back(finding(
          FindingKind::ALIAS_VIOLATION, path, a.op,
          op_label(c, a.op) +
              (mode == AliasMode::Planned ? std::string(": the plan placed '")
                                          : ": " + std::string(op_alias_prim(c.ops[a.op].kind)) + " made '") +
              y + "' as an alias, but " + why + std::string(note)));
  }
}

// An out-of-process backend runs the whole program: its answer is compared with
// the judge exactly like the copy path. It has no pass, planner or rewrite path.
void run_worker_path(const Case& c, const ProgramInfo& info, const PathResult& expected,
                     const Backend& backend, CaseReport& report) {
  // The protocol carries one input (README "Out-of-process backends"); a single
  // input of its own dtype travels as the case's default dtype.
  Case sent = c;
  sent.dtype = c.input_dtype(0);
  sent.inputs[0].dtype.reset();
  const std::string text = print_case(sent);
  const TensorValue input = make_input_values(info)[0];
  const WorkerAnswer a = ask_worker(backend.worker_command, "run", text, input, worker_timeout_seconds());
  auto died = [&](FindingKind kind, const std::string& what) {
    Finding f = finding(kind, "worker", -1, what);
    report.findings.push_back(f);
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
  if (a.path.complete()) {
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
            FindingKind::VALUE_MISMATCH, "worker", def,
            "output '" + c.outputs[i] + "' has dtype " + std::string(scalar_type_name(a.path.outputs[i].dtype)) +
                ", torch's has " + std::string(scalar_type_name(want))));
        return;
      }
    }
  }
  auto f = compare_paths(c, info, expected, "torch", a.path, "worker", FindingKind::VALUE_MISMATCH,
                         " [out-of-process backend " + backend.name + "]");
  if (!f) return;
  // A wrong value: ask the worker which change of its pass is to blame (only
  // now, so a passing case costs nothing). No answer, or `cause none`, leaves
  // the signature to the judge's own probes (harness/triage/signature.cpp).
  if (f->kind == FindingKind::VALUE_MISMATCH) {
    const WorkerAnswer d = ask_worker(backend.worker_command, "diagnose", text, input,
                                      worker_timeout_seconds());
    if (d.status == WorkerAnswer::Status::Ok && !d.cause.empty()) {
      f->cause = d.cause;
      f->message += " [the worker blames: " + d.cause + "]";
    }
  }
  report.findings.push_back(*f);
}

}  // namespace

namespace {

// The path this process is running (a string literal; "" between paths).
std::atomic<const char*> g_running_path{""};

// Marks the path being run for its scope.
struct RunningPath {
  explicit RunningPath(const char* path) { g_running_path.store(path); }
  ~RunningPath() { g_running_path.store(""); }
  RunningPath(const RunningPath&) = delete;
  RunningPath& operator=(const RunningPath&) = delete;
};

#if defined(SLICEFUZZ_ASAN)
// A sanitizer's death callback: the running path, written as the worker dies
// (write(2) only: the process is going down).
void write_running_path() {
  const char* path = g_running_path.load();
  if (!path || !*path) return;
  const char nl = '\n';
  (void)!write(STDERR_FILENO, &nl, 1);
  (void)!write(STDERR_FILENO, kWorkerPathNote, std::strlen(kWorkerPathNote));
  (void)!write(STDERR_FILENO, path, std::strlen(path));
  (void)!write(STDERR_FILENO, &nl, 1);
}
#endif

void note_path_at_death_once() {
#if defined(SLICEFUZZ_ASAN)
  static const bool installed = (__sanitizer_set_death_callback(&write_running_path), true);
  (void)installed;
#endif
}

CaseReport run_all_paths(const Case& c, const ProgramInfo& info, const Backend& backend,
                         const RunOptions& options) {
  CaseReport report;
  for (const Op& op : c.ops) report.slices += op_is_view_copy(op.kind);

  std::optional<RunningPath> running(std::in_place, "oracle");
  TorchOracleResult torch = run_torch_oracle(c, info);
  PathResult naive = run_naive_reference(c, info);
  running.reset();
  if (auto f = compare_paths(c, info, torch.path, "torch", naive, "reference",
                             FindingKind::ORACLE_DISAGREEMENT, "")) {
    f->path = "oracle";
    report.findings.push_back(*f);
    return report;
  }

  if (backend.out_of_process()) {
    // The protocol carries one input (README "Out-of-process backends").
    if (c.inputs.size() > 1) {
      report.unsupported = "several inputs (the out-of-process protocol carries one input)";
      return report;
    }
    // A worker cannot refuse in the protocol's terms what it cannot parse: ops
    // outside its declared limits are UNSUPPORTED before it is asked.
    if (backend.outside_limits) {
      report.unsupported = backend.outside_limits(c, info);
      if (!report.unsupported.empty()) return report;
    }
    RunningPath worker("worker");
    run_worker_path(c, info, torch.path, backend, report);
    return report;
  }
  // The in-process kernels and pass run copy semantics only (DESIGN 2).
  if (c.has_eager_ops() && !backend.eager_ops) {
    report.unsupported = "eager ops (slice, select, add: version 2 views)";
    return report;
  }

  const std::vector<TensorValue> inputs = make_input_values(info);
  running.emplace("copy");
  PathResult copy = run_copy_path(c, info, inputs, backend.kernels);
  running.reset();
  if (auto f = compare_paths(c, info, torch.path, "torch", copy, "copy",
                             FindingKind::VALUE_MISMATCH, "")) {
    report.findings.push_back(*f);
    return report;
  }

  // The rewrite path: decisions, plan, then execution on the poisoned arena.
  RewritePlan rewrite = backend.pass(c, info);
  report.rules.reserve(rewrite.decisions.size());
  report.decided.reserve(rewrite.decisions.size());
  for (const SliceDecision& d : rewrite.decisions) {
    report.rewritten += d.alias;
    report.rules.push_back(d.rule);
    report.decided.push_back({d.op >= 0 && d.op < static_cast<int>(c.ops.size())
                                  ? op_kind_name(c.ops[d.op].kind)
                                  : "op " + std::to_string(d.op) + "?",
                              d.alias});
  }
  std::vector<int> aliased_ops;
  for (const SliceDecision& d : rewrite.decisions)
    if (d.alias) aliased_ops.push_back(d.op);
  compare_decisions(c, rewrite, judge_eligibility(c, info, torch.slice_views, aliased_ops),
                    backend, report);
  if (report.failed()) return report;  // never execute a plan known to be unsound

  MemoryPlan plan = backend.planner(c, info, rewrite);
  MemoryPlan copy_plan = backend.planner(c, info, copy_only_plan(c, info));
  report.arena_bytes = plan.arena_bytes;
  report.copy_arena_bytes = copy_plan.arena_bytes;
  const std::vector<int64_t> torch_delta = torch_alias_deltas(c, info, torch, rewrite);
  PlanVerdict verdict = judge_plan(c, info, rewrite, plan, torch_delta, backend.arena_alignment);
  if (!verdict.ok()) {
    Finding f = finding(FindingKind::PLAN_VIOLATION, "rewrite", -1, std::move(verdict.message));
    f.rule = plan_invariant_word(verdict.broken);
    report.findings.push_back(std::move(f));
    return report;
  }
  if (backend.never_grows_arena && plan.arena_bytes > copy_plan.arena_bytes)
    report.findings.push_back(finding(
        FindingKind::MEMORY_REGRESSION, "rewrite", -1,
        "the rewrite grew the arena from " + std::to_string(copy_plan.arena_bytes) + " to " +
            std::to_string(plan.arena_bytes) + " bytes (aliases keep their roots alive longer)"));

  // Each alias mode the backend uses: the runtime prim op, and/or aliases placed
  // by the plan with no op (path "planned").
  const bool runtime_op = backend.alias_mode != AliasMode::Planned;
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
    if (backend.alias_mode != AliasMode::Both && backend.alias_mode != mode) continue;
    const std::string path = mode == AliasMode::Planned ? "planned" : "rewrite";
    running.emplace(mode == AliasMode::Planned ? "planned" : "rewrite");
    RewritePathResult rw = run_rewrite_path(c, info, inputs, rewrite, plan, backend.kernels, mode);
    running.reset();
    // Alias facts first: an alias outside its root reads someone else's bytes, and
    // the precise report beats the value mismatch that follows from it. The first
    // execution against torch, then the second (same plan, fresh arena, the
    // values' tensors kept) against the first: a bug seen only when the method
    // runs again says so.
    compare_aliases(c, info, torch_delta, rw.first_execution.aliases, mode, path, "", report);
    if (report.failed()) return report;
    if (auto f = compare_paths(c, info, torch.path, "torch", rw.first_execution.path, path,
                               FindingKind::VALUE_MISMATCH, "")) {
      report.findings.push_back(*f);
      return report;
    }
    const char* again = " (on the second execution of the same plan, in a fresh arena, with "
                        "the values' tensors kept from the first execution, which was right)";
    compare_aliases(c, info, torch_delta, rw.aliases, mode, path, again, report);
    if (report.failed()) return report;
    if (auto f = compare_paths(c, info, rw.first_execution.path, "the first execution", rw.path,
                               path, FindingKind::VALUE_MISMATCH, again)) {
      report.findings.push_back(*f);
      return report;
    }
  }
  if (runtime_op) check_et_slice_contract(c, info, torch.slice_views, backend, report.findings);
  if (report.failed()) return report;

  if (options.provenance_shadow && !inputs_fill_distinct(info, inputs)) {
    Case shadow = c;
    shadow.dtype = ScalarType::Long;
    for (InputDecl& in : shadow.inputs) in.dtype.reset();
    ProgramInfo si;
    AnalysisError err;
    // The shadow holds 8-byte elements; give it the budget that implies. It runs
    // only where it fails where the case fails (a copy_ between dtypes fails in
    // the case, not in the all-int64 shadow).
    if (analyze(shadow, options.byte_budget * 8, si, err) && si.failing_op == info.failing_op) {
      const char* note =
          c.inputs.size() > 1
              ? " in the int64 provenance shadow, where each input element holds its own "
                "row-major index plus its input's fill start (plus any add_): the element "
                "came from the wrong place"
              : " in the int64 provenance shadow, where each input element holds its own "
                "row-major index (plus any add_): the element came from the wrong place";
      running.emplace("oracle");
      TorchOracleResult st = run_torch_oracle(shadow, si);
      const std::vector<TensorValue> shadow_inputs = make_input_values(si);
      running.emplace("copy");
      PathResult shadow_copy = run_copy_path(shadow, si, shadow_inputs, backend.kernels);
      running.reset();
      if (auto f = compare_paths(shadow, si, st.path, "torch", shadow_copy, "copy",
                                 FindingKind::VALUE_MISMATCH, note)) {
        report.findings.push_back(*f);
        return report;
      }
      RewritePlan srw = backend.pass(shadow, si);
      MemoryPlan splan = backend.planner(shadow, si, srw);
      if (check_plan(shadow, si, srw, splan, {}, backend.arena_alignment).empty()) {
        running.emplace("rewrite");
        RewritePathResult srun =
            run_rewrite_path(shadow, si, shadow_inputs, srw, splan, backend.kernels,
                             runtime_op ? AliasMode::RuntimeOp : AliasMode::Planned);
        running.reset();
        if (auto f = compare_paths(shadow, si, st.path, "torch", srun.path, "rewrite",
                                   FindingKind::VALUE_MISMATCH, note))
          report.findings.push_back(*f);
      }
    }
  }
  return report;
}

}  // namespace

CaseReport run_case(const Case& c, const ProgramInfo& info, const Backend& backend,
                    const RunOptions& options) {
  note_path_at_death_once();
  CaseReport report = run_all_paths(c, info, backend, options);
  Finding* first = nullptr;
  for (Finding& f : report.findings)
    if (!f.tolerated && !first) first = &f;
  if (first && first->sut_refused && backend.outside_limits) {
    report.unsupported = backend.outside_limits(c, info);
    if (!report.unsupported.empty()) first->tolerated = true;
  } else if (first && first->sut_accepted && first->kind == FindingKind::ERROR_MISMATCH) {
    // The backend ran an op the case language forbids: UNSUPPORTED only where
    // its limits declare that op (alone) outside them, e.g. ExecuTorch's
    // casting copy_ between dtypes.
    report.unsupported = op_outside_limits(c, info, backend, first->op);
    if (!report.unsupported.empty()) first->tolerated = true;
  }
  return report;
}

}  // namespace slicefuzz
