#include "backends/executorch/portable_limits.h"
#include "backends/executorch/view_copy_kernels.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>

#include <climits>
#include <string>
#include <string_view>
#include <vector>

namespace slicefuzz::et_limits {

namespace {

// ExecuTorch's own predicates (runtime/core/exec_aten/util/dim_order_util.h).
bool contiguous(const std::vector<int>& order) {
  return executorch::runtime::is_contiguous_dim_order(order.data(), order.size());
}
bool channels_last(const std::vector<int>& order) {
  return executorch::runtime::is_channels_last_dim_order(order.data(), order.size());
}
// What tensors_have_same_dim_order accepts for one tensor.
bool standard(const std::vector<int>& order) { return contiguous(order) || channels_last(order); }

constexpr const char* kNonStandard = "dim order other than contiguous and channels-last";

// Why the op's kernel may refuse the layouts it meets ("" if it may not).
std::string op_limit(const Op& op, const OpInfo& oi, const ProgramInfo& info) {
  auto layout = [&](int v) -> const ValueInfo* {
    return v >= 0 && info.values[v].known ? &info.values[v] : nullptr;
  };
  const ValueInfo* src = layout(oi.src);
  const ValueInfo* result = layout(oi.result);
  const ValueInfo* target = layout(oi.target);
  switch (op.kind) {
    // tensors_have_same_dim_order(in, out) over tensors of one dim order (and
    // et_slice, the rewrite path's prim op, checks the same).
    case OpKind::SliceCopy:
      if (src && !standard(src->dim_order)) return kNonStandard;
      return {};
    case OpKind::Clone:
      // _clone_dim_order takes any input but only a contiguous or channels-last
      // target (check__to_dim_order_copy_args); clone.out is like slice_copy.
      if (op.dim_order) {
        if (!standard(*op.dim_order)) return "clone: dim_order other than contiguous and channels-last";
        return {};
      }
      if (src && !standard(src->dim_order)) return kNonStandard;
      return {};
    case OpKind::Copy:
      // ExecuTorch's copy_ casts between dtypes; slicefuzz's case language does
      // not (README), so such a copy_ lies outside what this backend can be held to.
      if (target && src && target->dtype != src->dtype)
        return "copy_ between dtypes (ExecuTorch casts; slicefuzz programs do not)";
      // copy_: tensors_have_same_dim_order(self, src).
      if ((target && !standard(target->dim_order)) || (src && !standard(src->dim_order)))
        return kNonStandard;
      if (target && src && contiguous(target->dim_order) != contiguous(src->dim_order))
        return "copy_: one side contiguous, the other channels-last";
      return {};
    case OpKind::Add:
      if (target && !standard(target->dim_order)) return kNonStandard;
      if (target && target->dtype == ScalarType::Bool)
        return "add_ on bool (ExecuTorch's add refuses bool + int)";
      return {};
    case OpKind::SelectCopy:
      // ExecuTorch's select util: tensors_have_same_dim_order(in, out): both contiguous
      // or both channels-last (a channels-last 4-D input's 3-D result is neither).
      if (src && result &&
          !((contiguous(src->dim_order) && contiguous(result->dim_order)) ||
            (channels_last(src->dim_order) && channels_last(result->dim_order))))
        return std::string(op_kind_name(op.kind)) + ": input and result not both contiguous or both channels-last";
      return {};
    case OpKind::SqueezeCopy:
      if (src && !contiguous(src->dim_order))
        return "squeeze_copy: input not in the default dim order (tensor_is_default_dim_order)";
      return {};
    case OpKind::ViewCopy:
      if (src && !contiguous(src->dim_order))
        return "view_copy: input not in the default dim order (tensor_is_default_dim_order)";
      return {};
    case OpKind::ExpandCopy:
      if (src && !contiguous(src->dim_order))
        return "expand_copy: input not in the default dim order (tensor_is_default_dim_order)";
      return {};
    case OpKind::UnsqueezeCopy:  // no dim-order check at all (a known defect, docs/executorch.md)
      return {};
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::Relu:  // eager ops: the backend declares none (Backend::eager_ops)
    case OpKind::Sigmoid:
    case OpKind::Gelu:
    case OpKind::AddTensor:
    case OpKind::MulTensor:
    case OpKind::IndexCopy:
    case OpKind::IndexPut:
      return {};
    default:  // the ops that run through a boxed kernel
      if (!et_kernels::boxed_kernel(op.kind))
        return std::string(op_kind_name(op.kind)) +
               ": no ExecuTorch kernel is wired into this backend (view_copy_kernels.cpp)";
      // tensors_have_same_dim_order(in, out), the portable view-copy kernels'
      // usual check (narrow_copy's, permute_copy's), and et_slice's on the rewrite
      // path (et_slice_prim.cpp): both contiguous or both channels-last.
      if (src && result &&
          !((contiguous(src->dim_order) && contiguous(result->dim_order)) ||
            (channels_last(src->dim_order) && channels_last(result->dim_order))))
        return kNonStandard;
      return {};
  }
  return {};
}

}  // namespace

std::string portable_limits(const Case& c, const ProgramInfo& info) {
  // Sizes are int32 in ExecuTorch (SizesType).
  for (const ValueInfo& v : info.values)
    for (int64_t s : v.sizes)
      if (s > INT32_MAX) return "a size past int32 (ExecuTorch's SizesType)";
  for (size_t i = 0; i < c.ops.size() && i < info.ops.size(); ++i) {
    std::string why = op_limit(c.ops[i], info.ops[i], info);
    if (!why.empty()) return why;
  }
  return {};
}

}  // namespace slicefuzz::et_limits
