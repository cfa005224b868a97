// The kernels a path calls, as replaceable function pointers: a backend swaps
// any of them (backends/), everything else stays the reference implementation.
#pragma once
#include <cstring>
#include <string_view>

#include "kernels/kernels.h"
#include "program/case.h"

namespace slicefuzz {

struct KernelTable {
  decltype(&slice_copy_Tensor_out) slice_copy = &slice_copy_Tensor_out;
  decltype(&et_slice) et_slice_op = &et_slice;
  decltype(&add_scalar_) add = &add_scalar_;
  decltype(&clone_out) clone = &clone_out;  // clone(SRC): keeps SRC's layout
  decltype(&copy_) copy = &copy_;
  decltype(&select_copy_int_out) select_copy = &select_copy_int_out;
  decltype(&squeeze_copy_dims_out) squeeze_copy = &squeeze_copy_dims_out;
  decltype(&unsqueeze_copy_out) unsqueeze_copy = &unsqueeze_copy_out;
  decltype(&view_copy_out) view_copy = &view_copy_out;
  decltype(&clone_dim_order_out) clone_dim_order = &clone_dim_order_out;  // clone(SRC, dim_order=P)
  decltype(&et_select) et_select_op = &et_select;
  decltype(&et_view) et_view_op = &et_view;
};

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
//   et_view   [in, sizes (IntList), out]: the sizes are out's static sizes, as
//             ExecuTorch's memory.view carries the result's sizes.
// `out` arrives with the result's layout (the planner's metadata).
inline void call_alias_prim(const KernelTable& k, KernelRuntimeContext& ctx, const Op& op,
                            Tensor& in, Tensor& out) {
  const std::string_view prim = op_alias_prim(op.kind);
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
    EValue list = EValue::from_int_list(sizes, static_cast<size_t>(out.rank));
    EValue* stack[3] = {&a, &list, &o};
    return k.et_view_op(ctx, stack);
  }
  ctx.fail(Error::NotSupported, std::string(op_kind_name(op.kind)) + " has no alias prim op");
}

}  // namespace slicefuzz
