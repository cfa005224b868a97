// The kernels a path calls, as replaceable function pointers: a backend swaps
// any of them (backends/), everything else stays the reference implementation.
#pragma once
#include "kernels/kernels.h"
#include "program/case.h"

namespace slicefuzz {

struct KernelTable {
  decltype(&slice_copy_Tensor_out) slice_copy = &slice_copy_Tensor_out;
  decltype(&et_slice) et_slice_op = &et_slice;
  decltype(&add_scalar_) add = &add_scalar_;
  decltype(&clone_out) clone = &clone_out;
  decltype(&copy_) copy = &copy_;
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

// H2 stand-in (judge side, issue 10) for H1's call_alias_prim, same name and
// signature as the plan fixes: calls the alias prim op of op.kind. Only et_slice
// exists in this branch; the merge takes H1's version.
inline void call_alias_prim(const KernelTable& k, KernelRuntimeContext& ctx, const Op& op,
                            Tensor& in, Tensor& out) {
  if (op.kind == OpKind::SliceCopy) return call_et_slice(k, ctx, op, in, out);
  ctx.fail(Error::NotSupported, std::string(op_alias_prim(op.kind)) + " is not in this build");
}

}  // namespace slicefuzz
