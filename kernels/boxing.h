// The boxed form of a kernel, as ExecuTorch's codegen registers one: a function of
// the executor's stack [in, the schema's arguments in order, out]. One template per
// argument shape the op table has; each checks the stack's kinds first, so a wrong
// stack is an error on ctx, never a wild read. Used for the reference's kernels
// (kernels.h, SLICEFUZZ_BOXED_KERNELS) and for a backend's replacement of one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/evalue.h"
#include "kernels/kernel_runtime_context.h"
#include "kernels/tensor.h"

namespace slicefuzz {

// [in, int, int?, int?, int, out]: slice_copy(dim, start, end, step); an absent
// start or end is None on the stack.
template <Tensor& (*kKernel)(KernelRuntimeContext&, const Tensor&, int64_t, std::optional<int64_t>,
                             std::optional<int64_t>, int64_t, Tensor&)>
void boxed_slice_args(KernelRuntimeContext& ctx, EValue** stack) {
  const auto opt_int = [](const EValue& v) { return v.is_int() || v.is_none(); };
  if (!stack[0]->is_tensor() || !stack[1]->is_int() || !opt_int(*stack[2]) || !opt_int(*stack[3]) ||
      !stack[4]->is_int() || !stack[5]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "a boxed kernel's stack must be [in, int, int?, int?, int, out]");
  const auto value = [](const EValue& v) {
    return v.is_none() ? std::nullopt : std::optional<int64_t>(v.int_value);
  };
  kKernel(ctx, *stack[0]->tensor, stack[1]->int_value, value(*stack[2]), value(*stack[3]),
          stack[4]->int_value, *stack[5]->tensor);
}

// [in, int, out]: unsqueeze_copy(dim).
template <Tensor& (*kKernel)(KernelRuntimeContext&, const Tensor&, int64_t, Tensor&)>
void boxed_int_arg(KernelRuntimeContext& ctx, EValue** stack) {
  if (!stack[0]->is_tensor() || !stack[1]->is_int() || !stack[2]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "a boxed kernel's stack must be [in, int, out]");
  kKernel(ctx, *stack[0]->tensor, stack[1]->int_value, *stack[2]->tensor);
}

// [in, int, int, out]: the select copy (dim, index).
template <Tensor& (*kKernel)(KernelRuntimeContext&, const Tensor&, int64_t, int64_t, Tensor&)>
void boxed_two_int_args(KernelRuntimeContext& ctx, EValue** stack) {
  if (!stack[0]->is_tensor() || !stack[1]->is_int() || !stack[2]->is_int() || !stack[3]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "a boxed kernel's stack must be [in, int, int, out]");
  kKernel(ctx, *stack[0]->tensor, stack[1]->int_value, stack[2]->int_value, *stack[3]->tensor);
}

// [in, int list, out]: squeeze_copy(dims), expand_copy(sizes).
template <Tensor& (*kKernel)(KernelRuntimeContext&, const Tensor&, const int64_t*, size_t, Tensor&)>
void boxed_int_list_arg(KernelRuntimeContext& ctx, EValue** stack) {
  if (!stack[0]->is_tensor() || !stack[1]->is_int_list() || !stack[2]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "a boxed kernel's stack must be [in, int list, out]");
  kKernel(ctx, *stack[0]->tensor, stack[1]->list, stack[1]->list_size, *stack[2]->tensor);
}

}  // namespace slicefuzz
