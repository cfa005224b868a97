// The calls into ExecuTorch for the view-copy ops and their alias prim ops: each
// wraps slicefuzz's tensors with the adapter and calls the real kernel.
#include "backends/executorch/view_copy_kernels.h"

#include <executorch/kernels/prim_ops/et_view.h>
#include <executorch/runtime/core/evalue.h>

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "backends/executorch/adapter.h"
#include "backends/executorch/portable_kernels.h"
#include "backends/executorch/et_select_prim.h"


namespace slicefuzz::et_kernels {

namespace {

namespace native = torch::executor::native;
using et_adapter::EtTensor;
using et_adapter::kOut;
using ETValue = executorch::runtime::EValue;
using executorch::aten::ArrayRef;

constexpr auto kNotSupported = executorch::runtime::Error::NotSupported;

// Runs `kernel(et_ctx, in, out)` on ExecuTorch tensors over in's and out's bytes
// and copies the result's sizes back.
template <typename Kernel>
Tensor& copy_kernel(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, Kernel kernel) {
  return et_adapter::call(ctx, out, [&](auto& et_ctx) {
    EtTensor a(in), o(out, kOut);
    if (!a.ok() || !o.ok()) return et_ctx.fail(kNotSupported), true;
    kernel(et_ctx, a.get(), o.get());
    return o.sizes_back(out);
  });
}

}  // namespace

Tensor& clone_dim_order(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dim_order,
                        size_t ndim_order, Tensor& out) {
  return copy_kernel(ctx, in, out, [&](auto& et_ctx, auto& a, auto& o) {
    executorch::aten::OptionalArrayRef<int64_t> order;
    if (dim_order != nullptr) order = ArrayRef<int64_t>(dim_order, ndim_order);
    native::SLICEFUZZ_ET_CLONE_DIM_ORDER_KERNEL(et_ctx, a, /*non_blocking=*/false, order, o);
  });
}

void et_select(KernelRuntimeContext& ctx, EValue** stack) {
  Tensor& out = *stack[3]->tensor;
  et_adapter::call(ctx, out, [&](auto& et_ctx) {
    EtTensor in(*stack[0]->tensor), o(out, kOut);
    if (!in.ok() || !o.ok()) return et_ctx.fail(kNotSupported), true;
    ETValue values[4] = {ETValue(in.get()), ETValue(stack[1]->int_value),
                         ETValue(stack[2]->int_value), ETValue(o.get())};
    ETValue* et_stack[4] = {&values[0], &values[1], &values[2], &values[3]};
    et_prim::et_select(et_ctx, executorch::runtime::Span<ETValue*>(et_stack, 4));
    if (et_ctx.failure_state() != executorch::runtime::Error::Ok) return true;
    return o.data_back(out);
  });
}

void et_view(KernelRuntimeContext& ctx, EValue** stack) {
  Tensor& out = *stack[2]->tensor;
  et_adapter::call(ctx, out, [&](auto& et_ctx) {
    EtTensor in(*stack[0]->tensor), o(out, kOut);
    const EValue& sizes = *stack[1];
    if (!in.ok() || !o.ok() || sizes.list_size > kMaxRank)
      return et_ctx.fail(kNotSupported), true;
    // The sizes as the executor hands them over: a boxed list of Int EValues.
    ETValue items[kMaxRank];
    ETValue* wrapped[kMaxRank];
    int64_t unwrapped[kMaxRank];
    for (size_t i = 0; i < sizes.list_size; ++i) {
      items[i] = ETValue(sizes.list[i]);
      wrapped[i] = &items[i];
    }
    executorch::runtime::BoxedEvalueList<int64_t> list(wrapped, unwrapped,
                                                       static_cast<int>(sizes.list_size));
    ETValue values[3] = {ETValue(in.get()), ETValue(&list), ETValue(o.get())};
    ETValue* et_stack[3] = {&values[0], &values[1], &values[2]};
    torch::executor::function::et_view(et_ctx, executorch::runtime::Span<ETValue*>(et_stack, 3));
    if (et_ctx.failure_state() != executorch::runtime::Error::Ok) return true;
    return o.data_back(out);
  });
}

namespace {

// slicefuzz's EValue as the portable kernel's argument of type T: false when the
// stack holds another kind (a wrong stack is an error, never a wild read).
bool unbox(const EValue& v, int64_t& x) { return v.is_int() ? (x = v.int_value, true) : false; }
bool unbox(const EValue& v, std::optional<int64_t>& x) {
  if (v.is_none()) return x = std::nullopt, true;
  return v.is_int() ? (x = v.int_value, true) : false;
}
bool unbox(const EValue& v, ArrayRef<int64_t>& x) {
  return v.is_int_list() ? (x = ArrayRef<int64_t>(v.list, v.list_size), true) : false;
}

// stack = [in, the op table's arguments, out]. The kernel's arguments after the
// table's are bools at their schema default, False (et_ops::trailing_defaults).
template <auto kKernel, OpKind kKind, size_t... I, size_t... D>
void call_boxed(KernelRuntimeContext& ctx, EValue** stack, std::index_sequence<I...>,
                std::index_sequence<D...>) {
  using Args = et_ops::KernelArgs<kKernel>;
  constexpr size_t n = sizeof...(I);
  std::tuple<typename Args::template type<I>...> args;
  const bool kinds = stack[0]->is_tensor() && stack[1 + n]->is_tensor() &&
                     (unbox(*stack[1 + I], std::get<I>(args)) && ... && true);
  if (!kinds) {
    ctx.fail(::slicefuzz::Error::InvalidArgument,
             std::string(op_kind_info(kKind).name) + ": a boxed kernel's stack has the wrong kinds");
    return;
  }
  copy_kernel(ctx, *stack[0]->tensor, *stack[1 + n]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    static_assert((std::is_same_v<typename Args::template type<n + D>, bool> && ... && true),
                  "a portable kernel's arguments past the op table's must be bools (their default False)");
    kKernel(et_ctx, in, std::get<I>(args)..., ((void)D, false)..., out);
  });
}
template <auto kKernel, OpKind kKind>
void boxed(KernelRuntimeContext& ctx, EValue** stack) {
  constexpr size_t n = et_ops::schema_arg_count(kKind);
  call_boxed<kKernel, kKind>(ctx, stack, std::make_index_sequence<n>{},
                             std::make_index_sequence<et_ops::trailing_defaults<kKernel, kKind>()>{});
}

// squeeze_copy's quirk: one dim goes to ExecuTorch's squeeze_copy.dim_out (what
// `x.squeeze(d)` exports to); any other count to squeeze_copy.dims_out.
void squeeze_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  if (stack[0]->is_tensor() && stack[1]->is_int_list() && stack[1]->list_size == 1 && stack[2]->is_tensor()) {
    const int64_t dim = stack[1]->list[0];
    copy_kernel(ctx, *stack[0]->tensor, *stack[2]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
      native::squeeze_copy_dim_out(et_ctx, in, dim, out);
    });
    return;
  }
  boxed<&native::squeeze_copy_dims_out, OpKind::SqueezeCopy>(ctx, stack);
}

}  // namespace

BoxedKernel boxed_kernel(OpKind kind) {
  if (kind == OpKind::SqueezeCopy) return &squeeze_copy_boxed;
#define SLICEFUZZ_ET_BOXED_ROW(k, fn) \
  if (kind == OpKind::k) return &boxed<&native::fn, OpKind::k>;
  SLICEFUZZ_ET_PORTABLE_OPS(SLICEFUZZ_ET_BOXED_ROW)
#undef SLICEFUZZ_ET_BOXED_ROW
  // add_, clone and copy_ have slots of their own (program/kernel_table.h); the
  // eager ops no ExecuTorch kernel here.
  return nullptr;
}

}  // namespace slicefuzz::et_kernels
