#include "program/memory_planner.h"

#include <algorithm>

#include "kernels/kernel_runtime_context.h"
#include "program/op_layout_facts.h"

namespace slicefuzz {

namespace {

int64_t align_up(int64_t v) { return (v + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

bool lifetimes_overlap(const TensorPlacement& a, const TensorPlacement& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

bool bytes_overlap(const TensorPlacement& a, const TensorPlacement& b) {
  return a.nbytes > 0 && b.nbytes > 0 && a.offset < b.offset + b.nbytes &&
         b.offset < a.offset + a.nbytes;
}

// Values that exist in this run: defined before the failing op (if any).
int values_that_run(const ProgramInfo& info) {
  int n = 0;
  for (const ValueInfo& v : info.values) n += v.known;
  return n;
}

}  // namespace

MemoryPlan plan_memory(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite) {
  return plan_memory_with(c, info, rewrite, true);
}

MemoryPlan plan_memory_with(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                            bool extend_roots_to_alias_reads) {
  PlannerRules rules;
  rules.extend_roots_to_alias_reads = extend_roots_to_alias_reads;
  return plan_memory_with_rules(c, info, rewrite, rules);
}

MemoryPlan plan_memory_with_rules(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                                  const PlannerRules& rules) {
  const bool extend_roots_to_alias_reads = rules.extend_roots_to_alias_reads;
  MemoryPlan plan;
  const int ops_run = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  plan.end_step = ops_run + 1;
  const int nv = values_that_run(info);
  const std::vector<int> last_use = last_direct_use(c, info);
  plan.tensors.resize(nv);
  for (int v = 0; v < nv; ++v) {
    TensorPlacement& t = plan.tensors[v];
    t.value = v;
    t.root = rewrite.root[v];
    t.nbytes = static_cast<int64_t>(value_meta(info.values[v]).nbytes());
    t.first_step = info.values[v].def_op + 1;
    t.own_last_step = std::max(t.first_step, last_use[v] + 1);
    t.last_step = t.own_last_step;
    t.constant = rules.constants_outside_arena && info.values[t.root].constant;
  }
  for (int v : info.outputs)
    if (v < nv) plan.tensors[v].own_last_step = plan.tensors[v].last_step = plan.end_step;
  // A root lives as long as its longest-lived alias.
  for (int v = 0; v < nv && extend_roots_to_alias_reads; ++v) {
    TensorPlacement& root = plan.tensors[plan.tensors[v].root];
    root.last_step = std::max(root.last_step, plan.tensors[v].last_step);
  }

  // Three buffers for the whole plan, sized once (the planner runs two or three
  // times per case: every allocation here is one per tensor per case).
  std::vector<int> order, placed;
  std::vector<int64_t> candidates;
  order.reserve(nv);
  placed.reserve(nv);
  candidates.reserve(nv + 1);
  for (int v = 0; v < nv; ++v)
    if (!rewrite.is_alias(v) && !plan.tensors[v].constant) order.push_back(v);
  // Largest first; ties keep value order (a stable insertion sort: no heap
  // buffer, unlike std::stable_sort).
  for (size_t i = 1; i < order.size(); ++i) {
    const int v = order[i];
    size_t j = i;
    for (; j > 0 && plan.tensors[order[j - 1]].nbytes < plan.tensors[v].nbytes; --j)
      order[j] = order[j - 1];
    order[j] = v;
  }
  for (int v : order) {
    TensorPlacement& t = plan.tensors[v];
    // Candidate offsets: 0 and the aligned end of every placed, co-live tensor.
    candidates.assign(1, 0);
    for (int p : placed)
      if (lifetimes_overlap(t, plan.tensors[p]))
        candidates.push_back(align_up(plan.tensors[p].offset + plan.tensors[p].nbytes));
    std::sort(candidates.begin(), candidates.end());
    for (int64_t off : candidates) {
      t.offset = off;
      bool fits = std::none_of(placed.begin(), placed.end(), [&](int p) {
        return lifetimes_overlap(t, plan.tensors[p]) && bytes_overlap(t, plan.tensors[p]);
      });
      if (fits) break;
    }
    placed.push_back(v);
    plan.arena_bytes = std::max(plan.arena_bytes, align_up(t.offset + t.nbytes));
  }
  for (int v = 0; v < nv; ++v)
    if (rewrite.is_alias(v))
      // Wrapping: a pass may hand over any delta (the plan check judges it); the
      // planner itself must not overflow on it.
      plan.tensors[v].offset = static_cast<int64_t>(
          static_cast<uint64_t>(plan.tensors[plan.tensors[v].root].offset) +
          static_cast<uint64_t>(rewrite.delta_bytes[v]));
  return plan;
}

}  // namespace slicefuzz
