// ExecuTorch's portable kernels that slicefuzz calls, declared exactly as they
// are defined in kernels/portable/cpu/op_*.cpp (ExecuTorch's codegen declares
// them upstream; a source tree has no generated headers). Include only from
// translation units compiled with ExecuTorch's include paths.
#pragma once
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

#include <optional>

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
// _clone_dim_order_out, or _to_dim_order_copy_out in a tree without it (CMakeLists.txt).
Tensor& SLICEFUZZ_ET_CLONE_DIM_ORDER_KERNEL(KernelRuntimeContext& ctx, const Tensor& self,
                                            bool non_blocking, OptionalArrayRef<int64_t> dim_order,
                                            Tensor& out);
}  // namespace torch::executor::native
