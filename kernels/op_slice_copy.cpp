#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

Tensor& slice_copy_Tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step, Tensor& out) {
  std::string why = slice_args_error(in, dim, step);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "slice_copy: %s", why.c_str());
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype, InvalidArgument, out,
                      "slice_copy: out dtype %s differs from in dtype %s",
                      scalar_type_name(out.dtype).data(), scalar_type_name(in.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, same_dim_order(in, out), InvalidArgument, out,
                      "slice_copy: out must have in's rank (%d) and dim order", in.rank);

  const int d = *normalize_dim(dim, in.rank);
  const SliceRange r = normalize_slice(in.sizes[d], start, end, step);
  int64_t out_sizes[kMaxRank];
  for (int i = 0; i < in.rank; ++i) out_sizes[i] = i == d ? r.length : in.sizes[i];
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, out_sizes), InvalidArgument, out,
                      "slice_copy: out cannot be resized to the result (%lld elements along dim %d)",
                      static_cast<long long>(r.length), d);
  if (out.numel() == 0) return out;

  // The input as a strided view: first element at start along d, stride[d] * step.
  int64_t view_strides[kMaxRank];
  for (int i = 0; i < in.rank; ++i) view_strides[i] = in.strides[i];
  // L > 1 implies step * stride[d] is in range; with L == 1 the step may be huge,
  // so it is never multiplied (the stride of a size-1 dim is never used).
  view_strides[d] = r.length > 1 ? in.strides[d] * step : 0;
  const uint8_t* src = in.bytes() + r.start * in.strides[d] * in.element_size();
  strided_copy(out.bytes(), out.strides, src, view_strides, out.sizes, out.rank,
               in.element_size());
  return out;
}

// stack = [in, dim, start (Int|None), end (Int|None), step, out] (the op's schema order).
void slice_copy_Tensor_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_slice_args<&slice_copy_Tensor_out>(ctx, stack);
}

}  // namespace slicefuzz
