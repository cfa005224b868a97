// Deliberately faulty backends for the view-copy ops (issue 10): each one real
// bug class, a small diff against the reference (a PassRules switch, a swapped
// view fact or a kernel wrapper), so that the self-test can prove slicefuzz
// catches it. Registered from add_faulty_backends (faulty.cpp).
#include <optional>

#include "backends/faulty.h"
#include "kernels/boxing.h"
#include "kernels/dim_order.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/slice_util.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

namespace {

// --- pass rules and view facts --------------------------------------------------

// Bug class (pytorch/executorch PR 3602): "is y an output" answered by looking at
// the next node only (`node.next.op == "output"`); with several outputs, or an
// output that other ops read after it, the next node is something else.
RewritePlan pass_output_rule_next_node_only(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.output_rule_next_node_only = true;
  return rewrite_with_rules(c, i, rules, ctx);
}

// Bug class: view_copy's input taken as row-major whatever its dim order (a
// channels-last input "viewed" as if contiguous).
std::optional<ViewLayout> reshape_view_ignoring_dim_order(const ViewLayout& src, const int64_t* sizes,
                                                          int rank) {
  ViewLayout row_major = src;
  uint8_t identity[kMaxRank];
  identity_dim_order(src.rank, identity);
  dim_order_to_strides(src.sizes, identity, src.rank, row_major.strides);  // the bug
  return reshape_view(row_major, sizes, rank);
}
RewritePlan pass_view_ignoring_dim_order(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.reshape = &reshape_view_ignoring_dim_order;
  return rewrite_with_rules(c, i, rules, ctx);
}

// --- kernels ----------------------------------------------------------------------

// ExecuTorch's et_view has no density guard (it trusts the pass): out takes in's
// data pointer whatever the layouts.
void et_view_without_guard(KernelRuntimeContext& ctx, EValue** stack) {
  et_view(ctx, stack);
  if (ctx.ok() || ctx.message().find("logical order") == std::string::npos) return;
  ctx.reset();
  Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[2]->tensor;
  out.data = in.data;  // out already has the static sizes et_view was given
  out.capacity_nbytes = out.nbytes();
}

// Bug class: et_select's alias offset from the index as given: a negative index
// is not normalised (index + size), so the alias starts before the input.
void et_select_unnormalised_index(KernelRuntimeContext& ctx, EValue** stack) {
  et_select(ctx, stack);
  if (!ctx.ok()) return;
  Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[3]->tensor;
  const int64_t index = stack[2]->int_value;
  if (index >= 0 || out.numel() == 0) return;
  const int d = *normalize_dim(stack[1]->int_value, in.rank);
  out.data = in.bytes() + index * in.strides[d] * static_cast<int64_t>(in.element_size());  // the bug
}

// Bug class: squeeze_copy drops every listed dim, also one of size > 1 (aten keeps
// it), so the result it expects has too low a rank and it refuses the planner's out.
Tensor& squeeze_copy_dropping_any_listed_dim(KernelRuntimeContext& ctx, const Tensor& in,
                                             const int64_t* dims, size_t ndims, Tensor& out) {
  if (in.rank > 0 && squeeze_args_error(in, dims, ndims).empty()) {
    const int rank = in.rank - static_cast<int>(ndims);  // the bug: sizes not looked at
    SF_KERNEL_CHECK_MSG(ctx, out.rank == rank, InvalidArgument, out,
                        "squeeze_copy: out has rank %d, the result has rank %d", out.rank, rank);
  }
  return squeeze_copy_dims_out(ctx, in, dims, ndims, out);
}

// Bug class: unsqueeze_copy puts the new dim at position d of the dim order
// instead of just outside the dim it precedes (the two agree only for the
// identity order), and refuses an out laid out the right way.
Tensor& unsqueeze_copy_order_by_position(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                                         Tensor& out) {
  if (unsqueeze_args_error(in, dim).empty()) {
    const int d = normalize_unsqueeze_dim(in, dim);
    uint8_t order[kMaxRank];
    int n = 0;
    for (int i = 0; i <= in.rank; ++i) {
      if (i == d) order[n++] = static_cast<uint8_t>(d);  // the bug: position d
      if (i < in.rank) order[n++] = static_cast<uint8_t>(in.dim_order[i] >= d ? in.dim_order[i] + 1 : in.dim_order[i]);
    }
    bool same = out.rank == n;
    for (int i = 0; same && i < n; ++i) same = out.dim_order[i] == order[i];
    SF_KERNEL_CHECK_MSG(ctx, same, InvalidArgument, out,
                        "unsqueeze_copy: out's dim order is not the result's (new dim %d at "
                        "position %d of the order)", d, d);
  }
  return unsqueeze_copy_out(ctx, in, dim, out);
}

// Bug class (pytorch/executorch issue 2843, "et_view should always copy the data
// pointer"): the alias prim op sets out's data pointer only while it is still
// null, i.e. on the method's first execution; executed again with its memory
// elsewhere, the alias still points at the old bytes. `kOut` is out's stack slot.
template <void (*kPrim)(KernelRuntimeContext&, EValue**), int kOut>
void alias_pointer_set_once(KernelRuntimeContext& ctx, EValue** stack) {
  void* const before = stack != nullptr && stack[kOut] != nullptr && stack[kOut]->is_tensor()
                           ? stack[kOut]->tensor->data
                           : nullptr;
  kPrim(ctx, stack);
  if (ctx.ok() && before != nullptr) stack[kOut]->tensor->data = before;  // the bug
}

}  // namespace

void add_faulty_view_backends(std::vector<Backend>& out) {
  Backend b = faulty("faulty-output-next-node",
                     "output rule checked on the next node only (pytorch/executorch PR 3602): an "
                     "output that more ops follow is aliased");
  b.pass = &pass_output_rule_next_node_only;
  out.push_back(b);
  b = faulty("faulty-view-nondense",
             "view_copy aliased whatever its input's dim order (e.g. channels-last), by an "
             "et_view without a guard (as ExecuTorch's)");
  b.pass = &pass_view_ignoring_dim_order;
  b.kernels.et_view_op = &et_view_without_guard;
  out.push_back(b);
  b = faulty("faulty-select-negative-index",
             "et_select's alias offset from the unnormalised negative index");
  b.kernels.et_select_op = &et_select_unnormalised_index;
  out.push_back(b);
  b = faulty("faulty-squeeze-size-gt1", "squeeze_copy drops a listed dim of size > 1");
  b.kernels.boxed_of(OpKind::SqueezeCopy) = &boxed_int_list_arg<&squeeze_copy_dropping_any_listed_dim>;
  out.push_back(b);
  b = faulty("faulty-unsqueeze-order",
             "unsqueeze_copy puts the new dim at position d of the dim order, not just outside "
             "the dim it precedes");
  b.kernels.boxed_of(OpKind::UnsqueezeCopy) = &boxed_int_arg<&unsqueeze_copy_order_by_position>;
  out.push_back(b);
  b = faulty("faulty-alias-pointer-once",
             "et_slice, et_select and et_view set out's data pointer only while it is null "
             "(pytorch/executorch issue 2843): executed again in other memory, the alias keeps "
             "the first execution's pointer");
  b.kernels.et_slice_op = &alias_pointer_set_once<&et_slice, 5>;
  b.kernels.et_select_op = &alias_pointer_set_once<&et_select, 3>;
  b.kernels.et_view_op = &alias_pointer_set_once<&et_view, 2>;
  out.push_back(b);
}

}  // namespace slicefuzz
