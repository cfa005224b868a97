#include "program/dynamic_pass.h"

#include <algorithm>

namespace slicefuzz {

namespace {

bool is_empty(const ValueInfo& v) {
  return std::any_of(v.sizes.begin(), v.sizes.end(), [](int64_t s) { return s == 0; });
}

}  // namespace

RewritePlan rewrite_for_every_execution(const std::vector<const ProgramInfo*>& infos,
                                        const std::vector<RewritePlan>& plans, bool planned) {
  return rewrite_for_every_execution_with(infos, plans, planned, DynamicPassRules{});
}

RewritePlan rewrite_for_every_execution_with(const std::vector<const ProgramInfo*>& infos,
                                             const std::vector<RewritePlan>& plans, bool planned,
                                             const DynamicPassRules& rules) {
  RewritePlan out;
  if (plans.empty() || infos.size() != plans.size()) return out;
  const ProgramInfo& table = *infos.front();
  const size_t nv = table.values.size();
  out.root.resize(nv);
  out.delta_bytes.assign(nv, 0);
  for (size_t v = 0; v < nv; ++v) out.root[v] = static_cast<int>(v);
  // Per execution, each value's byte offset in its combined root.
  std::vector<std::vector<int64_t>> delta(plans.size(), std::vector<int64_t>(nv, 0));

  // Ops in program order, so a link's root is combined before its users'.
  const int nops = static_cast<int>(table.ops.size());
  for (int k = 0; k < nops; ++k) {
    const RewriteDecision* first = nullptr;
    const RewriteDecision* copy = nullptr;
    size_t copy_at = 0;
    for (size_t i = 0; i < plans.size(); ++i) {
      const RewriteDecision* d = plans[i].decision_for_op(k);
      if (!d) continue;  // the op does not run at that execution's sizes
      if (!first) first = d;
      if (!d->alias && !copy) copy = d, copy_at = i;
    }
    if (!first) continue;
    RewriteDecision decided = copy ? *copy : *first;
    const int v = decided.value, src = table.ops[k].src;
    if (copy && plans.size() > 1) decided.at_size = static_cast<int>(copy_at);
    // An op whose arguments are invalid at some execution's sizes must raise
    // there: its copy kernel checks them all (a planned alias runs nothing).
    for (size_t i = 0; i < infos.size() && !copy; ++i)
      if (infos[i]->failing_op == k) {
        decided.alias = false;
        decided.rule = "fails-at-some-size";
        decided.at_size = static_cast<int>(i);
        decided.reason = "it must fail there (its arguments are invalid at those sizes): it stays a copy, "
                         "whose kernel raises the error";
        copy = &decided;
      }
    if (!copy && v >= 0 && static_cast<size_t>(v) < nv && src >= 0) {
      // The op's own offset in its source, at each execution, on the combined root.
      bool moves = false;
      int64_t seen = 0;
      bool have = false;
      for (size_t i = 0; i < plans.size(); ++i) {
        const RewritePlan& p = plans[i];
        if (static_cast<size_t>(v) >= p.root.size() || !p.is_alias(v)) continue;
        const int64_t src_in_own_root = p.is_alias(src) ? p.delta_bytes[src] : 0;
        const int64_t own = p.delta_bytes[v] - src_in_own_root;
        delta[i][v] = (out.is_alias(src) ? delta[i][src] : 0) + own;
        if (static_cast<size_t>(v) < infos[i]->values.size() && is_empty(infos[i]->values[v])) continue;
        if (have && delta[i][v] != seen) moves = true;
        if (!have) seen = delta[i][v], have = true;
      }
      // Where the plan places aliases and nothing runs to resize one (an
      // ExecuTorch program: the alias is a tensor with one allocation_info and
      // the sizes it was written with), an alias whose sizes vary stays a copy,
      // as PR 21552 keeps dynamic bases as copies (is_static_shape_tensor).
      // The program is written at the bounds, so what counts is the value's
      // shape over every allowed size (its spec's dynamism, exir's
      // is_static_shape_tensor), not only at the scheduled executions.
      bool sizes_vary = false;
      const std::vector<int64_t>* sizes = nullptr;
      for (size_t i = 0; i < infos.size() && rules.planned_sizes_must_stay; ++i) {
        if (static_cast<size_t>(v) >= infos[i]->values.size() || !infos[i]->values[v].known) continue;
        if (infos[i]->values[v].dynamic_shape || (sizes && infos[i]->values[v].sizes != *sizes)) sizes_vary = true;
        if (!sizes) sizes = &infos[i]->values[v].sizes;
      }
      if (planned && sizes_vary) {
        decided.alias = false;
        decided.rule = "sizes-vary";
        decided.reason = "its sizes differ between executions: a planned alias is written once, with "
                         "one set of sizes, and no op resizes it, so it stays a copy";
      } else if (planned && moves && rules.planned_offset_must_stay) {
        decided.alias = false;
        decided.rule = "offset-moves";
        decided.reason = "its byte offset in its root differs between executions (" +
                         std::to_string(seen) + " bytes at the first that reads it): a planned "
                         "alias has one offset, so it stays a copy";
      } else if (const int root = out.is_alias(src) ? out.root[src] : src;
                 planned && rules.planned_constant_alignment > 0 && have &&
                 static_cast<size_t>(root) < infos.front()->values.size() &&
                 infos.front()->values[root].constant && seen % rules.planned_constant_alignment != 0) {
        decided.alias = false;
        decided.rule = "constant-offset-unaligned";
        decided.reason = "it would lie " + std::to_string(seen) + " bytes into constant '" +
                         infos.front()->values[root].name + "': a planned alias of a constant is an entry of the "
                         "program's constant segment, whose offsets must be aligned to " +
                         std::to_string(rules.planned_constant_alignment) + " bytes, so it stays a copy";
      } else {
        out.root[v] = out.is_alias(src) ? out.root[src] : src;
        // The offset at the first execution where the alias reads anything (an
        // empty alias's offset means nothing): the one a plan that ignores the
        // rule keeps for every execution.
        out.delta_bytes[v] = have ? seen : 0;
      }
    }
    out.decisions.push_back(std::move(decided));
  }
  return out;
}

}  // namespace slicefuzz
