#include "oracles/dynamic_eligibility.h"

#include <algorithm>
#include <map>

#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

bool empty_view(const TorchOpView& v) {
  return std::any_of(v.sizes.begin(), v.sizes.end(), [](int64_t s) { return s == 0; });
}

// Per value: the byte where torch's view of it starts in its root at one
// execution, the roots being what the given aliases make them (an alias of an
// alias counts from the first value that owns bytes).
std::vector<int64_t> offsets_in_roots(const ExecutionInfo& e, const TorchOracleResult& torch,
                                      const std::vector<int>& aliased_ops) {
  const ProgramInfo& info = e.info;
  std::vector<int64_t> at(info.values.size(), 0);
  std::vector<bool> alias(info.values.size(), false);
  for (int k : aliased_ops)
    if (k >= 0 && k < static_cast<int>(info.ops.size()) && info.ops[k].result >= 0)
      alias[info.ops[k].result] = true;
  for (const TorchOpView& view : torch.op_views) {
    const OpInfo& oi = info.ops[view.op];
    if (oi.result < 0 || oi.src < 0) continue;
    const int64_t es = static_cast<int64_t>(element_size(info.values[oi.result].dtype));
    // Wrapping, as torch_alias_deltas: an empty view's offset may pass int64 and
    // is never compared.
    at[oi.result] = static_cast<int64_t>(static_cast<uint64_t>(alias[oi.src] ? at[oi.src] : 0) +
                                         static_cast<uint64_t>(view.storage_offset) *
                                             static_cast<uint64_t>(es));
  }
  return at;
}

std::string at_execution(const Case& symbolic, const std::vector<const ExecutionInfo*>& runs, size_t i) {
  // Numbered as the case's `run` lines are (an execution refused at its inputs
  // is not among `runs` but keeps its number).
  return "at execution " + std::to_string(runs[i]->run_line + 1) + " (" +
         describe_execution(symbolic, runs[i]->values) + ")";
}

ScheduledVerdict* verdict_of(std::vector<ScheduledVerdict>& verdicts, int op) {
  for (ScheduledVerdict& s : verdicts)
    if (s.verdict.op == op) return &s;
  return nullptr;
}

bool any_eligible(const std::vector<ScheduledVerdict>& verdicts) {
  return std::any_of(verdicts.begin(), verdicts.end(), [](const ScheduledVerdict& s) { return s.verdict.eligible; });
}

}  // namespace

std::vector<ScheduledVerdict> judge_eligibility_over_executions(
    const Case& symbolic, const std::vector<const ExecutionInfo*>& runs, const std::vector<const TorchOracleResult*>& torch,
    const std::vector<int>& aliased_ops, bool planned) {
  std::map<int, ScheduledVerdict> by_op;
  for (size_t i = 0; i < runs.size() && i < torch.size(); ++i) {
    for (EligibilityVerdict& v : judge_eligibility(runs[i]->c, runs[i]->info, torch[i]->op_views, aliased_ops)) {
      auto it = by_op.find(v.op);
      if (it == by_op.end()) {
        ScheduledVerdict s{v, v.eligible ? -1 : static_cast<int>(i)};
        if (!v.eligible && runs.size() > 1) s.verdict.reason = at_execution(symbolic, runs, i) + ": " + v.reason;
        by_op.emplace(v.op, std::move(s));
      } else if (it->second.verdict.eligible && !v.eligible) {
        it->second = {v, static_cast<int>(i)};
        it->second.verdict.reason = at_execution(symbolic, runs, i) + ": " + v.reason;
      }
    }
  }
  if (planned && runs.size() > 1) {
    // Each op's offset in its root at the first execution where its view is not
    // empty, against every later one.
    std::map<int, std::pair<size_t, int64_t>> first;  // op -> (execution, bytes)
    for (size_t i = 0; i < runs.size() && i < torch.size(); ++i) {
      const std::vector<int64_t> at = offsets_in_roots(*runs[i], *torch[i], aliased_ops);
      for (const TorchOpView& view : torch[i]->op_views) {
        auto it = by_op.find(view.op);
        if (it == by_op.end() || !it->second.verdict.eligible || empty_view(view)) continue;
        const int y = runs[i]->info.ops[view.op].result;
        auto f = first.find(view.op);
        if (f == first.end()) {
          first.emplace(view.op, std::make_pair(i, at[y]));
        } else if (f->second.second != at[y]) {
          EligibilityVerdict& v = it->second.verdict;
          v.eligible = false;
          v.broken = EligibilityRule::OffsetMoves;
          v.reason = "its view starts " + std::to_string(f->second.second) + " bytes into its root " +
                     at_execution(symbolic, runs, f->second.first) + " but " + std::to_string(at[y]) + " bytes " +
                     at_execution(symbolic, runs, i) + ": a planned alias has one offset";
          it->second.execution = static_cast<int>(i);
        }
      }
    }
  }
  // An op that must fail at some execution is judged by what it does there (the
  // error checks): an alias of it is sound only if it raises the same error, so
  // no eligibility verdict either way.
  for (const ExecutionInfo* e : runs)
    if (e->info.failing_op >= 0) by_op.erase(e->info.failing_op);
  std::vector<ScheduledVerdict> out;
  out.reserve(by_op.size());
  for (auto& [op, v] : by_op) out.push_back(std::move(v));
  return out;
}

int64_t judge_eligibility_off_schedule(const Case& symbolic, const std::vector<const ExecutionInfo*>& runs,
                                       const std::vector<const TorchOracleResult*>& torch,
                                       const std::vector<ExecutionInfo>& every, const std::vector<int>& aliased_ops,
                                       bool planned, std::vector<ScheduledVerdict>& verdicts) {
  if (every.empty() || !any_eligible(verdicts)) return 0;
  std::vector<bool> aliased(symbolic.ops.size(), false);
  for (int k : aliased_ops)
    if (k >= 0 && static_cast<size_t>(k) < aliased.size()) aliased[k] = true;
  // Planned: each op's offset in its root where the schedule first reads it.
  std::map<int, int64_t> offset;
  for (size_t i = 0; planned && i < runs.size() && i < torch.size(); ++i) {
    const std::vector<int64_t> at = offsets_in_roots(*runs[i], *torch[i], aliased_ops);
    for (const TorchOpView& view : torch[i]->op_views)
      if (!empty_view(view) && !offset.count(view.op)) offset.emplace(view.op, at[runs[i]->info.ops[view.op].result]);
  }
  int64_t judged = 0;
  for (const ExecutionInfo& e : every) {
    if (!any_eligible(verdicts)) break;
    const bool scheduled = std::any_of(runs.begin(), runs.end(), [&](const ExecutionInfo* r) { return r->values == e.values; });
    if (scheduled) continue;
    ++judged;
    const std::string where =
        "at " + describe_execution(symbolic, e.values) + " (within the ranges; no execution of the case runs it)";
    auto breaks = [&](ScheduledVerdict& s, EligibilityRule rule, const std::string& why) {
      s.verdict.eligible = false;
      s.verdict.broken = rule;
      s.verdict.reason = where + ": " + why;
      s.execution = -1;
      s.off_schedule = e.values;
    };
    if (const int f = e.info.failing_op; f >= 0)
      if (ScheduledVerdict* s = verdict_of(verdicts, f); s && s->verdict.eligible) {
        if (planned && static_cast<size_t>(f) < aliased.size() && aliased[f])
          breaks(*s, EligibilityRule::MustRaise,
                 "its arguments are invalid there, so it must raise its error, but a planned alias runs "
                 "nothing that could");
        else
          verdicts.erase(verdicts.begin() + (s - verdicts.data()));
      }
    const TorchOracleResult t = run_torch_views(e.c, e.info);  // no values needed here
    for (const EligibilityVerdict& v : judge_eligibility(e.c, e.info, t.op_views, aliased_ops)) {
      ScheduledVerdict* s = verdict_of(verdicts, v.op);
      if (!s || !s->verdict.eligible || v.eligible) continue;
      breaks(*s, v.broken, v.reason);
    }
    if (!planned) continue;
    const std::vector<int64_t> at = offsets_in_roots(e, t, aliased_ops);
    for (const TorchOpView& view : t.op_views) {
      ScheduledVerdict* s = verdict_of(verdicts, view.op);
      if (!s || !s->verdict.eligible || empty_view(view)) continue;
      const int64_t here = at[e.info.ops[view.op].result];
      auto o = offset.find(view.op);
      if (o == offset.end()) {
        offset.emplace(view.op, here);
      } else if (o->second != here) {
        breaks(*s, EligibilityRule::OffsetMoves,
               "its view starts " + std::to_string(here) + " bytes into its root there but " +
                   std::to_string(o->second) + " bytes where the schedule reads it: a planned alias has one offset");
      }
    }
  }
  return judged;
}

}  // namespace slicefuzz
