// aten::expand_copy.out, as ExecuTorch's portable kernel defines it (kernels/
// portable/cpu/op_expand_copy.cpp; check_expand_copy_args and
// get_expand_copy_out_target_size in util/copy_ops_util.cpp): in broadcast to
// the sizes, copied into a row-major out. As a view of in it has stride 0 on
// every new and broadcast dim: never dense where it really broadcasts.
#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/checked_math.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

std::string expand_copy_target_sizes(const Tensor& in, const int64_t* sizes, size_t nsizes,
                                     int64_t* target) {
  if (nsizes < static_cast<size_t>(in.rank))
    return format_msg("expand_copy: %zu sizes for a tensor of rank %d (at least its rank)", nsizes,
                      in.rank);
  if (nsizes > static_cast<size_t>(kMaxRank)) return format_msg("expand_copy: %zu sizes (at most 16)", nsizes);
  const int n = static_cast<int>(nsizes);
  for (int j = 0; j < n; ++j) {
    const int i = j - (n - in.rank);  // the dim of in that size j is aligned with (< 0: a new dim)
    if (i < 0) {
      if (sizes[j] < 0)
        return format_msg("expand_copy: size %lld is not allowed in a new leading dim %d",
                          static_cast<long long>(sizes[j]), j);
      target[j] = sizes[j];
    } else if (sizes[j] == -1) {
      target[j] = in.sizes[i];
    } else if (in.sizes[i] != 1 && sizes[j] != in.sizes[i]) {
      return format_msg("expand_copy: size %lld must match the existing size %lld of dim %d",
                        static_cast<long long>(sizes[j]), static_cast<long long>(in.sizes[i]), i);
    } else if (sizes[j] < 0) {
      return format_msg("expand_copy: size %lld is negative", static_cast<long long>(sizes[j]));
    } else {
      target[j] = sizes[j];
    }
  }
  if (!checked_numel_bytes(target, n, in.element_size()))
    return "expand_copy: the result's size overflows";
  return {};
}

void expand_view_strides(const Tensor& in, const int64_t* target, int n, int64_t* strides) {
  for (int j = 0; j < n; ++j) {
    const int i = j - (n - in.rank);  // the dim of in that size j is aligned with
    strides[j] = i < 0 || in.sizes[i] != target[j] ? 0 : in.strides[i];
  }
}

Tensor& expand_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* sizes,
                        size_t nsizes, Tensor& out) {
  int64_t target[kMaxRank];
  const std::string why = expand_copy_target_sizes(in, sizes, nsizes, target);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());
  const int n = static_cast<int>(nsizes);
  bool row_major = out.rank == n;
  for (int i = 0; row_major && i < n; ++i) row_major = out.dim_order[i] == i;
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype && row_major, InvalidArgument, out,
                      "expand_copy: out must have in's dtype, rank %d and the default dim order", n);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, target), InvalidArgument, out,
                      "expand_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  int64_t view_strides[kMaxRank];
  expand_view_strides(in, target, n, view_strides);
  strided_copy(out.bytes(), out.strides, in.bytes(), view_strides, out.sizes, out.rank,
               in.element_size());
  return out;
}

// stack = [in, sizes, out] (the op's schema order).
void expand_copy_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_int_list_arg<&expand_copy_out>(ctx, stack);
}

}  // namespace slicefuzz
