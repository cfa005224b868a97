// ExecuTorch's portable view-copy kernels and the alias prim ops (ExecuTorch's
// et_view, the ExecuTorch-typed et_select of et_select_prim.cpp), each behind the
// signature slicefuzz's kernel table has for it (kernels/kernels.h): the boxed
// kernel of each op on the schema path (boxed_kernel), _clone_dim_order by its slot.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/evalue.h"
#include "kernels/kernels.h"
#include "kernels/kernel_runtime_context.h"
#include "kernels/tensor.h"
#include "vocab/op_schema.h"

namespace slicefuzz::et_kernels {

// dim_order_ops::_clone_dim_order.out; `dim_order` nullptr: keep in's (None).
Tensor& clone_dim_order(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dim_order,
                        size_t ndim_order, Tensor& out);
// stack = [in, dim, index, out] / [in, sizes (IntList), out], slicefuzz's EValues.
void et_select(KernelRuntimeContext& ctx, EValue** stack);
void et_view(KernelRuntimeContext& ctx, EValue** stack);

// ExecuTorch's kernel, boxed (stack = [in, the op's schema arguments, out]), for
// an op that has no slot of its own in the kernel table (kernels/kernels.h's
// boxed kernels); nullptr where none is wired into this backend.
BoxedKernel boxed_kernel(OpKind kind);

}  // namespace slicefuzz::et_kernels
