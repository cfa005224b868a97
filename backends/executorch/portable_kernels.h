// ExecuTorch's portable kernels that slicefuzz calls, declared exactly as they
// are defined in kernels/portable/cpu/op_*.cpp (ExecuTorch's codegen declares
// them upstream; a source tree has no generated headers), and the table that
// binds the view-copy ops to them. Include only from translation units compiled
// with ExecuTorch's include paths; the op table it reads (vocab/op_schema.h) is
// a header of constants, so the standalone .pte runner stays free of slicefuzz code.
#pragma once
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>

#include "vocab/op_schema.h"

namespace torch::executor::native {
using executorch::aten::ArrayRef;
using executorch::aten::OptionalArrayRef;
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
Tensor& slice_copy_Tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start_val, std::optional<int64_t> end_val,
                              int64_t step, Tensor& out);
Tensor& clone_out(KernelRuntimeContext& context, const Tensor& self,
                  std::optional<executorch::aten::MemoryFormat> memory_format, Tensor& out);
Tensor& copy_(KernelRuntimeContext& ctx, Tensor& in, const Tensor& src, bool non_blocking);
Tensor& add_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out);
Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out);
Tensor& squeeze_copy_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                             Tensor& out);
Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in, ArrayRef<int64_t> dims,
                              Tensor& out);
Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& self, int64_t dim,
                           Tensor& out);
Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& self,
                      ArrayRef<int64_t> size_int64_t, Tensor& out);
Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out);
Tensor& expand_copy_out(KernelRuntimeContext& ctx, const Tensor& self, ArrayRef<int64_t> expand_sizes,
                        bool implicit, Tensor& out);
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, ArrayRef<int64_t> dims, Tensor& out);
// _clone_dim_order_out, or _to_dim_order_copy_out in a tree without it (CMakeLists.txt).
Tensor& SLICEFUZZ_ET_CLONE_DIM_ORDER_KERNEL(KernelRuntimeContext& ctx, const Tensor& self,
                                            bool non_blocking, OptionalArrayRef<int64_t> dim_order,
                                            Tensor& out);
}  // namespace torch::executor::native

// ---- The view-copy ops ExecuTorch's portable library runs -------------------
// One row per op kind whose op-table row (vocab/op_schema.h) names an ExecuTorch
// operator (`et_op`) and has no hand-written call: the kind and its portable
// kernel above. Everything else is derived from the row, the kernel's C++
// signature and the op table: executorch-portable's boxed kernel
// (view_copy_kernels.cpp), the registration under the et_op name
// (runtime/portable_registration.cpp), the .pte writer's call
// (runtime/pte_builder.h) and the CMake source list (op_NAME.cpp from et_op).
#define SLICEFUZZ_ET_PORTABLE_OPS(X)       \
  X(SliceCopy, slice_copy_Tensor_out)      \
  X(SelectCopy, select_copy_int_out)       \
  X(SqueezeCopy, squeeze_copy_dims_out)    \
  X(UnsqueezeCopy, unsqueeze_copy_out)     \
  X(ViewCopy, view_copy_out)               \
  X(NarrowCopy, narrow_copy_out)           \
  X(ExpandCopy, expand_copy_out)           \
  X(PermuteCopy, permute_copy_out)

// The ops whose ExecuTorch call is written by hand, each for an argument its
// case does not hold: add_'s alpha and out, copy_'s non_blocking and returned
// self, clone's memory format or target dim order (runtime/pte_builder.h,
// runtime/portable_registration.cpp).
#define SLICEFUZZ_ET_HAND_WRITTEN_OPS(X) X(Add) X(Clone) X(Copy)

namespace slicefuzz::et_ops {

namespace native = torch::executor::native;
using PortableTensor = executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;

// A portable kernel's arguments between `in` and `out`, read off its C++ type
// `Tensor& (KernelRuntimeContext&, const Tensor& in, A..., Tensor& out)`.
template <auto kKernel>
struct KernelArgs;
template <typename... Rest, PortableTensor& (*kKernel)(KernelRuntimeContext&, const PortableTensor&, Rest...)>
struct KernelArgs<kKernel> {
  static_assert(sizeof...(Rest) >= 1, "a portable kernel ends with its out tensor");
  static constexpr size_t count = sizeof...(Rest) - 1;  // out excluded
  template <size_t I>
  using type = std::decay_t<std::tuple_element_t<I, std::tuple<Rest...>>>;
  static_assert(std::is_same_v<std::tuple_element_t<count, std::tuple<Rest...>>, PortableTensor&>,
                "a portable kernel's last argument is its out tensor");
};

constexpr size_t schema_arg_count(slicefuzz::OpKind k) { return slicefuzz::op_kind_info(k).args.size; }

// The arguments ExecuTorch's schema has after the op table's: each must be a
// bool that takes its schema default, False (expand_copy's implicit).
template <auto kKernel, slicefuzz::OpKind kKind>
constexpr size_t trailing_defaults() {
  using Args = KernelArgs<kKernel>;
  static_assert(Args::count >= schema_arg_count(kKind),
                "the portable kernel takes fewer arguments than the op table's schema");
  return Args::count - schema_arg_count(kKind);
}

// Is the op bound to a portable kernel here, by row or by hand?
constexpr bool bound(slicefuzz::OpKind k) {
#define SLICEFUZZ_ET_BOUND_ROW(kind, fn) if (k == slicefuzz::OpKind::kind) return true;
#define SLICEFUZZ_ET_BOUND_HAND(kind) if (k == slicefuzz::OpKind::kind) return true;
  SLICEFUZZ_ET_PORTABLE_OPS(SLICEFUZZ_ET_BOUND_ROW)
  SLICEFUZZ_ET_HAND_WRITTEN_OPS(SLICEFUZZ_ET_BOUND_HAND)
#undef SLICEFUZZ_ET_BOUND_ROW
#undef SLICEFUZZ_ET_BOUND_HAND
  return false;
}
// How many bool defaults the .pte writer appends after the schema's arguments.
constexpr size_t et_trailing_defaults(slicefuzz::OpKind k) {
#define SLICEFUZZ_ET_DEFAULTS_ROW(kind, fn) \
  if (k == slicefuzz::OpKind::kind) return trailing_defaults<&native::fn, slicefuzz::OpKind::kind>();
  SLICEFUZZ_ET_PORTABLE_OPS(SLICEFUZZ_ET_DEFAULTS_ROW)
#undef SLICEFUZZ_ET_DEFAULTS_ROW
  return 0;
}

// Every op the table gives an ExecuTorch operator is bound: a new op with an
// et_op and no row above is a compile error, never a program nobody can write.
constexpr bool every_et_op_bound() {
  for (const slicefuzz::OpKindInfo& row : slicefuzz::kOpKinds)
    if (row.et_op[0] != '\0' && !bound(row.kind)) return false;
  return true;
}
static_assert(every_et_op_bound(),
              "an op names an ExecuTorch operator (vocab/op_schema.h, et_op) but no portable kernel is "
              "bound to it: add its row to SLICEFUZZ_ET_PORTABLE_OPS (backends/executorch/portable_kernels.h)");

}  // namespace slicefuzz::et_ops
