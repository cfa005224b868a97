// Deliberately faulty backends for dynamic shapes (issue 23): each one real bug
// class that only shows below the upper bound, where a tensor planned at its bound
// must be resized to the actual result. Registered from add_faulty_backends.
#include "backends/faulty.h"
#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"

#include <cstdint>
#include <string>
#include <vector>

namespace slicefuzz {

namespace {

// Bug class (pytorch/executorch PR 22411: "the upper bound is precisely the shape
// at which a whole class of backend bug is invisible"): the kernel writes the
// result but never resizes its out, which keeps the sizes it was planned with
// wherever they hold the result's bytes. Right at the bound, and on every static
// tensor (planned at exactly its size); wrong below the bound.
Tensor& slice_copy_out_not_resized(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                                   std::optional<int64_t> start, std::optional<int64_t> end,
                                   int64_t step, Tensor& out) {
  Tensor result = out;  // the same bytes, resized as the kernel should
  slice_copy_Tensor_out(ctx, in, dim, start, end, step, result);
  if (!ctx.ok()) return out;
  if (out.dynamism == ShapeDynamism::DYNAMIC_BOUND && result.nbytes() <= out.nbytes()) return out;  // the bug
  out = result;
  return out;
}

// Bug class (pytorch/executorch PR 22409): squeeze_copy of a dynamic outermost
// dim never resized its out, so half the output stayed at the bound's sizes (the
// extra elements unwritten: silently zero on device).
Tensor& squeeze_copy_out_not_resized(KernelRuntimeContext& ctx, const Tensor& in,
                                     const int64_t* dims, size_t ndims, Tensor& out) {
  Tensor result = out;
  squeeze_copy_dims_out(ctx, in, dims, ndims, result);
  if (!ctx.ok()) return out;
  if (out.dynamism == ShapeDynamism::DYNAMIC_BOUND && result.nbytes() <= out.nbytes()) return out;  // the bug
  out = result;
  return out;
}

// Bug class (pytorch/executorch issue 20546): Method::set_input checks a dynamic
// input's element count against the bound's, not each dim, although program.fbs
// states the per-dim rule; [2, 8] passes as a [4, 4] input, and every kernel then
// reads strides of a shape the plan never held.
std::string check_input_numel_only(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound) {
  if (actual.size() != bound.size()) return "rank differs";
  int64_t n = 1, cap = 1;
  for (size_t d = 0; d < actual.size(); ++d) {
    if (actual[d] < 0) return "negative size";
    n *= actual[d];
    cap *= bound[d];
  }
  return n <= cap ? "" : "more elements than the bound";
}

// Bug class (issue 23: "et_view keeping the bound's sizes"): et_view repoints
// out at in's bytes but leaves out's sizes as the plan made them, at the bound
// (memory.view's size list baked at export instead of the SymInts evaluated at
// run time). Right at the bound and on every static tensor; below it the alias
// reads past its input's elements.
void et_view_keeping_bound_sizes(KernelRuntimeContext& ctx, EValue** stack) {
  const bool ok = stack != nullptr && stack[2] != nullptr && stack[2]->is_tensor();
  const Tensor before = ok ? *stack[2]->tensor : Tensor{};
  et_view(ctx, stack);
  if (!ctx.ok() || !ok || before.dynamism != ShapeDynamism::DYNAMIC_BOUND) return;
  Tensor& out = *stack[2]->tensor;
  void* const data = out.data;
  out = before;  // the bug
  out.data = data;
  out.capacity_nbytes = out.nbytes();
}

// Bug class (issue 23: "strides from bound sizes instead of actual sizes"): et_slice
// computes the alias offset from the strides of the layout out was planned with
// (the bound's, then the previous execution's) instead of in's actual strides. A
// dim-0 slice's byte offset is start * stride[0], the product of the inner actual
// sizes: right while the inner dims are at their bound, wrong below it.
void et_slice_offset_from_planned_strides(KernelRuntimeContext& ctx, EValue** stack) {
  const bool ok = stack != nullptr && stack[5] != nullptr && stack[5]->is_tensor() &&
                  stack[0] != nullptr && stack[0]->is_tensor() && stack[1] != nullptr &&
                  stack[1]->is_int() && stack[2] != nullptr && stack[3] != nullptr &&
                  stack[4] != nullptr && stack[4]->is_int();
  const Tensor before = ok ? *stack[5]->tensor : Tensor{};
  et_slice(ctx, stack);
  if (!ctx.ok() || !ok || before.dynamism != ShapeDynamism::DYNAMIC_BOUND) return;
  const Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  const std::optional<int> d = normalize_dim(stack[1]->int_value, in.rank);
  if (!d || *d >= before.rank || out.numel() == 0) return;
  std::optional<int64_t> start, end;
  if (stack[2]->is_int()) start = stack[2]->int_value;
  if (stack[3]->is_int()) end = stack[3]->int_value;
  const SliceRange r = normalize_slice(in.sizes[*d], start, end, stack[4]->int_value);
  const int64_t offset = r.start * before.strides[*d];  // the bug: in.strides[*d]
  const size_t bytes = static_cast<size_t>(offset) * in.element_size();
  if (offset < 0 || bytes + out.nbytes() > in.capacity_nbytes) return;  // (stays inside in's bytes)
  out.data = in.bytes() + bytes;
}

// Bug class (issue 23: "an alias of a constant placed in the arena"): the planner
// plans a constant like an input, and so gives an alias of it an arena offset
// (root slot + delta, an allocation_info); the constant's bytes are the
// program's and never in the arena, so the planned alias reads arena memory.
MemoryPlan planner_constants_in_arena(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite) {
  PlannerRules rules;
  rules.constants_outside_arena = false;  // the bug
  return plan_memory_with_rules(c, info, rewrite, rules);
}

}  // namespace

void add_faulty_dynamic_backends(std::vector<Backend>& out) {
  Backend b = faulty("faulty-out-not-resized",
                     "slice_copy and squeeze_copy never resize an out planned at its upper bound "
                     "(pytorch/executorch PRs 22411, 22409): right at the bound, wrong below it");
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_out_not_resized>;
  b.kernels.boxed_of(OpKind::SqueezeCopy) = &boxed_int_list_arg<&squeeze_copy_out_not_resized>;
  out.push_back(b);
  b = faulty("faulty-input-numel-only",
             "set_input checks a dynamic input's element count against its bound's, not each dim "
             "(pytorch/executorch issue 20546)");
  b.input_check = &check_input_numel_only;
  out.push_back(b);
  b = faulty("faulty-planned-offset-at-bound",
             "a plan that places aliases keeps the offset one execution computed for every "
             "execution (an alias at a runtime start, or below a dynamic inner dim, placed at a "
             "planned offset)");
  b.alias_mode = AliasMode::Planned;
  b.dynamic_pass = [](const std::vector<const ProgramInfo*>& infos, const std::vector<RewritePlan>& plans,
                      bool planned) {
    DynamicPassRules rules;
    rules.planned_offset_must_stay = false;
    return rewrite_for_every_execution_with(infos, plans, planned, rules);
  };
  out.push_back(b);
  b = faulty("faulty-decides-on-schedule",
             "the pass decides a dynamic program's aliases from the sizes it is run at here (the "
             "schedule), not every size its symbols' ranges allow: sound at each execution, unsound "
             "at a size no execution runs (a pass that specialises on the sizes it saw)");
  b.alias_mode = AliasMode::Planned;
  b.decides_on_schedule_only = true;
  out.push_back(b);
  b = faulty("faulty-view-bound-sizes",
             "et_view repoints out but keeps the sizes it was planned with, at the bound "
             "(memory.view's sizes baked at export)");
  b.kernels.et_view_op = &et_view_keeping_bound_sizes;
  out.push_back(b);
  b = faulty("faulty-slice-bound-strides",
             "et_slice computes its alias offset from the strides out was planned with (the "
             "bound's) instead of its input's actual strides");
  b.kernels.et_slice_op = &et_slice_offset_from_planned_strides;
  out.push_back(b);
  b = faulty("faulty-constant-in-arena",
             "the planner plans a constant like an input, so a planned alias of it (a RoPE table's "
             "slice) gets an arena offset where the constant's bytes never are");
  b.alias_mode = AliasMode::Planned;
  b.planner = &planner_constants_in_arena;
  out.push_back(b);
}

}  // namespace slicefuzz
