#include "backends/executorch/process_killers.h"

#include <cstdint>

namespace slicefuzz::et_limits {

namespace {

// corpus/known/executorch-portable/view_copy_zero_and_inferred.case.
constexpr const char* kViewCopyDivisionByZero =
    "SANITIZER:copy:get_view_copy_target_size@kernels/portable/cpu/util/copy_ops_util.cpp";

// Defect 7 (docs/executorch.md): get_view_copy_target_size
// (kernels/portable/cpu/util/copy_ops_util.cpp) multiplies the sizes other than
// -1 into a size_t and divides numel by that product when one -1 is present,
// before any check. A second -1 returns false inside the loop, first.
bool view_copy_divides_by_zero(const std::vector<int64_t>& sizes) {
  uint64_t product = 1;  // size_t, wrapping like ExecuTorch's
  bool minus_one = false;
  for (int64_t s : sizes) {
    if (s != -1) {
      product *= static_cast<uint64_t>(s);
    } else {
      if (minus_one) return false;
      minus_one = true;
    }
  }
  return minus_one && product == 0;
}

}  // namespace

std::string process_killing_known_finding(const Case& c, const ProgramInfo&) {
  for (const Op& op : c.ops)
    if (op.kind == OpKind::ViewCopy && view_copy_divides_by_zero(op.ints)) return kViewCopyDivisionByZero;
  return {};
}

}  // namespace slicefuzz::et_limits
