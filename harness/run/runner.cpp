#include "harness/run/runner.h"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <utility>

#if defined(SLICEFUZZ_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

#include "harness/run/checks.h"
#include "harness/run/execution_record.h"
#include "harness/run/worker_client.h"
#include "oracles/analysis.h"
#include "oracles/oracle.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "program/copy_executor.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

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

// The path this process is running (its word, from findings.h's table; "" between paths).
std::atomic<const char*> g_running_path{""};

}  // namespace

RunningPath::RunningPath(FindingPath path) { g_running_path.store(finding_path_word(path)); }
RunningPath::~RunningPath() { g_running_path.store(""); }

namespace {


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

// Fills what `stage` needs into the record, running the system under test (or
// the oracles) at most once per stage; every path runs marked as the path the
// worker is running, for a sanitizer death.
void produce(ExecutionRecord& r, Stage stage, AliasMode mode, CaseReport* counters) {
  const Case& c = r.c;
  const ProgramInfo& info = r.info;
  const Backend& backend = r.backend;
  if (!r.torch) {  // every check reads torch
    RunningPath running(FindingPath::Oracle);
    r.torch = run_torch_oracle(c, info);
  }
  switch (stage) {
    case Stage::None: return;
    case Stage::Naive:
      if (!r.naive) {
        RunningPath running(FindingPath::Oracle);
        r.naive = run_naive_reference(c, info);
      }
      return;
    case Stage::CopyPath:
      if (!r.copy) {
        if (r.inputs.empty()) r.inputs = make_input_values(info);
        RunningPath running(FindingPath::Copy);
        r.copy = run_copy_path(c, info, r.inputs, backend.kernels, r.bounds);
      }
      return;
    case Stage::Pass:
      if (!r.rewrite) {
        r.rewrite = backend.pass(c, info, r.pass_context);
        if (!counters) return;
        counters->rules.reserve(r.rewrite->decisions.size());
        counters->decided.reserve(r.rewrite->decisions.size());
        for (const RewriteDecision& d : r.rewrite->decisions) {
          counters->rewritten += d.alias;
          counters->rules.push_back(d.rule);
          counters->decided.push_back({d.op >= 0 && d.op < static_cast<int>(c.ops.size())
                                           ? op_kind_name(c.ops[d.op].kind)
                                           : "op " + std::to_string(d.op) + "?",
                                       d.alias});
        }
      }
      return;
    case Stage::Plan:
      produce(r, Stage::Pass, mode, counters);
      if (!r.plan) {
        r.plan = backend.planner(c, info, *r.rewrite);
        if (r.shadow) return;  // the shadow checks its plan only for being runnable
        r.copy_plan = backend.planner(c, info, copy_only_plan(c, info));
        r.torch_delta = torch_alias_deltas(r);
        if (counters) {
          counters->arena_bytes = r.plan->arena_bytes;
          counters->copy_arena_bytes = r.copy_plan->arena_bytes;
        }
      } else if (r.schedule && r.torch_delta.empty()) {
        // Planned once for the schedule: torch's deltas are this execution's.
        r.torch_delta = torch_alias_deltas(r);
      }
      return;
    case Stage::RewriteRun: {
      produce(r, Stage::Plan, mode, counters);
      const size_t m = ExecutionRecord::mode_index(mode);
      if (r.ran[m]) return;
      r.ran[m] = true;
      // The shadow's sizes differ from the case's, whose plan was valid: its
      // rewrite path runs only on a valid plan of its own.
      if (r.shadow && !check_plan(c, info, *r.rewrite, *r.plan, {}, backend.arena_alignment).empty()) return;
      if (r.inputs.empty()) r.inputs = make_input_values(info);
      RunningPath running(rewrite_path(r, mode));
      if (r.schedule && r.schedule->methods[m])
        r.runs[m] = r.schedule->methods[m]->execute_twice(c, info, r.inputs, r.schedule->symbols);
      else
        r.runs[m] = make_rewrite_method(backend, MethodSpec{info, *r.rewrite, *r.plan, backend.kernels, mode})
                        ->execute_twice(c, info, r.inputs);
      return;
    }
    case Stage::WorkerRun:
      if (!r.worker) {
        // The protocol carries one input (README "Out-of-process backends"); a
        // single input of its own dtype travels as the case's default dtype.
        Case sent = c;
        sent.dtype = c.input_dtype(0);
        sent.inputs[0].dtype.reset();
        r.worker_text = print_case(sent);
        if (r.inputs.empty()) r.inputs = make_input_values(info);
        RunningPath running(FindingPath::Worker);
        r.worker = ask_worker(backend.worker_command, "run", r.worker_text, r.inputs[0], worker_timeout_seconds());
      }
      return;
  }
}

// Runs `checks` over the record in order, stopping at the first that fails or
// decides the case; each finding is stamped with the check that made it.
// Returns the failing check, or nullptr.
const Check* run_checks(ExecutionRecord& r, const std::vector<Check>& checks, bool shadow,
                        CaseReport& report, CaseReport* counters) {
  for (const Check& check : checks) {
    produce(r, check.needs, check.mode, counters);
    const size_t before = report.findings.size();
    check.run(r, check.mode, report);
    for (size_t i = before; i < report.findings.size(); ++i)
      report.findings[i].check = CheckId{check.id, shadow};
    if (report.failed() || !report.unsupported.empty()) return &check;
  }
  return nullptr;
}

// A wrong value of a whole-program backend: ask the worker which change of its
// pass is to blame (only now, so a passing case costs nothing). No answer, or
// `cause none`, leaves the signature to the judge's own probes
// (harness/triage/signature.cpp).
void ask_worker_to_diagnose(const ExecutionRecord& r, Finding& f) {
  const WorkerAnswer d =
      ask_worker(r.backend.worker_command, "diagnose", r.worker_text, r.inputs[0], worker_timeout_seconds());
  if (d.status == WorkerAnswer::Status::Ok && !d.cause.empty()) {
    f.cause = d.cause;
    f.message += " [the worker blames: " + d.cause + "]";
  }
}

// The int64 provenance shadow of the case, for dtypes whose fill repeats values:
// each input element holds its own index, so a misplaced element is caught even
// in bool or int8. It runs where it fails where the case fails (a copy_ between
// dtypes fails in the case, not in the all-int64 shadow).
void run_provenance_shadow(const ExecutionRecord& r, const RunOptions& options, CaseReport& report) {
  Case shadow = r.c;
  shadow.dtype = ScalarType::Long;
  for (InputDecl& in : shadow.inputs) in.dtype.reset();
  ProgramInfo si;
  AnalysisError err;
  // The shadow holds 8-byte elements; give it the budget that implies.
  if (!analyze(shadow, options.byte_budget * 8, si, err) || si.failing_op != r.info.failing_op) return;
  // Which values have dynamic shapes is the program's, not the dtype's: the
  // analysis of one execution does not know it (analyze_dynamic set it).
  for (size_t v = 0; v < si.values.size() && v < r.info.values.size(); ++v)
    si.values[v].dynamic_shape = r.info.values[v].dynamic_shape;
  ExecutionRecord s(shadow, si, r.backend);
  s.shadow = true;
  // An execution of a case with symbols: the pass decides as it did for the
  // schedule (a pass told nothing would see a static program, and decide
  // otherwise, e.g. PR 21552's rule, which keeps dynamic bases copies).
  if (r.schedule) s.pass_context = r.schedule->pass_context;
  s.note = r.c.inputs.size() > 1
               ? " in the int64 provenance shadow, where each input element holds its own "
                 "row-major index plus its input's fill start (plus any add_): the element "
                 "came from the wrong place"
               : " in the int64 provenance shadow, where each input element holds its own "
                 "row-major index (plus any add_): the element came from the wrong place";
  const AliasMode mode = r.backend.alias_mode != AliasMode::Planned ? AliasMode::RuntimeOp : AliasMode::Planned;
  run_checks(s, shadow_checks(mode), /*shadow=*/true, report, nullptr);
}

CaseReport run_all_paths(const Case& c, const ProgramInfo& info, const Backend& backend,
                         const RunOptions& options) {
  CaseReport report;
  for (const Op& op : c.ops) report.slices += op_is_view_copy(op.kind);
  ExecutionRecord r(c, info, backend);
  r.bounds = options.value_bounds;
  if (const ScheduleState* s = options.schedule) {
    r.schedule = s;
    r.torch = *s->torch;
    r.rewrite = *s->rewrite;
    r.plan = *s->plan;
    r.copy_plan = *s->copy_plan;
  }
  const std::vector<Check> checks = case_checks(backend);
  const Check* failed = run_checks(r, checks, /*shadow=*/false, report, &report);
  if (failed) {
    if (failed->id == RunnerCheck::WorkerValues && !report.findings.empty() &&
        report.findings.back().kind == FindingKind::VALUE_MISMATCH)
      ask_worker_to_diagnose(r, report.findings.back());
    // The worker answered, on protocol, that the program it ran raised outside
    // any op of the case: for a pass worker, the rewritten graph raised where
    // the case runs (eager PyTorch ran it first), so its pass may be to blame.
    const bool raised = r.worker && r.worker->status == WorkerAnswer::Status::Ok &&
                        r.worker->path.error_op < 0 && !r.worker->path.error_message.empty();
    if (failed->id == RunnerCheck::WorkerAnswer && raised && !report.findings.empty() &&
        report.findings.back().kind == FindingKind::CRASH)
      ask_worker_to_diagnose(r, report.findings.back());
    return report;
  }
  if (!backend.out_of_process() && options.provenance_shadow && !inputs_fill_distinct(info, r.inputs))
    run_provenance_shadow(r, options, report);
  return report;
}

}  // namespace

CaseReport run_case(const Case& c, const ProgramInfo& info, const Backend& backend,
                    const RunOptions& options, const DynamicInfo* analysed) {
  // Before anything runs (a dynamic case's input checks may run the backend's
  // runtime code first).
  if (options.note_path_at_death) note_path_at_death_once();
  if (c.is_dynamic()) return run_executions(c, backend, options, analysed);
  CaseReport report = run_all_paths(c, info, backend, options);
  Finding* first = nullptr;
  for (Finding& f : report.findings)
    if (!f.tolerated && !first) first = &f;
  if (first && first->sut_refused && backend.outside_limits) {
    report.unsupported = backend.outside_limits(c, info);
    // One execution of a case with symbols: its program was planned (and, for a
    // backend that writes one program for every execution, written) at the
    // bounds, so a limit the bounds pass is the program's limit even where this
    // execution's sizes are inside (a value only a later execution computes).
    if (report.unsupported.empty() && options.schedule && options.schedule->bound_info)
      if (std::string why = backend.outside_limits(c, *options.schedule->bound_info); !why.empty())
        report.unsupported = "at the bounds: " + why;
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
