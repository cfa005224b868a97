#include "backends/faulty.h"

#include <cstring>

#include "kernels/boxing.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

namespace {

// --- kernels ----------------------------------------------------------------

// Bug class: block copy that derives "outer" and "inner" blocks from the dims
// before and after d *by index*, as if the dim order were the identity
// (ExecuTorch's portable block-copy kernels shipped this for channels-last).
Tensor& slice_copy_ignoring_dim_order(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                                      std::optional<int64_t> start, std::optional<int64_t> end,
                                      int64_t step, Tensor& out) {
  slice_copy_Tensor_out(ctx, in, dim, start, end, step, out);  // checks and resizes
  if (!ctx.ok() || out.numel() == 0) return out;
  const int d = *normalize_dim(dim, in.rank);
  const SliceRange r = normalize_slice(in.sizes[d], start, end, step);
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < d; ++i) outer *= in.sizes[i];
  for (int i = d + 1; i < in.rank; ++i) inner *= in.sizes[i];
  const size_t es = in.element_size();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < r.length; ++i)
      std::memcpy(out.bytes() + ((o * r.length + i) * inner) * es,
                  in.bytes() + ((o * in.sizes[d] + r.start + i * step) * inner) * es, inner * es);
  return out;
}

// Bug class: index normalisation off by one for a negative end (end + size + 1).
Tensor& slice_copy_negative_end_off_by_one(KernelRuntimeContext& ctx, const Tensor& in,
                                           int64_t dim, std::optional<int64_t> start,
                                           std::optional<int64_t> end, int64_t step, Tensor& out) {
  if (end && *end < 0 && *end > -(int64_t{1} << 62)) end = *end + 1;
  return slice_copy_Tensor_out(ctx, in, dim, start, end == 0 ? std::nullopt : end, step, out);
}

// Bug class: length as (end - start + step - 1) / step, which overflows int64 for
// huge steps (UBSan reports it; unsanitized builds get a wrong length).
Tensor& slice_copy_length_overflow(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                                   std::optional<int64_t> start, std::optional<int64_t> end,
                                   int64_t step, Tensor& out) {
  if (in.rank > 0 && normalize_dim(dim, in.rank) && step > 0) {
    const int d = *normalize_dim(dim, in.rank);
    const int64_t size = in.sizes[d];
    const SliceRange r = normalize_slice(size, start, end, step);
    int64_t e = end ? (*end < 0 ? *end + size : *end) : size;
    e = e < 0 ? 0 : e > size ? size : e;
    volatile int64_t length = e > r.start ? (e - r.start + step - 1) / step : 0;  // the bug
    (void)length;
  }
  return slice_copy_Tensor_out(ctx, in, dim, start, end, step, out);
}

// Bug class: alias offset computed from strides[0] whatever the sliced dim.
void et_slice_offset_from_stride0(KernelRuntimeContext& ctx, EValue** stack) {
  et_slice(ctx, stack);
  if (!ctx.ok()) return;
  Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  const int d = *normalize_dim(stack[1]->int_value, in.rank);
  const int64_t start = (out.bytes() - in.bytes()) / static_cast<int64_t>(in.element_size()) /
                        (in.strides[d] ? in.strides[d] : 1);
  if (out.numel() > 0) out.data = in.bytes() + start * in.strides[0] * in.element_size();
}

// Bug class: et_slice without its runtime density guard (aliases anything).
void et_slice_without_guard(KernelRuntimeContext& ctx, EValue** stack) {
  et_slice(ctx, stack);
  if (ctx.ok() || ctx.message().find("not dense") == std::string::npos) return;
  ctx.reset();
  Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  const int d = *normalize_dim(stack[1]->int_value, in.rank);
  std::optional<int64_t> start, end;
  if (stack[2]->is_int()) start = stack[2]->int_value;
  if (stack[3]->is_int()) end = stack[3]->int_value;
  const SliceRange r = normalize_slice(in.sizes[d], start, end, stack[4]->int_value);
  int64_t sizes[kMaxRank];
  for (int i = 0; i < in.rank; ++i) sizes[i] = i == d ? r.length : in.sizes[i];
  out.dynamism = ShapeDynamism::DYNAMIC_BOUND;
  out.capacity_nbytes = SIZE_MAX;
  resize_tensor(out, sizes);
  out.data = in.bytes() + r.start * in.strides[d] * in.element_size();
  out.capacity_nbytes = out.nbytes();
}

// Bug class: an empty slice's data pointer at start * stride[d], which can lie
// beyond the input's bytes (e.g. slicing dim 1 of a [0, 5] tensor at start 3).
void et_slice_empty_outside_root(KernelRuntimeContext& ctx, EValue** stack) {
  et_slice(ctx, stack);
  if (!ctx.ok()) return;
  Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  if (out.numel() != 0) return;
  const int d = *normalize_dim(stack[1]->int_value, in.rank);
  std::optional<int64_t> start;
  if (stack[2]->is_int()) start = stack[2]->int_value;
  const SliceRange r = normalize_slice(in.sizes[d], start, std::nullopt, 1);
  out.data = in.bytes() + r.start * in.strides[d] * in.element_size();
}

// --- density predicates -------------------------------------------------------

// Bug class: "dims before d" taken by index, not by position in the dim order.
bool dense_dims_before_by_index(const int64_t* sizes, const uint8_t* dim_order, int rank, int d,
                                const SliceRange& r) {
  uint8_t identity[kMaxRank];
  for (int i = 0; i < rank; ++i) identity[i] = static_cast<uint8_t>(i);
  (void)dim_order;
  return slice_is_dense(sizes, identity, rank, d, r);
}

// Bug class: a density predicate that accepts step > 1.
bool dense_accepting_steps(const int64_t* sizes, const uint8_t* dim_order, int rank, int d,
                           const SliceRange& r) {
  SliceRange unit = r;
  unit.step = 1;
  return slice_is_dense(sizes, dim_order, rank, d, unit);
}

// --- passes and planners ------------------------------------------------------

RewritePlan pass_density_by_index(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.dense = &dense_dims_before_by_index;
  return rewrite_with_rules(c, i, rules, ctx);
}
RewritePlan pass_density_steps(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.dense = &dense_accepting_steps;
  return rewrite_with_rules(c, i, rules, ctx);
}
RewritePlan pass_no_output_rule(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.output_rule = false;
  return rewrite_with_rules(c, i, rules, ctx);
}
RewritePlan pass_no_mutation_rule(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.mutation_rule = false;
  return rewrite_with_rules(c, i, rules, ctx);
}
RewritePlan pass_no_root_mutation_rule(const Case& c, const ProgramInfo& i, const PassContext& ctx) {
  PassRules rules;
  rules.root_mutation_rule = false;
  return rewrite_with_rules(c, i, rules, ctx);
}
MemoryPlan planner_no_lifetime_extension(const Case& c, const ProgramInfo& i, const RewritePlan& rw) {
  return plan_memory_with(c, i, rw, /*extend_roots_to_alias_reads=*/false);
}

}  // namespace

Backend faulty(const char* name, const char* description) {
  Backend b;
  b.name = name;
  b.description = description;
  return b;
}

void add_faulty_backends(std::vector<Backend>& out) {
  Backend b = faulty("faulty-blockcopy", "slice_copy copies blocks by dim index, ignoring the dim order");
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_ignoring_dim_order>;
  out.push_back(b);
  b = faulty("faulty-stride0-offset", "et_slice computes the alias offset from stride[0]");
  b.kernels.et_slice_op = &et_slice_offset_from_stride0;
  out.push_back(b);
  b = faulty("faulty-density-index", "density checks the dims before d by index, not dim order");
  b.pass = &pass_density_by_index;
  out.push_back(b);
  b = faulty("faulty-density-step", "density predicate accepts step > 1");
  b.pass = &pass_density_steps;
  out.push_back(b);
  b = faulty("faulty-output-rule", "pass forgets that program outputs must stay copies");
  b.pass = &pass_no_output_rule;
  out.push_back(b);
  b = faulty("faulty-alias-mutation", "pass ignores in-place mutation of the alias");
  b.pass = &pass_no_mutation_rule;
  out.push_back(b);
  b = faulty("faulty-root-mutation", "pass ignores mutation of the root while the alias is live");
  b.pass = &pass_no_root_mutation_rule;
  out.push_back(b);
  b = faulty("faulty-lifetime", "planner does not extend the root's lifetime to its aliases' reads");
  b.planner = &planner_no_lifetime_extension;
  out.push_back(b);
  b = faulty("faulty-negative-end", "index normalisation off by one for a negative end");
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_negative_end_off_by_one>;
  out.push_back(b);
  b = faulty("faulty-length-overflow", "slice length overflows int64 for huge steps");
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_length_overflow>;
  out.push_back(b);
  b = faulty("faulty-no-guard", "et_slice without its runtime density guard");
  b.kernels.et_slice_op = &et_slice_without_guard;
  out.push_back(b);
  b = faulty("faulty-empty-alias", "et_slice's empty-slice pointer can land outside the root");
  b.kernels.et_slice_op = &et_slice_empty_outside_root;
  out.push_back(b);
  add_faulty_view_backends(out);
  add_faulty_dynamic_backends(out);
}

}  // namespace slicefuzz
