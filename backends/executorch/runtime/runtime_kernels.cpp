// slicefuzz's own operators in executorch-runtime's programs, registered with
// ExecuTorch's registry (runtime/kernel/operator_registry.h) in one table: its
// ExecuTorch-typed et_slice and et_select prim ops under their own names, their
// faulty variants, and the probes. The portable kernels register themselves
// from portable_registration.cpp, ExecuTorch's prim ops (et_view among them)
// from kernels/prim_ops/register_prim_ops.cpp, both linked whole (CMakeLists.txt).
#include "backends/executorch/runtime/runtime_kernels.h"

#include <executorch/kernels/prim_ops/et_view.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/kernel/operator_registry.h>

#include <mutex>

#include "backends/executorch/et_select_prim.h"
#include "backends/executorch/et_slice_prim.h"

namespace slicefuzz::et_runtime {

namespace {

using executorch::aten::Tensor;
using executorch::runtime::EValue;
using executorch::runtime::Kernel;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::Span;
using Stack = Span<EValue*>;

thread_local ProbeSink* g_sink = nullptr;

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
    return portable_kernels_registered() &&
           executorch::runtime::register_kernels(Span<const Kernel>(kKernels, sizeof kKernels / sizeof kKernels[0])) ==
           executorch::runtime::Error::Ok;
  }();
  return ok;
}

ProbeScope::ProbeScope(ProbeSink* sink) : previous_(g_sink) { g_sink = sink; }
ProbeScope::~ProbeScope() { g_sink = previous_; }

}  // namespace slicefuzz::et_runtime
