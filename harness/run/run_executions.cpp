// Version 4: a case with symbols as its executions, each judged by every check,
// over one rewrite decided and planned for them all (runner.h, run_executions).
#include <algorithm>
#include <array>
#include <memory>

#include "harness/run/execution_record.h"
#include "harness/run/runner.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/dynamic_eligibility.h"
#include "program/arena_executor.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

// ERROR_MISMATCH when the backend's input check accepts an input past its bound
// (or refuses one within it); a finding with an empty message when it answers
// as the judge expects.
Finding input_check_finding(const Case& c, const ExecutionInfo& e, const Backend& backend) {
  Finding f;
  f.kind = FindingKind::ERROR_MISMATCH;
  f.path = FindingPath::Inputs;
  f.check = CheckId{RunnerCheck::InputCheck};
  std::string refused, past;
  for (const InputDecl& in : c.inputs) {
    if (!in.is_dynamic()) continue;
    const std::vector<int64_t> actual = input_sizes_at(in, e.values);
    const std::string why = backend.input_check(actual, in.sizes);
    if (!why.empty() && refused.empty()) refused = "input '" + in.name + "': " + why;
    for (size_t d = 0; d < actual.size() && past.empty(); ++d)
      if (actual[d] < 0 || actual[d] > in.sizes[d])
        past = "input '" + in.name + "' has size " + std::to_string(actual[d]) + " in dim " +
               std::to_string(d) + ", past its bound " + std::to_string(in.sizes[d]);
  }
  if (!e.in_range && refused.empty()) {
    f.rule = InputRule::DimPastBound;
    f.message = past + " (program.fbs: each dim at runtime at most its upper bound's), but the "
                "backend's input check accepted it";
    f.sut_accepted = true;
  } else if (e.in_range && !refused.empty()) {
    f.message = "the backend refused an input within its bounds: " + refused;
    f.sut_refused = true;
  }
  return f;
}

// What is decided once for every execution (ScheduledRewrite), with torch at
// each execution and the judge's eligibility over them, and one method per
// alias mode. Lives (unmoved: the methods hold references into it) for the
// whole case.
struct Schedule : ScheduledRewrite {
  std::vector<TorchOracleResult> torch;  // per execution that runs, in order
  std::vector<ScheduledVerdict> verdicts;
  std::array<std::unique_ptr<MethodUnderTest>, 2> methods;
};

// The analysis the plan is made from: the execution that runs the most ops
// (values past a failing op have no layout), every value at its bound.
ProgramInfo info_at_bounds(const std::vector<const ExecutionInfo*>& running,
                           const std::vector<std::vector<int64_t>>& bounds) {
  const ExecutionInfo* most = running.front();
  auto ops_run = [](const ExecutionInfo* e) {
    return e->info.failing_op < 0 ? static_cast<int>(e->info.ops.size()) : e->info.failing_op;
  };
  for (const ExecutionInfo* e : running)
    if (ops_run(e) > ops_run(most)) most = e;
  ProgramInfo info = most->info;
  for (size_t v = 0; v < info.values.size() && v < bounds.size(); ++v)
    if (info.values[v].known && bounds[v].size() == info.values[v].sizes.size()) info.values[v].sizes = bounds[v];
  return info;
}

std::unique_ptr<Schedule> plan_schedule(const Case& symbolic, const std::vector<const ExecutionInfo*>& running,
                                        const DynamicInfo& dynamic, const Backend& backend) {
  auto s = std::make_unique<Schedule>();
  static_cast<ScheduledRewrite&>(*s) = decide_rewrite_for_executions(symbolic, running, dynamic, backend);
  const bool planned = backend.alias_mode != AliasMode::RuntimeOp;
  std::vector<const TorchOracleResult*> torch;
  s->torch.reserve(running.size());
  for (const ExecutionInfo* e : running) s->torch.push_back(run_torch_oracle(e->c, e->info));
  for (const TorchOracleResult& t : s->torch) torch.push_back(&t);
  std::vector<int> aliased_ops;
  for (const RewriteDecision& d : s->rewrite.decisions)
    if (d.alias) aliased_ops.push_back(d.op);
  s->verdicts = judge_eligibility_over_executions(symbolic, running, torch, aliased_ops, planned);
  judge_eligibility_off_schedule(symbolic, running, torch, dynamic.every, aliased_ops, planned, s->verdicts);
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned})
    if (backend.alias_mode == AliasMode::Both || backend.alias_mode == mode)
      s->methods[ExecutionRecord::mode_index(mode)] = make_rewrite_method(
          backend, MethodSpec{s->bound_info, s->rewrite, s->plan, backend.kernels, mode, &dynamic.bound_sizes, &symbolic});
  return s;
}

}  // namespace

ScheduledRewrite decide_rewrite_for_executions(const Case& symbolic,
                                               const std::vector<const ExecutionInfo*>& running,
                                               const DynamicInfo& dynamic, const Backend& backend) {
  ScheduledRewrite s;
  // The sizes the pass decides at: the scheduled executions first (in the
  // case's order, so the first is still the one a pass that keeps one
  // execution's facts keeps), then every other assignment the ranges allow
  // (when the analysis kept them).
  std::vector<const ExecutionInfo*> deciding = running;
  if (!backend.decides_on_schedule_only)
    for (const ExecutionInfo& e : dynamic.every)
      if (std::none_of(running.begin(), running.end(), [&](const ExecutionInfo* r) { return r->values == e.values; }))
        deciding.push_back(&e);
  std::vector<const ProgramInfo*> infos;
  for (const ExecutionInfo* e : deciding) infos.push_back(&e->info);
  const bool planned = backend.alias_mode != AliasMode::RuntimeOp;
  // The pass at each execution's sizes, told which ops stay copies at another's
  // (a hazard through an alias that is a copy after all is no hazard), until the
  // copies settle: one more per round, so at most one round per op.
  std::vector<bool> keep(running.front()->info.ops.size(), false);
  std::vector<RewriteDecision> why(keep.size());  // the decision that first kept each a copy
  for (size_t round = 0; round <= keep.size(); ++round) {
    PassContext ctx;
    ctx.keep_copies = &keep;
    ctx.with_symbols = &symbolic;
    std::vector<RewritePlan> plans;
    for (const ExecutionInfo* e : deciding) plans.push_back(backend.pass(e->c, e->info, ctx));
    s.rewrite = backend.dynamic_pass(infos, plans, planned);
    // The earliest such op only: a later one may be a copy at some size only
    // because of this one's alias there (decisions depend on earlier ones).
    bool more = false;
    for (const RewriteDecision& d : s.rewrite.decisions) {
      if (d.alias || d.op < 0 || static_cast<size_t>(d.op) >= keep.size() || keep[d.op]) continue;
      for (const RewritePlan& p : plans)
        if (const RewriteDecision* at = p.decision_for_op(d.op); at && at->alias) more = true;
      if (more) {
        keep[d.op] = true;
        why[d.op] = d;
        break;
      }
    }
    if (!more) break;
  }
  s.kept_copies = keep;
  // Each copy says why it first became one (not "kept a copy at another size").
  for (RewriteDecision& d : s.rewrite.decisions)
    if (!d.alias && d.op >= 0 && static_cast<size_t>(d.op) < keep.size() && keep[d.op])
      d.rule = why[d.op].rule, d.reason = why[d.op].reason, d.at_size = why[d.op].at_size;
  // The sizes a decision names, for people: the pass counts its sizes by index.
  for (RewriteDecision& d : s.rewrite.decisions)
    if (d.at_size >= 0 && static_cast<size_t>(d.at_size) < deciding.size()) {
      const ExecutionInfo& at = *deciding[static_cast<size_t>(d.at_size)];
      d.reason = "at " + describe_execution(symbolic, at.values) +
                 (at.run_line == SIZE_MAX ? "" : " (execution " + std::to_string(at.run_line + 1) + ")") + ": " +
                 d.reason;
    }
  s.bound_info = info_at_bounds(running, dynamic.bound_sizes);
  const Case& c = running.front()->c;
  s.plan = backend.planner(c, s.bound_info, s.rewrite);
  s.copy_plan = backend.planner(c, s.bound_info, copy_only_plan(c, s.bound_info));
  return s;
}

CaseReport run_executions(const Case& c, const Backend& backend, const RunOptions& options,
                          const DynamicInfo* analysed) {
  CaseReport report;
  DynamicInfo own;
  // An analysis that kept every assignment, as parse_case's Every does, and is
  // this case's: the same executions (a caller's mix-up analyses afresh, never
  // judges the case by another's sizes).
  bool reuse = analysed && analysed->assignments > 0 &&
               analysed->every.size() == static_cast<size_t>(analysed->assignments) &&
               analysed->runs.size() == c.runs.size();
  for (size_t k = 0; reuse && k < c.runs.size(); ++k) reuse = analysed->runs[k].values == c.runs[k].values;
  if (!reuse) {
    ProgramInfo first;
    DynamicError err;
    if (!analyze_dynamic(c, options.byte_budget, own, first, err, /*keep_every=*/true)) {
      Finding f;
      f.kind = FindingKind::PARSE_ERROR;
      f.path = FindingPath::Parser;
      f.message = err.message;
      report.findings.push_back(std::move(f));
      return report;
    }
  }
  const DynamicInfo& dynamic = reuse ? *analysed : own;
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
  // The rewrite, decided and planned once (an in-process backend that runs the
  // case's ops; one that cannot says so at its first execution).
  std::vector<const ExecutionInfo*> running;
  for (const ExecutionInfo& e : dynamic.runs)
    if (e.in_range) running.push_back(&e);
  std::unique_ptr<Schedule> schedule;
  if (!backend.out_of_process() && !running.empty() && (!c.has_eager_ops() || backend.eager_ops)) {
    schedule = plan_schedule(c, running, dynamic, backend);
    for (const Op& op : c.ops) report.slices += op_is_view_copy(op.kind);
    for (const RewriteDecision& d : schedule->rewrite.decisions) {
      report.rewritten += d.alias;
      report.rules.push_back(d.rule);
      report.decided.push_back({op_kind_name(c.ops[d.op].kind), d.alias});
    }
    report.arena_bytes = schedule->plan.arena_bytes;
    report.copy_arena_bytes = schedule->copy_plan.arena_bytes;
  }
  std::vector<size_t> run_of_running;  // each running execution's index in the case's runs
  for (size_t k = 0; k < dynamic.runs.size(); ++k)
    if (dynamic.runs[k].in_range) run_of_running.push_back(k);
  size_t running_index = 0;
  for (size_t k = 0; k < dynamic.runs.size(); ++k) {
    const ExecutionInfo& e = dynamic.runs[k];
    // Setting the inputs: the judge says refuse exactly when a value lies outside
    // its range (program.fbs's per-dim rule); the backend's input check answers.
    if (!backend.out_of_process()) {
      Finding f;
      {
        RunningPath running(FindingPath::Inputs);  // a backend's input check may be its runtime's code
        f = input_check_finding(c, e, backend);
      }
      // A refusal for a declared limit (sizes past what the backend represents)
      // is UNSUPPORTED, as a refusing op is.
      if (f.sut_refused && backend.outside_limits)
        if (std::string why = backend.outside_limits(e.c, e.info); !why.empty()) {
          report.unsupported = "execution " + std::to_string(k + 1) + ": " + why;
          ++report.executions;
          return report;
        }
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
    ScheduleState state;
    if (schedule) {
      state.bound_info = &schedule->bound_info;
      state.rewrite = &schedule->rewrite;
      state.plan = &schedule->plan;
      state.copy_plan = &schedule->copy_plan;
      state.verdicts = &schedule->verdicts;
      state.torch = &schedule->torch[running_index];
      for (size_t m = 0; m < 2; ++m) state.methods[m] = schedule->methods[m].get();
      state.symbols = &e.values;
      state.pass_context.keep_copies = &schedule->kept_copies;
      state.pass_context.with_symbols = &c;
      at_bounds.schedule = &state;
    }
    ++running_index;
    CaseReport one = run_case(e.c, e.info, backend, at_bounds);
    ++report.executions;
    if (!schedule) {
      report.slices += one.slices;
      report.arena_bytes = std::max(report.arena_bytes, one.arena_bytes);
      report.copy_arena_bytes = std::max(report.copy_arena_bytes, one.copy_arena_bytes);
    }
    for (Finding& f : one.findings) {
      // A verdict over the schedule names the running execution where its rule
      // breaks (checks.cpp, rewrite_decisions); every other finding is this one's.
      const size_t at = schedule && f.execution >= 0 && static_cast<size_t>(f.execution) < run_of_running.size()
                            ? run_of_running[f.execution]
                            : k;
      f.execution = static_cast<int>(at);
      f.message = "execution " + std::to_string(at + 1) + " (" + describe_execution(c, dynamic.runs[at].values) +
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
