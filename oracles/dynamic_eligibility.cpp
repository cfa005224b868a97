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

}  // namespace slicefuzz
