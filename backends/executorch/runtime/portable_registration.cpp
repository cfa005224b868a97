// The portable kernels' registration, as ExecuTorch's codegen would generate it
// for kernels/portable/functions.yaml (RegisterCodegenUnboxedKernels): one boxed
// wrapper per operator that unboxes each EValue of the stack in schema order,
// calls the kernel, out last; registered from a static initialiser, so it is
// linked whole (CMakeLists.txt). ExecuTorch's types and kernels only: the
// standalone .pte runner (repro/pte_runner.cpp) links it as it would link
// portable_ops_lib inside an ExecuTorch checkout. Its one addition: copy_
// refuses a broadcast, which the case language never asks of it.
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

#include <optional>

#include "backends/executorch/portable_kernels.h"

namespace slicefuzz::et_runtime {

namespace {

namespace native = torch::executor::native;
using executorch::aten::OptionalArrayRef;
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::EValue;
using executorch::runtime::Kernel;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::Span;
using Stack = Span<EValue*>;

// A stack of the wrong size is a broken program: ExecuTorch's generated
// wrappers index it unchecked, these refuse it.
bool arity(KernelRuntimeContext& ctx, Stack s, size_t n) {
  if (s.size() == n) return true;
  ctx.fail(executorch::runtime::Error::InvalidProgram);
  return false;
}

std::optional<int64_t> opt_int(const EValue* v) {
  return v->isNone() ? std::nullopt : std::optional<int64_t>(v->toInt());
}

const Kernel kKernels[] = {
    Kernel("aten::slice_copy.Tensor_out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 6))
               native::slice_copy_Tensor_out(ctx, s[0]->toTensor(), s[1]->toInt(), opt_int(s[2]), opt_int(s[3]),
                                             s[4]->toInt(), s[5]->toTensor());
           }),
    Kernel("aten::select_copy.int_out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 4))
               native::select_copy_int_out(ctx, s[0]->toTensor(), s[1]->toInt(), s[2]->toInt(), s[3]->toTensor());
           }),
    Kernel("aten::squeeze_copy.dim_out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 3)) native::squeeze_copy_dim_out(ctx, s[0]->toTensor(), s[1]->toInt(), s[2]->toTensor());
           }),
    Kernel("aten::squeeze_copy.dims_out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 3))
               native::squeeze_copy_dims_out(ctx, s[0]->toTensor(), s[1]->toIntList(), s[2]->toTensor());
           }),
    Kernel("aten::unsqueeze_copy.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 3)) native::unsqueeze_copy_out(ctx, s[0]->toTensor(), s[1]->toInt(), s[2]->toTensor());
           }),
    Kernel("aten::view_copy.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 3)) native::view_copy_out(ctx, s[0]->toTensor(), s[1]->toIntList(), s[2]->toTensor());
           }),
    Kernel("aten::narrow_copy.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 5))
               native::narrow_copy_out(ctx, s[0]->toTensor(), s[1]->toInt(), s[2]->toInt(), s[3]->toInt(),
                                       s[4]->toTensor());
           }),
    Kernel("aten::expand_copy.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 4))
               native::expand_copy_out(ctx, s[0]->toTensor(), s[1]->toIntList(), s[2]->toBool(), s[3]->toTensor());
           }),
    Kernel("aten::clone.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             // memory_format: always None in these programs (dim orders go through
             // _clone_dim_order).
             if (arity(ctx, s, 3)) native::clone_out(ctx, s[0]->toTensor(), std::nullopt, s[2]->toTensor());
           }),
    Kernel("dim_order_ops::_clone_dim_order.out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (!arity(ctx, s, 4)) return;
             OptionalArrayRef<int64_t> order;
             if (!s[2]->isNone()) order = OptionalArrayRef<int64_t>(s[2]->toIntList());
             native::SLICEFUZZ_ET_CLONE_DIM_ORDER_KERNEL(ctx, s[0]->toTensor(), s[1]->toBool(), order,
                                                         s[3]->toTensor());
           }),
    Kernel("aten::add.Scalar_out",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (arity(ctx, s, 4))
               native::add_scalar_out(ctx, s[0]->toTensor(), Scalar(s[1]->toInt()), Scalar(s[2]->toInt()),
                                      s[3]->toTensor());
           }),
    Kernel("aten::copy_",
           [](KernelRuntimeContext& ctx, Stack s) {
             if (!arity(ctx, s, 4)) return;
             Tensor self = s[0]->toTensor();
             const Tensor src = s[1]->toTensor();
             // The case language's copy_ takes equal sizes (DESIGN 4); aten::copy_,
             // and so ExecuTorch's, also broadcasts. As executorch-portable's
             // wrapper: only the calls the language can express reach ExecuTorch.
             if (self.sizes() != src.sizes()) {
               ET_LOG(Error, "copy_: sizes differ (slicefuzz programs do not broadcast)");
               return ctx.fail(executorch::runtime::Error::InvalidArgument);
             }
             native::copy_(ctx, self, src, s[2]->toBool());
           }),
};

const bool registered =
    executorch::runtime::register_kernels(Span<const Kernel>(kKernels, sizeof kKernels / sizeof kKernels[0])) ==
    executorch::runtime::Error::Ok;

}  // namespace

bool portable_kernels_registered() { return registered; }

}  // namespace slicefuzz::et_runtime
