// aten::permute_copy.out, as ExecuTorch's portable kernel defines it (kernels/
// portable/cpu/op_permute_copy.cpp; check_permute_copy_args in
// util/copy_ops_util.cpp): the result's dim j is in's dim dims[j]; out has in's
// dim order (tensors_have_same_dim_order). As a view of in it keeps in's offset
// and permutes its strides: dense only where the permuted dims of size > 1 keep
// their order in memory (an et_view alias).
#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/slice_util.h"
#include "kernels/util/strided_copy.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

std::string permute_copy_dims(const Tensor& in, const int64_t* dims, size_t ndims, int* perm) {
  if (ndims != static_cast<size_t>(in.rank))
    return format_msg("permute_copy: %zu dims for a tensor of rank %d", ndims, in.rank);
  bool seen[kMaxRank] = {};
  for (size_t j = 0; j < ndims; ++j) {
    const std::optional<int> d = normalize_dim(dims[j], in.rank);
    if (!d)
      return format_msg("permute_copy: dim %lld is outside [%d, %d]", static_cast<long long>(dims[j]),
                        -in.rank, in.rank - 1);
    if (seen[*d]) return format_msg("permute_copy: dim %d appears more than once", *d);
    seen[*d] = true;
    perm[j] = *d;
  }
  return {};
}

ResultLayout permute_result(const Tensor& in, const int* perm) {
  ResultLayout r = layout_of(in);
  for (int j = 0; j < in.rank; ++j) r.sizes[j] = in.sizes[perm[j]];
  return r;
}

ViewLayout permute_view(const ViewLayout& src, const int* perm) {
  ViewLayout v = src;
  for (int j = 0; j < src.rank; ++j) {
    v.sizes[j] = src.sizes[perm[j]];
    v.strides[j] = src.strides[perm[j]];
  }
  return v;
}

Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dims, size_t ndims,
                         Tensor& out) {
  int perm[kMaxRank];
  std::string why = permute_copy_dims(in, dims, ndims, perm);
  if (why.empty()) why = out_layout_error("permute_copy", out, in.dtype, permute_result(in, perm));
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, permute_result(in, perm).sizes), InvalidArgument, out,
                      "permute_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  const ViewLayout v = permute_view(tensor_view(in), perm);
  strided_copy(out.bytes(), out.strides, in.bytes(), v.strides, out.sizes, out.rank, in.element_size());
  return out;
}

// stack = [in, dims, out] (the op's schema order).
void permute_copy_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_int_list_arg<&permute_copy_out>(ctx, stack);
}

}  // namespace slicefuzz
