// The project's kernels: out-variant and in-place ops with ExecuTorch's portable
// kernel signatures, and the et_slice prim op. One op per op_*.cpp file.
#pragma once
#include <cstdint>
#include <optional>

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

// aten::copy_ (same sizes and dtype; no broadcasting in slicefuzz programs)
Tensor& copy_(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool non_blocking);

}  // namespace slicefuzz
