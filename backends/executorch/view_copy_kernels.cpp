// The calls into ExecuTorch for the view-copy ops and their alias prim ops: each
// wraps slicefuzz's tensors with the adapter and calls the real kernel.
#include "backends/executorch/view_copy_kernels.h"

#include <executorch/kernels/prim_ops/et_view.h>
#include <executorch/runtime/core/evalue.h>

#include <optional>

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
// stack = [in, dim, start (Int|None), end (Int|None), step, out] (the op's schema order).
void slice_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  const auto opt = [](const EValue& v) {
    return v.is_none() ? std::nullopt : std::optional<int64_t>(v.int_value);
  };
  copy_kernel(ctx, *stack[0]->tensor, *stack[5]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::slice_copy_Tensor_out(et_ctx, in, stack[1]->int_value, opt(*stack[2]), opt(*stack[3]),
                                  stack[4]->int_value, out);
  });
}
// stack = [in, dim, index, out] (the op's schema order).
void select_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[3]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::select_copy_int_out(et_ctx, in, stack[1]->int_value, stack[2]->int_value, out);
  });
}
// stack = [in, dims, out]. One dim: ExecuTorch's squeeze_copy.dim_out (what
// `x.squeeze(d)` exports to); any other count: squeeze_copy.dims_out.
void squeeze_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[2]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    const int64_t* dims = stack[1]->list;
    const size_t ndims = stack[1]->list_size;
    if (ndims == 1)
      native::squeeze_copy_dim_out(et_ctx, in, dims[0], out);
    else
      native::squeeze_copy_dims_out(et_ctx, in, ArrayRef<int64_t>(dims, ndims), out);
  });
}
// stack = [in, sizes, out] (the op's schema order).
void view_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[2]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::view_copy_out(et_ctx, in, ArrayRef<int64_t>(stack[1]->list, stack[1]->list_size), out);
  });
}
// stack = [in, dim, out] (the op's schema order).
void unsqueeze_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[2]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::unsqueeze_copy_out(et_ctx, in, stack[1]->int_value, out);
  });
}
// stack = [in, dim, start, length, out] (the op's schema order).
void narrow_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[4]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::narrow_copy_out(et_ctx, in, stack[1]->int_value, stack[2]->int_value,
                            stack[3]->int_value, out);
  });
}
// stack = [in, sizes (IntList), out]; implicit is False (the schema's default).
void expand_copy_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  copy_kernel(ctx, *stack[0]->tensor, *stack[2]->tensor, [&](auto& et_ctx, auto& in, auto& out) {
    native::expand_copy_out(et_ctx, in, ArrayRef<int64_t>(stack[1]->list, stack[1]->list_size),
                            false, out);
  });
}
}  // namespace

BoxedKernel boxed_kernel(OpKind kind) {
  switch (kind) {
    case OpKind::SliceCopy: return &slice_copy_boxed;
    case OpKind::SelectCopy: return &select_copy_boxed;
    case OpKind::SqueezeCopy: return &squeeze_copy_boxed;
    case OpKind::UnsqueezeCopy: return &unsqueeze_copy_boxed;
    case OpKind::ViewCopy: return &view_copy_boxed;
    case OpKind::NarrowCopy: return &narrow_copy_boxed;
    case OpKind::ExpandCopy: return &expand_copy_boxed;
    // Every other kind listed (no default): a new op is a compile error here until
    // it is wired, or listed as one with a slot of its own in KernelTable.
    case OpKind::Add:
    case OpKind::Clone:
    case OpKind::Copy: return nullptr;  // a slot of its own (program/kernel_table.h)
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
    case OpKind::Relu:
    case OpKind::IndexCopy:
    case OpKind::IndexPut: return nullptr;  // eager ops: the backend declares none
  }
  return nullptr;
}

}  // namespace slicefuzz::et_kernels
