// The kernels executorch-runtime's programs call, registered with ExecuTorch's
// own registry (runtime/kernel/operator_registry.h) in one table: a boxed
// wrapper per portable kernel, as ExecuTorch's codegen would generate it
// (unbox each EValue of the stack in schema order, call the kernel, out last);
// slicefuzz's ExecuTorch-typed et_slice and et_select prim ops under their own
// names; and the probes. ExecuTorch's own prim ops (et_view among them) register
// themselves from kernels/prim_ops/register_prim_ops.cpp, linked whole
// (CMakeLists.txt).
#include "backends/executorch/runtime/runtime_kernels.h"

#include <executorch/kernels/prim_ops/et_view.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

#include <mutex>

#include "backends/executorch/et_select_prim.h"
#include "backends/executorch/et_slice_prim.h"
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

thread_local ProbeSink* g_sink = nullptr;

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

// PteFault::PrimKeepsFirstPointer: the prim op sets out's data pointer only
// while it is null (pytorch/executorch issue 2843); executed again over other
// memory, the alias keeps the first execution's pointer.
template <void (*Prim)(KernelRuntimeContext&, Stack)>
void pointer_once(KernelRuntimeContext& ctx, Stack s) {
  if (s.size() == 0 || !s[s.size() - 1]->isTensor()) return Prim(ctx, s);
  executorch::aten::TensorImpl* out = s[s.size() - 1]->toTensor().unsafeGetTensorImpl();
  void* kept = out->mutable_data();
  Prim(ctx, s);
  if (kept) out->set_data(kept);
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
    Kernel("slicefuzz_prim::et_slice.default", &et_prim::et_slice),
    Kernel("slicefuzz_prim::et_select.default", &et_prim::et_select),
    Kernel("slicefuzz_faulty::et_slice.default", &pointer_once<&et_prim::et_slice>),
    Kernel("slicefuzz_faulty::et_select.default", &pointer_once<&et_prim::et_select>),
    Kernel("slicefuzz_faulty::et_view.default", &pointer_once<&torch::executor::function::et_view>),
    Kernel("slicefuzz_probe::enter.default",
           [](KernelRuntimeContext&, Stack s) {
             if (g_sink && s.size() == 1) g_sink->enter(static_cast<int>(s[0]->toInt()));
           }),
    Kernel("slicefuzz_probe::leave.default",
           [](KernelRuntimeContext&, Stack s) {
             if (g_sink && s.size() == 1) g_sink->leave(static_cast<int>(s[0]->toInt()));
           }),
    Kernel("slicefuzz_probe::alias.default",
           [](KernelRuntimeContext&, Stack s) {
             if (!g_sink || s.size() != 5) return;
             const Tensor alias = s[0]->toTensor(), root = s[1]->toTensor();
             g_sink->alias(static_cast<int>(s[2]->toInt()), static_cast<int>(s[3]->toInt()),
                           static_cast<int>(s[4]->toInt()), alias.const_data_ptr(), alias.nbytes(),
                           root.const_data_ptr(), root.nbytes());
           }),
};

}  // namespace

bool register_runtime_kernels() {
  static bool ok = [] {
    return executorch::runtime::register_kernels(Span<const Kernel>(kKernels, sizeof kKernels / sizeof kKernels[0])) ==
           executorch::runtime::Error::Ok;
  }();
  return ok;
}

ProbeScope::ProbeScope(ProbeSink* sink) : previous_(g_sink) { g_sink = sink; }
ProbeScope::~ProbeScope() { g_sink = previous_; }

}  // namespace slicefuzz::et_runtime
