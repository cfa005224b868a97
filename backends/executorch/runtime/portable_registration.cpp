// The portable kernels' registration, as ExecuTorch's codegen would generate it
// for kernels/portable/functions.yaml (RegisterCodegenUnboxedKernels): one boxed
// wrapper per operator that unboxes each EValue of the stack in schema order,
// calls the kernel, out last; registered from a static initialiser, so it is
// linked whole (CMakeLists.txt). The view-copy ops' wrappers are generated from
// their kernels' C++ types, under the op table's names (portable_kernels.h);
// the others are written out. ExecuTorch's types and kernels only (and the op
// table's constants): the standalone .pte runner (repro/pte_runner.cpp) links it
// as it would link portable_ops_lib inside an ExecuTorch checkout. Its one
// addition: copy_ refuses a broadcast, which the case language never asks of it.
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

#include <cstddef>
#include <optional>
#include <utility>

#include "backends/executorch/portable_kernels.h"

namespace slicefuzz::et_runtime {

namespace {

namespace native = torch::executor::native;
using executorch::aten::ArrayRef;
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

// A portable kernel's EValue stack unboxed by its C++ argument types, as
// ExecuTorch's generated wrappers do: [in, its arguments in order, out].
template <typename T>
T unbox(EValue* v);
template <>
int64_t unbox<int64_t>(EValue* v) { return v->toInt(); }
template <>
std::optional<int64_t> unbox<std::optional<int64_t>>(EValue* v) { return opt_int(v); }
template <>
ArrayRef<int64_t> unbox<ArrayRef<int64_t>>(EValue* v) { return v->toIntList(); }
template <>
bool unbox<bool>(EValue* v) { return v->toBool(); }

template <auto kKernel, size_t... I>
void call_unboxed(KernelRuntimeContext& ctx, Stack s, std::index_sequence<I...>) {
  using Args = slicefuzz::et_ops::KernelArgs<kKernel>;
  kKernel(ctx, s[0]->toTensor(), unbox<typename Args::template type<I>>(s[1 + I])...,
          s[1 + sizeof...(I)]->toTensor());
}
template <auto kKernel>
void unboxed_call(KernelRuntimeContext& ctx, Stack s) {
  constexpr size_t n = slicefuzz::et_ops::KernelArgs<kKernel>::count;
  if (arity(ctx, s, n + 2)) call_unboxed<kKernel>(ctx, s, std::make_index_sequence<n>{});
}

const Kernel kKernels[] = {
// Each bound view-copy op under its op-table name (portable_kernels.h's rows).
#define SLICEFUZZ_ET_REGISTER_ROW(kind, fn) \
  Kernel(slicefuzz::op_kind_info(slicefuzz::OpKind::kind).et_op, &unboxed_call<&native::fn>),
    SLICEFUZZ_ET_PORTABLE_OPS(SLICEFUZZ_ET_REGISTER_ROW)
#undef SLICEFUZZ_ET_REGISTER_ROW
    // squeeze_copy's one-dim overload, what `x.squeeze(d)` exports to (the
    // writer picks it for a one-entry `dim=`; runtime/pte_builder.h).
    Kernel("aten::squeeze_copy.dim_out", &unboxed_call<&native::squeeze_copy_dim_out>),
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
