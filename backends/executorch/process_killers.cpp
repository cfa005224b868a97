#include "backends/executorch/process_killers.h"

#include <cstdint>
#include <vector>

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

// corpus/known/executorch-portable/squeeze_dims_double_normalised_abort.case.
constexpr const char* kSqueezeDimsAbort =
    "SANITIZER:copy:get_squeeze_copy_dims_out_target_size@kernels/portable/cpu/util/copy_ops_util.cpp";

// Defect 9 (docs/executorch.md): squeeze_copy.dims_out (the form with other than
// one dim) on an input of rank r >= 1 in the default dim order.
// check_squeeze_copy_dims_args adds r to a negative dim and tensor_has_dim then
// accepts a still-negative result; get_squeeze_copy_dims_out_target_size calls
// in.size() with it and ET_CHECK aborts. So: every dim normalised once lies in
// [-r, r-1], no two equal, and one of them is still negative.
bool squeeze_dims_aborts(const std::vector<int64_t>& dims, const ValueInfo& in) {
  const int64_t r = static_cast<int64_t>(in.sizes.size());
  if (dims.empty() || r == 0) return false;
  for (size_t i = 0; i < in.dim_order.size(); ++i)
    if (in.dim_order[i] != static_cast<int>(i)) return false;  // refused before
  std::vector<int64_t> normalised;
  bool still_negative = false;
  for (int64_t d : dims) {
    if (d < -2 * r || d >= r) return false;  // out of range even for the defect
    const int64_t once = d < 0 ? d + r : d;
    for (int64_t seen : normalised)
      if (seen == once) return false;  // "appears multiple times": refused
    normalised.push_back(once);
    still_negative = still_negative || once < 0;
  }
  return still_negative;
}

// corpus/known/executorch-portable/narrow_copy_check_args_abort_and_overflow.case.
constexpr const char* kNarrowNegativeDimAbort =
    "SANITIZER:copy:check_narrow_copy_args@kernels/portable/cpu/util/slice_util.cpp";

// The narrow_copy defect of 2026-12-01 (docs/executorch.md): check_narrow_copy_args
// (kernels/portable/cpu/util/slice_util.cpp:20-31 at cff6f4dd) accepts a negative
// dim (tensor_has_dim) and a length >= 0, then calls in.size(dim) with the dim as
// written: Tensor::size ET_CHECKs it and aborts. So: rank >= 1, -rank <= dim < 0,
// length >= 0.
bool narrow_aborts(const Op& op, const ValueInfo& in) {
  const int64_t r = static_cast<int64_t>(in.sizes.size());
  return r >= 1 && op.dim < 0 && op.dim >= -r && op.length >= 0;
}

// executorch-runtime's programs call squeeze_copy.dims_out for a one-entry list
// written `dims=[D]` too (where executorch-portable's wrapper calls dim_out), so
// the rewrite path, which runs the program, reaches defect 9 there first.
// The signature names the path that runs the program: `rewrite` (runtime-op
// aliases) or `planned`.
std::string squeeze_dims_abort_in_a_program(const char* path) {
  return std::string("SANITIZER:") + path +
         ":get_squeeze_copy_dims_out_target_size@kernels/portable/cpu/util/copy_ops_util.cpp";
}

std::string killer(const Case& c, const ProgramInfo& info, const char* program_path) {
  const bool one_entry_lists_in_programs = program_path != nullptr;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    if (op.kind == OpKind::ViewCopy && view_copy_divides_by_zero(op.ints)) return kViewCopyDivisionByZero;
    if (op.kind == OpKind::SqueezeCopy && k < info.ops.size()) {
      const int src = info.ops[k].src;
      const bool known = src >= 0 && src < static_cast<int>(info.values.size()) && info.values[src].known;
      // The copy path calls dims_out for lists of other than one entry.
      if (known && op.ints.size() != 1 && squeeze_dims_aborts(op.ints, info.values[src])) return kSqueezeDimsAbort;
      if (known && one_entry_lists_in_programs && op.ints.size() == 1 && !op.single_dim &&
          squeeze_dims_aborts(op.ints, info.values[src]))
        return squeeze_dims_abort_in_a_program(program_path);
    }
    if (op.kind == OpKind::NarrowCopy && k < info.ops.size() && (info.failing_op < 0 || static_cast<int>(k) <= info.failing_op)) {
      const int src = info.ops[k].src;
      if (src >= 0 && src < static_cast<int>(info.values.size()) && info.values[src].known &&
          narrow_aborts(op, info.values[src]))
        return kNarrowNegativeDimAbort;
    }
  }
  return {};
}

}  // namespace

std::string process_killing_known_finding(const Case& c, const ProgramInfo& info) {
  return killer(c, info, nullptr);
}

std::string process_killing_known_finding_in_programs(const Case& c, const ProgramInfo& info) {
  return killer(c, info, "rewrite");
}

std::string process_killing_known_finding_in_planned_programs(const Case& c, const ProgramInfo& info) {
  return killer(c, info, "planned");
}

}  // namespace slicefuzz::et_limits
