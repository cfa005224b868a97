// The project's kernels: out-variant and in-place ops with ExecuTorch's portable
// kernel signatures, and the et_slice prim op. One op per op_*.cpp file.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kernels/evalue.h"
#include "kernels/kernel_runtime_context.h"
#include "kernels/tensor.h"

namespace slicefuzz {

enum class MemoryFormat { Preserve, Contiguous };

// aten::slice_copy.Tensor_out
Tensor& slice_copy_Tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step, Tensor& out);

// executorch_prim::et_slice: stack = [in, dim, start (Int|None), end (Int|None), step, out].
// Points out at the slice's bytes inside in (no copy); refuses non-dense slices.
void et_slice(KernelRuntimeContext& ctx, EValue** stack);

// aten::add_.Scalar with alpha = 1 (see element_ops.h for the bool rule).
Tensor& add_scalar_(KernelRuntimeContext& ctx, Tensor& self, int64_t other);

// aten::clone.out
Tensor& clone_out(KernelRuntimeContext& ctx, const Tensor& in,
                  std::optional<MemoryFormat> memory_format, Tensor& out);

// aten::select_copy.int_out: out is given the result's rank and dim order (the
// input's with dim removed) by the planner, as in ExecuTorch.
Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out);

// aten::squeeze_copy.dims_out (the .dim overload is one dim).
Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dims,
                              size_t ndims, Tensor& out);

// aten::unsqueeze_copy.out
Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out);

// aten::view_copy.out (one size may be -1)
Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* sizes,
                      size_t nsizes, Tensor& out);

// dim_order_ops::_clone_dim_order.out: a copy of in laid out in out's dim order
// (`dim_order`, when given, must equal out's).
Tensor& clone_dim_order_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dim_order,
                            size_t ndim_order, Tensor& out);

// executorch_prim::et_select: stack = [in, dim, index, out]. Points out at the
// selected sub-tensor inside in (no copy); refuses when it is not dense in out's
// dim order.
void et_select(KernelRuntimeContext& ctx, EValue** stack);

// executorch_prim::et_view: stack = [in, sizes (IntList), out]. Points out at in's
// bytes with new sizes (squeeze_copy, unsqueeze_copy, view_copy re-inplaced);
// refuses when out's strides would not reach in's elements in the same order.
void et_view(KernelRuntimeContext& ctx, EValue** stack);

// aten::copy_ (same sizes and dtype; no broadcasting in slicefuzz programs)
Tensor& copy_(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool non_blocking);

// aten::narrow_copy.out: elements [start, start + length) of dim (ExecuTorch's
// check_narrow_copy_args: rank > 0, dim in range, length >= 0, start in
// [-size, size], start + length <= size after a negative start gets + size).
Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out);
// Why narrow_copy's arguments are invalid for `in`, or "" (the pass reads it too).
std::string narrow_copy_args_error(const Tensor& in, int64_t dim, int64_t start, int64_t length);
// The first element of a valid narrow along a dim of `size` (a negative start wrapped).
int64_t narrow_first(int64_t size, int64_t start);

// aten::expand_copy.out (implicit=False): in broadcast to `sizes`, aligned with
// in's trailing dims; -1 keeps a dim; only a size-1 dim may change; new leading
// dims take sizes >= 0. The result is row-major. ExecuTorch's
// check_expand_copy_args and get_expand_copy_out_target_size.
Tensor& expand_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* sizes,
                        size_t nsizes, Tensor& out);
// The result's sizes into `target` (kMaxRank entries), or why the sizes are
// invalid for `in` (the pass reads it too).
std::string expand_copy_target_sizes(const Tensor& in, const int64_t* sizes, size_t nsizes,
                                     int64_t* target);
// in's strides as a view of the expanded sizes `target` (n of them): 0 on every
// new and broadcast dim, in's own stride elsewhere.
void expand_view_strides(const Tensor& in, const int64_t* target, int n, int64_t* strides);

// aten::permute_copy.out: the result's dim j is in's dim dims[j]; out has in's
// dim order (ExecuTorch's check_permute_copy_args, tensors_have_same_dim_order).
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dims, size_t ndims,
                         Tensor& out);
// Why dims is not a permutation of in's dims, or "" with each dim normalised
// into perm (in.rank entries); the pass reads it too, with the two facts below.
std::string permute_copy_dims(const Tensor& in, const int64_t* dims, size_t ndims, int* perm);
struct ResultLayout;  // kernels/util/shape_util.h
struct ViewLayout;    // kernels/util/view_util.h
ResultLayout permute_result(const Tensor& in, const int* perm);
ViewLayout permute_view(const ViewLayout& src, const int* perm);

// Boxed kernels, as ExecuTorch's codegen registers them: stack = [in, the op's
// arguments in its schema's order (vocab/op_schema.h), out]. An op whose row
// names a kernel listed here runs through it, with no per-op code in the
// executors (program/kernel_table.h, call_boxed_kernel). Each op_NAME.cpp
// defines NAME_boxed beside NAME.
using BoxedKernel = void (*)(KernelRuntimeContext& ctx, EValue** stack);
#define SLICEFUZZ_BOXED_KERNELS(X) \
  X(slice_copy_Tensor_out)         \
  X(select_copy_int_out)           \
  X(squeeze_copy_dims_out)         \
  X(unsqueeze_copy_out)            \
  X(view_copy_out)                 \
  X(narrow_copy_out)               \
  X(expand_copy_out)                \
  X(permute_copy_out)

#define SLICEFUZZ_DECLARE_BOXED(name) void name##_boxed(KernelRuntimeContext& ctx, EValue** stack);
SLICEFUZZ_BOXED_KERNELS(SLICEFUZZ_DECLARE_BOXED)
#undef SLICEFUZZ_DECLARE_BOXED

// The boxed kernel registered under `name` (the op table's kernel column), or nullptr.
inline BoxedKernel find_boxed_kernel(std::string_view name) {
  struct Entry {
    const char* name;
    BoxedKernel fn;
  };
#define SLICEFUZZ_BOXED_ENTRY(name) {#name, &name##_boxed},
  static constexpr Entry kEntries[] = {SLICEFUZZ_BOXED_KERNELS(SLICEFUZZ_BOXED_ENTRY){"", nullptr}};
#undef SLICEFUZZ_BOXED_ENTRY
  for (const Entry& e : kEntries)
    if (e.fn && name == e.name) return e.fn;
  return nullptr;
}

}  // namespace slicefuzz
