// aten::narrow_copy.out, as ExecuTorch's portable kernel (kernels/portable/cpu/
// op_narrow_copy.cpp) defines it: its own argument check first, then the result
// is slice_copy's over [start, start + length) with step 1 (the shape fact and
// the copy are slice_copy's, as get_narrow_copy_out_target_size is upstream).
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

// aten wraps a negative start as it wraps a dim (maybe_wrap_dim): by the size,
// and by 1 for a dim of size 0, so that -1 is a valid start there.
int64_t narrow_start_wrap(int64_t size) { return size > 0 ? size : 1; }
int64_t narrow_first(int64_t size, int64_t start) {
  return start < 0 ? start + narrow_start_wrap(size) : start;
}

std::string narrow_copy_args_error(const Tensor& in, int64_t dim, int64_t start, int64_t length) {
  if (in.rank == 0) return "narrow_copy cannot be applied to a 0-dim tensor";
  const std::optional<int> d = normalize_dim(dim, in.rank);
  if (!d)
    return format_msg("dim %lld is out of range for a tensor of rank %d (expected %d..%d)",
                      static_cast<long long>(dim), in.rank, -in.rank, in.rank - 1);
  const int64_t size = in.sizes[*d];
  if (length < 0) return format_msg("length must be non-negative, got %lld", static_cast<long long>(length));
  if (start < -narrow_start_wrap(size) || start > size)
    return format_msg("start %lld is outside [%lld, %lld]", static_cast<long long>(start),
                      static_cast<long long>(-narrow_start_wrap(size)), static_cast<long long>(size));
  const int64_t first = narrow_first(size, start);
  // Compared without the sum: start + length may not fit in an int64.
  if (length > size - first)
    return format_msg("start (%lld) + length (%lld) exceeds the dim's size (%lld)",
                      static_cast<long long>(first), static_cast<long long>(length),
                      static_cast<long long>(size));
  return {};
}

Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out) {
  const std::string why = narrow_copy_args_error(in, dim, start, length);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "narrow_copy: %s", why.c_str());
  const int64_t first = narrow_first(in.sizes[*normalize_dim(dim, in.rank)], start);
  return slice_copy_Tensor_out(ctx, in, dim, first, first + length, 1, out);
}

void narrow_copy_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  if (!stack[0]->is_tensor() || !stack[1]->is_int() || !stack[2]->is_int() || !stack[3]->is_int() ||
      !stack[4]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "narrow_copy: stack must be [in, dim, start, length, out]");
  narrow_copy_out(ctx, *stack[0]->tensor, stack[1]->int_value, stack[2]->int_value,
                  stack[3]->int_value, *stack[4]->tensor);
}

}  // namespace slicefuzz
