// The kernels a path calls, as replaceable function pointers: a backend swaps
// any of them (backends/), everything else stays the reference implementation.
#pragma once
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernels.h"
#include "vocab/case.h"

namespace slicefuzz {

struct KernelTable {
  decltype(&et_slice) et_slice_op = &et_slice;
  decltype(&add_scalar_) add = &add_scalar_;
  decltype(&clone_out) clone = &clone_out;  // clone(SRC): keeps SRC's layout
  decltype(&copy_) copy = &copy_;
  decltype(&clone_dim_order_out) clone_dim_order = &clone_dim_order_out;  // clone(SRC, dim_order=P)
  decltype(&et_select) et_select_op = &et_select;
  decltype(&et_view) et_view_op = &et_view;
  // The boxed kernel of each op kind whose row names one in kernels.h's
  // registry (nullptr for the ops above, which have their own slot). A backend
  // replaces an entry to put its own kernel under test: `boxed_of(OpKind::X) =
  // &boxed_...<&its_kernel>` (kernels/boxing.h, one template per argument shape).
  BoxedKernel boxed[kNumOpKinds] = {};
  BoxedKernel& boxed_of(OpKind kind) { return boxed[static_cast<int>(kind)]; }
  BoxedKernel boxed_of(OpKind kind) const { return boxed[static_cast<int>(kind)]; }

  KernelTable() {
    for (const OpKindInfo& row : kOpKinds) boxed[static_cast<int>(row.kind)] = find_boxed_kernel(row.kernel);
  }
};

// Runs an op's boxed kernel with the stack ExecuTorch's executor would build:
// [in, its arguments in schema order, out] (vocab/op_schema.h).
inline void call_boxed_kernel(const KernelTable& k, KernelRuntimeContext& ctx, const Op& op,
                              Tensor& in, Tensor& out) {
  const OpKindInfo& info = op_kind_info(op.kind);
  const BoxedKernel fn = k.boxed_of(op.kind);
  if (!fn)
    return ctx.fail(Error::NotSupported, std::string(info.name) + " has no boxed kernel (kernels/kernels.h)");
  constexpr size_t kMaxStack = 8;
  EValue values[kMaxStack];
  EValue* stack[kMaxStack];
  int64_t order[kMaxRank];
  size_t n = 0;
  values[n++] = EValue::from_tensor(&in);
  for (const ArgSpec& a : info.args) {
    if (n + 1 >= kMaxStack) return ctx.fail(Error::NotSupported, "too many arguments for a boxed kernel");
    switch (a.kind) {
      case ArgKind::Scalar:
      case ArgKind::Int: values[n++] = EValue::from_int(op_int(op, a.slot)); break;
      case ArgKind::OptInt: {
        const std::optional<int64_t>& v = op_opt_int(op, a.slot);
        values[n++] = v ? EValue::from_int(*v) : EValue::none();
        break;
      }
      case ArgKind::IntList:
      case ArgKind::DimList: values[n++] = EValue::from_int_list(op.ints.data(), op.ints.size()); break;
      case ArgKind::DimOrder: {
        if (!op.dim_order) {
          values[n++] = EValue::none();
          break;
        }
        if (op.dim_order->size() > static_cast<size_t>(kMaxRank))
          return ctx.fail(Error::InvalidArgument, "a dim order of more than 16 entries");
        for (size_t i = 0; i < op.dim_order->size(); ++i) order[i] = (*op.dim_order)[i];
        values[n++] = EValue::from_int_list(order, op.dim_order->size());
        break;
      }
      case ArgKind::Tensor:
      case ArgKind::NamedTensor: return ctx.fail(Error::NotSupported, "a tensor argument in a boxed kernel");
    }
  }
  values[n++] = EValue::from_tensor(&out);
  for (size_t i = 0; i < n; ++i) stack[i] = &values[i];
  fn(ctx, stack);
}

// Calls the table's et_slice for a slice_copy op: builds the prim op's stack
// [in, dim, start, end, step, out] the way ExecuTorch's executor would.
inline void call_et_slice(const KernelTable& k, KernelRuntimeContext& ctx, const Op& op,
                          Tensor& in, Tensor& out) {
  EValue a = EValue::from_tensor(&in), dim = EValue::from_int(op.dim),
         start = op.start ? EValue::from_int(*op.start) : EValue::none(),
         end = op.end ? EValue::from_int(*op.end) : EValue::none(),
         step = EValue::from_int(op.step), o = EValue::from_tensor(&out);
  EValue* stack[6] = {&a, &dim, &start, &end, &step, &o};
  k.et_slice_op(ctx, stack);
}

// Calls the alias prim op that a view-copy op becomes (op_alias_prim(op.kind)),
// with the stack ExecuTorch's executor would build:
//   et_slice  [in, dim, start, end, step, out]
//   et_select [in, dim, index, out]
//   et_view   [in, sizes (IntList), out]: the result's sizes, as ExecuTorch's
//             memory.view carries them: out's static sizes, or (version 4)
//             `view_sizes`, the list's SymInts evaluated at this execution (out
//             then holds its bound's sizes until et_view resizes it).
// `out` arrives with the result's layout (the planner's metadata).
inline void call_alias_prim(const KernelTable& k, KernelRuntimeContext& ctx, const Op& op,
                            Tensor& in, Tensor& out, const std::vector<int64_t>* view_sizes = nullptr) {
  const std::string_view prim = op_alias_prim(op.kind);
  if (op.kind == OpKind::NarrowCopy && in.rank > 0 && op.dim >= -in.rank && op.dim < in.rank) {
    // [start, start + length) as et_slice's start and end, a negative start first
    // counted from the end (et_slice would count start + length from the end too).
    Op slice = op;
    const int64_t size = in.sizes[op.dim < 0 ? op.dim + in.rank : op.dim];
    const int64_t first = narrow_first(size, op.index);
    slice.start = first;
    slice.end = first + std::min(op.length, size - first);
    slice.step = 1;
    return call_et_slice(k, ctx, slice, in, out);
  }
  if (prim == "et_slice") return call_et_slice(k, ctx, op, in, out);
  EValue a = EValue::from_tensor(&in), o = EValue::from_tensor(&out);
  if (prim == "et_select") {
    EValue dim = EValue::from_int(op.dim), index = EValue::from_int(op.index);
    EValue* stack[4] = {&a, &dim, &index, &o};
    return k.et_select_op(ctx, stack);
  }
  if (prim == "et_view") {
    int64_t sizes[kMaxRank];  // a copy: et_view resizes out while reading the list
    std::memcpy(sizes, out.sizes, sizeof sizes);
    if (view_sizes && view_sizes->size() == static_cast<size_t>(out.rank))
      std::copy(view_sizes->begin(), view_sizes->end(), sizes);
    EValue list = EValue::from_int_list(sizes, static_cast<size_t>(out.rank));
    EValue* stack[3] = {&a, &list, &o};
    return k.et_view_op(ctx, stack);
  }
  ctx.fail(Error::NotSupported, std::string(op_kind_name(op.kind)) + " has no alias prim op");
}

}  // namespace slicefuzz
